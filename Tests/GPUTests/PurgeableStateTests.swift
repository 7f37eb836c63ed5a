import AppLifecycle
import Foundation
import GPU
import Glibc
import GPUTestSupport
import SystemLifecycle
import Testing

/// Metal's purgeable state on buffers: volatile contents are emptied on a memory warning
/// and on entering the background, and their memory goes back to the system.
@Suite("purgeable buffers", .validated)
struct PurgeableStateTests {
    @Test("the states and what each call returns, as Metal's setPurgeableState")
    func states() throws {
        let gpu = try TestGPU(lifecycle: AppLifecycle(clock: ManualClock()))
        let kept = try gpu.device.makeBuffer(length: 4096)
        let purged = try gpu.device.makeBuffer(length: 4096)
        purged.contents().storeBytes(of: 7, as: UInt32.self)
        #expect(purged.setPurgeableState(.keepCurrent) == .nonVolatile)
        #expect(purged.setPurgeableState(.volatile) == .nonVolatile)
        #expect(purged.setPurgeableState(.keepCurrent) == .volatile)
        #expect(kept.setPurgeableState(.volatile) == .nonVolatile)
        #expect(kept.setPurgeableState(.nonVolatile) == .volatile, "nonvolatile again before the warning")

        gpu.device.lifecycle.didReceiveMemoryWarning()
        #expect(purged.setPurgeableState(.keepCurrent) == .empty, "discarded by the warning")
        #expect(kept.setPurgeableState(.keepCurrent) == .nonVolatile)
        #expect(purged.setPurgeableState(.nonVolatile) == .empty, "as Metal: the contents were discarded")
        #expect(purged.contents().load(as: UInt32.self) == 0, "new memory, zero-filled")

        // The new memory works on the GPU.
        let increment = try gpu.incrementBuffer(purged)
        increment.commit()
        increment.waitUntilCompleted()
        #expect(increment.status == .completed)
        #expect(purged.contents().load(as: UInt32.self) == 1)

        // Emptied at once when asked.
        #expect(kept.setPurgeableState(.empty) == .nonVolatile)
        #expect(kept.setPurgeableState(.keepCurrent) == .empty)
    }

    @Test("entering the background empties volatile buffers; GPU work in flight keeps its memory until it completes")
    func background() throws {
        let lifecycle = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: lifecycle)
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let held = try gpu.queue.makeCommandBuffer()
        held.encodeWaitForEvent(event, value: 1)
        held.commit()
        let increment = try gpu.incrementBuffer(counter)
        increment.commit()
        counter.setPurgeableState(.volatile)
        // Released as the gate closes: the drain schedules both, then the counter is emptied.
        let token = lifecycle.observe { if $0.event == .didEnterBackground { event.signaledValue = 1 } }
        let report = lifecycle.didEnterBackground(deadline: .seconds(5))
        #expect(report.scheduled == 2)
        increment.waitUntilCompleted()
        #expect(increment.status == .completed, "its memory outlived the discard")
        #expect(counter.setPurgeableState(.keepCurrent) == .empty)
        _ = token
    }
}

/// Metal's purgeable state on textures: the same states as buffers; an emptied texture gets
/// a new image when set nonvolatile again, and GPU work already using the old one keeps it.
@Suite("purgeable textures", .validated)
struct PurgeableTextureTests {
    static let quadrants: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]

    /// A 2×2 texture holding red, green, blue and white quadrants.
    static func quadrantTexture(_ gpu: TestGPU) throws -> Texture {
        let image = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 2, height: 2, mipmapped: false))
        image.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: quadrants, bytesPerRow: 8)
        return image
    }

    /// A command buffer drawing `image` over all of `target` with a nearest sampler, after
    /// waiting for `event` to reach 1 if one is given.
    static func drawQuad(_ gpu: TestGPU, sampling image: Texture, into target: Texture,
                         after event: SharedEvent? = nil) throws -> CommandBuffer {
        let quad: [Float] = [-1, 1, 0, 0, 1, 1, 1, 0, 1, -1, 1, 1, -1, -1, 0, 1]
        let indices: [UInt16] = [0, 1, 2, 0, 2, 3]
        let cb = try gpu.queue.makeCommandBuffer()
        if let event { cb.encodeWaitForEvent(event, value: 1) }
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(try gpu.texturedPipeline())
        encoder.setVertexBuffer(try gpu.buffer(quad), offset: 0, index: 0)
        encoder.setFragmentTexture(image, index: 0)
        encoder.setFragmentSamplerState(try gpu.device.makeSamplerState(descriptor: SamplerDescriptor()), index: 0)
        encoder.drawIndexedPrimitives(type: .triangle, indexCount: 6, indexType: .uint16,
                                      indexBuffer: try gpu.buffer(indices), indexBufferOffset: 0)
        encoder.endEncoding()
        return cb
    }

    /// Expects the four quadrants of `quadrantTexture` in a 64×64 read-back.
    static func expectQuadrants(_ pixels: [UInt8], _ comment: Comment) {
        #expect(texel(pixels, width: 64, x: 10, y: 10) == [255, 0, 0, 255], comment)
        #expect(texel(pixels, width: 64, x: 50, y: 10) == [0, 255, 0, 255], comment)
        #expect(texel(pixels, width: 64, x: 10, y: 50) == [0, 0, 255, 255], comment)
        #expect(texel(pixels, width: 64, x: 50, y: 50) == [255, 255, 255, 255], comment)
    }

    @Test("a volatile texture keeps its texels until a memory warning; emptied, then nonvolatile again, it renders and samples")
    func statesAndPixels() throws {
        let gpu = try TestGPU(lifecycle: AppLifecycle(clock: ManualClock()))
        let image = try Self.quadrantTexture(gpu)
        let target = try gpu.renderTarget()
        let kept = try gpu.renderTarget()
        #expect(image.setPurgeableState(.keepCurrent) == .nonVolatile)
        #expect(image.setPurgeableState(.volatile) == .nonVolatile)
        #expect(target.setPurgeableState(.volatile) == .nonVolatile)
        #expect(kept.setPurgeableState(.volatile) == .nonVolatile)
        #expect(kept.setPurgeableState(.nonVolatile) == .volatile, "nonvolatile again before the warning")

        // Not purged yet: sampled and rendered to while volatile.
        var cb = try Self.drawQuad(gpu, sampling: image, into: target)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        Self.expectQuadrants(try gpu.pixels(of: target), "volatile, not purged")
        #expect(image.setPurgeableState(.keepCurrent) == .volatile)

        gpu.device.lifecycle.didReceiveMemoryWarning()
        #expect(image.setPurgeableState(.keepCurrent) == .empty, "discarded by the warning")
        #expect(target.setPurgeableState(.keepCurrent) == .empty, "discarded by the warning")
        #expect(kept.setPurgeableState(.keepCurrent) == .nonVolatile)

        // New images: the target is rendered to and read back, the texture refilled and sampled.
        #expect(target.setPurgeableState(.nonVolatile) == .empty, "as Metal: the contents were discarded")
        #expect(image.setPurgeableState(.volatile) == .empty)
        image.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: Self.quadrants, bytesPerRow: 8)
        cb = try Self.drawQuad(gpu, sampling: image, into: target)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        Self.expectQuadrants(try gpu.pixels(of: target), "new images after the warning")
        var bytes = [UInt8](repeating: 0, count: 16)
        image.getBytes(&bytes, bytesPerRow: 8, from: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0)
        #expect(bytes == Self.quadrants)

        // Emptied at once when asked.
        #expect(kept.setPurgeableState(.empty) == .nonVolatile)
        #expect(kept.setPurgeableState(.keepCurrent) == .empty)
    }

    @Test("emptying a texture that GPU work in flight samples: the work keeps the image until it completes")
    func emptiedWhileInFlight() throws {
        let gpu = try TestGPU(lifecycle: AppLifecycle(clock: ManualClock()))
        let image = try Self.quadrantTexture(gpu)
        let target = try gpu.renderTarget()
        let event = try gpu.device.makeSharedEvent()
        let cb = try Self.drawQuad(gpu, sampling: image, into: target, after: event)
        cb.commit()
        #expect(image.setPurgeableState(.empty) == .nonVolatile)
        #expect(image.setPurgeableState(.keepCurrent) == .empty)
        event.signaledValue = 1
        cb.waitUntilCompleted()
        #expect(cb.status == .completed, "its image outlived the discard")
        Self.expectQuadrants(try gpu.pixels(of: target), "drawn from the emptied texture's old image")
    }

    @Test("entering the background empties volatile textures")
    func background() throws {
        let lifecycle = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: lifecycle)
        let image = try Self.quadrantTexture(gpu)
        image.setPurgeableState(.volatile)
        _ = lifecycle.didEnterBackground(deadline: .seconds(5))
        #expect(image.setPurgeableState(.keepCurrent) == .empty)
    }
}

/// Resident memory before and after a memory warning empties a volatile buffer or texture.
/// It reads the whole process's resident memory, so it runs with no other test beside it
/// (`scripts/test.sh` runs it after the rest, one suite at a time, and its tests one at a
/// time).
@Suite("resident memory after a memory warning", .validated, .serialized)
struct ResidentMemoryTests {
    /// The process's resident memory, from /proc/self/statm.
    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try #require(Int(statm[1])) * sysconf(Int32(_SC_PAGESIZE))
    }

    /// Sends low-memory-monitor's warning (dbusmock) to a GPU on its own lifecycle once
    /// `prepare` has made there what it returns, with `length` bytes volatile, and expects
    /// resident memory to drop by most of them; prints the figures for `what`.
    static func acrossMemoryWarning<Made>(_ what: String, length: Int,
                                          prepare: (TestGPU) throws -> Made) throws -> Made {
        let bus = try MockSystemBus(templates: ["low_memory_monitor"])
        let lifecycle = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: lifecycle)
        let monitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, session: .none)
        try monitor.start()
        defer { monitor.stop() }
        let warned = DispatchSemaphore(value: 0)
        let token = lifecycle.observeMemoryWarnings { warned.signal() }

        let made = try prepare(gpu)
        let before = try residentBytes()
        _ = try bus.python("bus.get_object('org.freedesktop.LowMemoryMonitor', '/org/freedesktop/LowMemoryMonitor')"
            + ".EmitWarning(dbus.Byte(255), dbus_interface=mock)")
        #expect(warned.wait(timeout: .now() + 10) == .success)
        let after = try residentBytes()
        print(String(format: "memory warning: resident %.1f MiB before, %.1f MiB after (", Double(before) / 1048576,
                     Double(after) / 1048576) + what + " emptied)")
        #expect(before - after >= length * 3 / 4, "the \(what)'s pages went back to the system")
        _ = token
        return made
    }

    @Test("a memory warning from low-memory-monitor gives a volatile buffer's memory back: resident memory drops")
    func residentMemoryDrops() throws {
        let length = 64 << 20
        let (cache, kept) = try Self.acrossMemoryWarning("a 64 MiB volatile buffer", length: length) { gpu in
            let cache = try gpu.device.makeBuffer(length: length)   // zero-filled: every page resident
            let kept = try gpu.device.makeBuffer(length: 4096)
            cache.setPurgeableState(.volatile)
            return (cache, kept)
        }
        #expect(cache.setPurgeableState(.keepCurrent) == .empty)
        #expect(kept.setPurgeableState(.keepCurrent) == .nonVolatile)
    }

    @Test("a memory warning from low-memory-monitor gives a volatile texture's memory back: resident memory drops")
    func residentMemoryDropsForTexture() throws {
        let side = 4096, length = side * side * 4   // rgba8: 64 MiB
        let cache = try Self.acrossMemoryWarning("a 4096×4096 rgba8 volatile texture", length: length) { gpu in
            let cache = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: side, height: side,
                                                                          mipmapped: false))
            // Written by the GPU, so that every page is resident.
            let fill = try gpu.device.makeBuffer(length: length, options: .storageModePrivate)
            let cb = try gpu.queue.makeCommandBuffer()
            let blit = try cb.makeBlitCommandEncoder()
            blit.fill(buffer: fill, range: 0..<length, value: 0x7f)
            blit.copy(from: fill, sourceOffset: 0, sourceBytesPerRow: side * 4, sourceSize: Size(width: side, height: side),
                      to: cache)
            blit.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .completed)
            fill.setPurgeableState(.empty)
            cache.setPurgeableState(.volatile)
            return cache
        }
        #expect(cache.setPurgeableState(.keepCurrent) == .empty)
    }
}
