import Foundation
import GPUTestSupport
import Testing
@testable import GPU

@Suite("Compute and blit", .validated)
struct ComputeTests {
    @Test("vector add of 1M floats, shared buffers", arguments: [true, false])
    func vectorAdd(pushDescriptors: Bool) throws {
        let gpu = try TestGPU(pushDescriptors: pushDescriptors)
        #expect(gpu.device.usesPushDescriptors == pushDescriptors)
        let count = 1 << 20
        let length = count * 4
        let a = try gpu.device.makeBuffer(length: length)
        let b = try gpu.device.makeBuffer(length: length)
        let result = try gpu.device.makeBuffer(length: length)
        let aValues = a.contents().bindMemory(to: Float.self, capacity: count)
        let bValues = b.contents().bindMemory(to: Float.self, capacity: count)
        for i in 0..<count { aValues[i] = Float(i); bValues[i] = 0.25 * Float(i) }

        let pipeline = try gpu.pipeline("add.comp")
        #expect(pipeline.threadsPerThreadgroup == Size(width: 64))
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(a, offset: 0, index: 0)
        encoder.setBuffer(b, offset: 0, index: 1)
        encoder.setBuffer(result, offset: 0, index: 2)
        var n = UInt32(count)
        encoder.setBytes(&n, length: 4, index: 3)
        encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: 64))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        #expect(commandBuffer.error == nil)

        let output = result.contents().bindMemory(to: Float.self, capacity: count)
        let wrong = (0..<count).first { output[$0] != Float($0) + 0.25 * Float($0) }
        #expect(wrong == nil, "first wrong element: \(wrong.map(String.init) ?? "")")
        #expect(commandBuffer.gpuStartTime > 0)
        #expect(commandBuffer.gpuEndTime >= commandBuffer.gpuStartTime)
        if gpu.device.isSoftware && !gpu.device.recordsGPUTimestamps {
            // No timestamps on lavapipe (each would flush the rasterizer): the kernel times.
            #expect(commandBuffer.gpuStartTime == commandBuffer.kernelStartTime)
            #expect(commandBuffer.gpuEndTime == commandBuffer.kernelEndTime)
        }
        #expect(commandBuffer.kernelStartTime > 0)
        #expect(commandBuffer.kernelEndTime >= commandBuffer.kernelStartTime)
    }

    @Test("vector add with private inputs filled through staging and a blit read-back")
    func privateBuffers() throws {
        let gpu = try TestGPU()
        let count = 4096
        let values = (0..<count).map { Float($0) }
        let a = try values.withUnsafeBytes { try gpu.device.makeBuffer(bytes: $0.baseAddress!, length: $0.count, options: .storageModePrivate) }
        let b = try values.withUnsafeBytes { try gpu.device.makeBuffer(bytes: $0.baseAddress!, length: $0.count, options: .storageModePrivate) }
        #expect(a.storageMode == .private)
        let result = try gpu.device.makeBuffer(length: count * 4, options: .storageModePrivate)
        let readBack = try gpu.device.makeBuffer(length: count * 4)

        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        try gpu.encodeAdd(a, b, into: result, count: count, encoder: encoder)
        encoder.endEncoding()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.copy(from: result, sourceOffset: 0, to: readBack, destinationOffset: 0, size: count * 4)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        let output = readBack.contents().bindMemory(to: Float.self, capacity: count)
        #expect((0..<count).allSatisfy { output[$0] == 2 * Float($0) })
    }

    @Test("sum reduction of 1M values in two dependent passes of one command buffer")
    func reduction() throws {
        let gpu = try TestGPU()
        let count = 1 << 20
        let input = try gpu.device.makeBuffer(length: count * 4)
        let values = input.contents().bindMemory(to: UInt32.self, capacity: count)
        var expected: UInt32 = 0
        for i in 0..<count { values[i] = UInt32(i % 1000); expected &+= UInt32(i % 1000) }
        let partials = try gpu.device.makeBuffer(length: (count / 256) * 4)
        let partials2 = try gpu.device.makeBuffer(length: (count / 256 / 256) * 4)
        let pipeline = try gpu.pipeline("reduce.comp")

        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        for (source, destination, n) in [(input, partials, count), (partials, partials2, count / 256)] {
            encoder.setBuffer(source, offset: 0, index: 0)
            encoder.setBuffer(destination, offset: 0, index: 1)
            var n32 = UInt32(n)
            encoder.setBytes(&n32, length: 4, index: 3)
            encoder.dispatchThreads(Size(width: n), threadsPerThreadgroup: Size(width: 256))
        }
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        let sums = partials2.contents().bindMemory(to: UInt32.self, capacity: 16)
        let total = (0..<(count / 256 / 256)).reduce(UInt32(0)) { $0 &+ sums[$1] }
        #expect(total == expected)
    }

    @Test("blit fill handles unaligned edges; copy moves bytes")
    func blitFillAndCopy() throws {
        let gpu = try TestGPU()
        let buffer = try gpu.device.makeBuffer(length: 64)
        let copy = try gpu.device.makeBuffer(length: 64)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.fill(buffer: buffer, range: 3..<22, value: 0xAB)
        blit.copy(from: buffer, sourceOffset: 0, to: copy, destinationOffset: 0, size: 64)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        let bytes = UnsafeRawBufferPointer(start: copy.contents(), count: 64)
        #expect(bytes.enumerated().allSatisfy { (3..<22).contains($0.offset) ? $0.element == 0xAB : $0.element == 0 })
    }

    @Test("several command buffers chain reads after writes across buffers on a queue")
    func crossBufferHazard() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        var buffers: [CommandBuffer] = []
        for _ in 0..<20 { buffers.append(try gpu.incrementBuffer(counter, by: 3)) }
        buffers.forEach { $0.commit() }
        buffers.last!.waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 60)
    }

    @Test("setBufferOffset moves the bound buffer: the second dispatch adds 16 bytes further on")
    func bufferOffset() throws {
        let gpu = try TestGPU()
        // Storage-buffer offsets must be multiples of the device's alignment (16 on lavapipe).
        let counter = try gpu.device.makeBuffer(length: 32)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        try gpu.encodeIncrement(counter, by: 3, into: encoder)
        encoder.setBufferOffset(16, index: 0)
        var amount: UInt32 = 7
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let words = counter.contents().bindMemory(to: UInt32.self, capacity: 8)
        #expect(words[0] == 3 && words[4] == 7)
    }

    @Test("a dispatch over the device's group-count limit is split with base offsets: every group runs once, with its own id")
    func overLimitDispatchIsSplit() throws {
        let gpu = try TestGPU()
        // The grid is a line along the axis with the lowest limit (65,535 on every driver
        // seen: all three on lavapipe, y and z on NVIDIA's), one group past it and then some.
        let limits = gpu.device.limits.maxThreadgroupsPerGrid
        let axes = [limits.width, limits.height, limits.depth]
        let axis = axes.indices.min { axes[$0] < axes[$1] }!
        let groups = axes[axis] + 1 + 999
        try #require(groups <= 1 << 20, "the lowest limit, \(axes[axis]), leaves a grid too large to read back")
        let words = try gpu.device.makeBuffer(length: groups * 64 * 4)
        memset(words.contents(), 0, words.length)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try gpu.pipeline("group_line.comp"))
        encoder.setBuffer(words, offset: 0, index: 0)
        var grid = [1, 1, 1]
        grid[axis] = groups
        encoder.dispatchThreadgroups(Size(width: grid[0], height: grid[1], depth: grid[2]),
                                     threadsPerThreadgroup: Size(width: 64))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        let result = words.contents().bindMemory(to: UInt32.self, capacity: groups * 64)
        let wrong = (0..<(groups * 64)).filter { result[$0] != UInt32($0 / 64 + 1) }
        #expect(wrong.isEmpty, "axis \(axis), \(groups) groups: \(wrong.count) words wrong, first at \(wrong.first ?? -1)")
    }
}
