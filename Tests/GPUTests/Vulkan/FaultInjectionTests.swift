import Foundation
import GPUTestSupport
import Testing
@testable import GPU
import Shaders

@Suite("Fault injection", .validated)
struct FaultInjectionTests {
    @Test("OUT_OF_DEVICE_MEMORY at buffer creation is a thrown error, and the next one works")
    func outOfMemoryAtBufferCreation() throws {
        let gpu = try TestGPU()
        gpu.device.backend.faults.inject(.outOfDeviceMemory, at: .allocateMemory)
        #expect {
            _ = try gpu.device.makeBuffer(length: 1024)
        } throws: { error in
            guard case GPUError.vulkan(let vulkan) = error else { return false }
            return vulkan.code == .outOfDeviceMemory && vulkan.callSite == "vkAllocateMemory"
                && "\(error)" == "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY"
        }
        #expect(try gpu.device.makeBuffer(length: 1024).length == 1024)
    }

    @Test("an error at submit ends the buffer in .error with both handlers once")
    func submitFailure() throws {
        let gpu = try TestGPU()
        let commandBuffer = try gpu.incrementBuffer(try gpu.device.makeBuffer(length: 4))
        let calls = Locked<[String]>([])
        commandBuffer.addScheduledHandler { _ in calls.withLock { $0.append("scheduled") } }
        commandBuffer.addCompletedHandler { cb in calls.withLock { $0.append("completed \(cb.status)") } }
        gpu.device.backend.faults.inject(.outOfHostMemory, at: .queueSubmit)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .error)
        #expect(commandBuffer.error?.code == .outOfMemory)
        #expect(commandBuffer.error?.localizedDescription.contains("VK_ERROR_OUT_OF_HOST_MEMORY") == true)
        #expect(calls.current == ["scheduled", "completed error"])
        // The queue goes on working.
        let next = try gpu.incrementBuffer(try gpu.device.makeBuffer(length: 4))
        next.commit()
        next.waitUntilCompleted()
        #expect(next.status == .completed)
    }

    @Test("DEVICE_LOST at submit ends every buffer in flight in .error, handlers once, no hang")
    func deviceLostAtSubmit() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let completions = Locked<[Int: Int]>([:])
        func track(_ cb: CommandBuffer, _ id: Int) {
            cb.addCompletedHandler { _ in completions.withLock { $0[id, default: 0] += 1 } }
        }
        // The first buffer's completed handler holds the completion thread, so the two
        // buffers after it stay in flight.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = try gpu.incrementBuffer(counter)
        first.addCompletedHandler { _ in
            entered.signal()
            release.wait()
        }
        track(first, 0)
        first.commit()
        entered.wait()
        var inFlight: [CommandBuffer] = []
        for id in 1...2 {
            let cb = try gpu.incrementBuffer(counter)
            track(cb, id)
            cb.commit()
            inFlight.append(cb)
        }
        for cb in inFlight { cb.waitUntilScheduled() }

        let lost = try gpu.incrementBuffer(counter)
        track(lost, 3)
        gpu.device.backend.faults.inject(.deviceLost, at: .queueSubmit)
        lost.commit()
        #expect(lost.status == .error)
        #expect(lost.error?.code == .deviceRemoved)
        for cb in inFlight {
            #expect(cb.status == .error)
            #expect(cb.error?.code == .deviceRemoved)
        }
        // Later commits fail at once, without reaching Vulkan.
        let after = try gpu.incrementBuffer(counter)
        track(after, 4)
        after.commit()
        #expect(after.error?.code == .deviceRemoved)
        #expect(after.error?.localizedDescription == "The GPU device was lost; no further work can run on it")

        release.signal()
        first.waitUntilCompleted()
        #expect(first.status == .completed, "it finished before the loss")
        #expect(completions.current == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])
    }

    @Test("a library from bytes that are not SPIR-V, and a missing function, are thrown errors")
    func libraryErrors() throws {
        let gpu = try TestGPU()
        #expect(throws: LibraryError.self) { try gpu.device.makeLibrary(spirv: Data("not a shader".utf8)) }
        do {
            _ = try gpu.library.makeFunction(name: "missing.comp")
            Issue.record("no error")
        } catch {
            #expect(error == .functionNotFound(name: "missing.comp", available: gpu.library.functionNames))
            #expect("\(error)".contains("add.comp, address_chain.comp, bench.frag, bench.vert, color.frag, cube.vert, fullscreen.vert"))
        }
        #expect(Array(gpu.library.functionNames.prefix(3)) == ["add.comp", "address_chain.comp", "bench.frag"])
        #expect(gpu.library.functionNames.contains("triangle.vert"))
    }

    @Test("makeLibrary(spirv:) names functions by entry point")
    func libraryFromData() throws {
        let gpu = try TestGPU()
        let url = Shaders.bundle.url(forResource: "add.comp", withExtension: "spv")!
        let library = try gpu.device.makeLibrary(spirv: Data(contentsOf: url))
        #expect(library.functionNames == ["main"])
        let pipeline = try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "main"))
        #expect(pipeline.threadsPerThreadgroup == Size(width: 64))
    }

    @Test("GPU_DEVICE picks by index or name substring; no match lists the devices")
    func deviceSelection() throws {
        TestEnvironment.prepare()
        let candidates = try Device.physicalDevices()
        #expect(try Device.choose(from: candidates, selector: "0") === candidates[0])
        // A name matches case-insensitively by any part of it: the last word, upper-cased.
        let first = candidates[0].name
        let word = try #require(first.split(separator: " ").last).uppercased()
        #expect(try Device.choose(from: candidates, selector: word).name.uppercased().contains(word))
        #expect {
            _ = try Device.choose(from: candidates, selector: "no such gpu")
        } throws: { error in
            "\(error)".contains("GPU_DEVICE=no such gpu matches no device; devices: 0: \(first)")
        }
        let device = try Device.makeDefault()
        #expect(device.name == first)
        #expect(device.isSoftware == first.hasPrefix("llvmpipe"), "\(first) is a CPU device exactly when it is lavapipe")
        #expect(try Device.all().count == candidates.count)
    }

    @Test("a blit fill whose upload ring cannot grow ends its buffer in .error with out-of-memory, handlers once")
    func fillUploadFailure() throws {
        let gpu = try TestGPU()
        let buffer = try gpu.device.makeBuffer(length: 16)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let calls = Locked(0)
        commandBuffer.addCompletedHandler { _ in calls.withLock { $0 += 1 } }
        let blit = try commandBuffer.makeBlitCommandEncoder()
        // The unaligned edges of the range go through the upload ring, whose first chunk
        // is made now.
        gpu.device.backend.faults.inject(.outOfDeviceMemory, at: .allocateMemory)
        blit.fill(buffer: buffer, range: 1..<7, value: 9)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .error)
        #expect(commandBuffer.error?.code == .outOfMemory)
        #expect(commandBuffer.error?.message.contains("VK_ERROR_OUT_OF_DEVICE_MEMORY") == true)
        #expect(calls.current == 1)
    }

    @Test("a failed internal upload reaches the caller as what it is, not as an invalid argument")
    func internalUploadFailure() throws {
        let gpu = try TestGPU()
        gpu.device.backend.faults.inject(.outOfDeviceMemory, at: .queueSubmit)
        #expect {
            _ = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 8, height: 8, mipmapped: false))
        } throws: { error in
            guard case GPUError.commandBuffer(let failure) = error else { return false }
            return failure.code == .outOfMemory && "\(error)".contains("VK_ERROR_OUT_OF_DEVICE_MEMORY")
        }
    }

    @Test("setBytes whose upload memory cannot grow: no throw, the dispatch after it is skipped, the buffer ends in .error once")
    func setBytesUploadFailure() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let calls = Locked(0)
        commandBuffer.addCompletedHandler { _ in calls.withLock { $0 += 1 } }
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
        encoder.setBuffer(counter, offset: 0, index: 0)
        // The first setBytes of a new recording context makes its upload ring's first chunk.
        gpu.device.backend.faults.inject(.outOfDeviceMemory, at: .allocateMemory)
        var amount: UInt32 = 5
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .error)
        #expect(commandBuffer.error?.code == .outOfMemory)
        #expect(calls.current == 1)
        #expect(counter.contents().load(as: UInt32.self) == 0, "nothing ran")
        // The queue goes on.
        let next = try gpu.incrementBuffer(counter)
        next.commit()
        next.waitUntilCompleted()
        #expect(next.status == .completed && counter.contents().load(as: UInt32.self) == 1)
    }
}
