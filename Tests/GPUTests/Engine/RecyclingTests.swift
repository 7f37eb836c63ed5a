import FramePacing
import GPUTestSupport
import Testing
@testable import GPU
import SwiftGPUSupport

/// Finished command buffers and ended compute encoders are reused when nothing outside
/// SwiftGPU can reach them, so a steady loop allocates neither; an object the app can still
/// reach, strongly, weakly or unowned, is never reused.
@Suite("Command buffer and encoder recycling", .validated)
struct RecyclingTests {
    /// The object's address, taken without keeping a reference.
    private func address(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque()
    }

    /// A queue whose recycler gives candidates up on `clock`, virtual time the test
    /// advances: the 100 ms grace passes when the test says, never while a loaded machine
    /// keeps the test's thread waiting.
    private func makeQueue(_ gpu: TestGPU, on clock: VirtualDisplay) throws -> CommandQueue {
        try gpu.device.makeCommandQueue(candidateClock: clock)
    }

    /// Blocks until the queue's give-up timer is set: the completion thread sets it just
    /// after it keeps the first candidate, and virtual time advanced before that would not
    /// reach it.
    private func waitForGiveUpTimer(_ queue: CommandQueue) {
        wait(on: queue.engine, "the give-up timer set") { queue.engine.recycler.giveUpTimer != nil }
    }

    /// Blocks until `isDone` holds on the queue's engine (a test fails rather than hangs
    /// when it never does: 10 s).
    private func wait(on engine: QueueEngine, _ what: String, until isDone: () -> Bool) {
        engine.lock.withLock {
            let done = engine.lock.wait(until: isDone, deadline: HostClock.nanoseconds() + 10_000_000_000)
            #expect(done, "\(what) did not happen within 10 s")
        }
    }

    /// Blocks until the queue has kept `count` finished buffers, as spares (nothing else
    /// held them at completion) or candidates (something did); returns their addresses.
    private func finished(_ queue: CommandQueue, count: Int) -> (spares: [UnsafeMutableRawPointer], candidates: [UnsafeMutableRawPointer]) {
        let engine = queue.engine
        wait(on: engine, "\(count) finished buffers kept") { engine.recycler.spares.count + engine.recycler.candidates.count >= count }
        return engine.lock.withLock { (engine.recycler.spares.map(address), engine.recycler.candidates.map(address)) }
    }

    @Test("the reference-count word reads as expected on this runtime")
    func soleReferenceSupported() {
        #expect(SoleReference.isSupported)
        final class Object {}
        var object = Object()
        #expect(SoleReference.isSole(&object))
        let copy = object
        #expect(!SoleReference.isSole(&object))
        withExtendedLifetime(copy) {}
    }

    @Test("a steady loop of dropped buffers reuses one command buffer and one compute encoder")
    func steadyLoopReuses() throws {
        let gpu = try TestGPU()
        let queue = try gpu.device.makeCommandQueue()
        let counter = try gpu.device.makeBuffer(length: 4)
        var bufferAddresses = Set<UnsafeMutableRawPointer>()
        var encoderAddresses = Set<UnsafeMutableRawPointer>()
        let completions = Locked(0)
        for _ in 0..<50 {
            try {
                let buffer = try gpu.incrementBuffer(counter, on: queue)
                #expect(buffer.status == .notEnqueued && buffer.label == nil && buffer.error == nil)
                #expect(buffer.commandQueue === queue)
                bufferAddresses.insert(address(buffer))
                encoderAddresses.insert(address(buffer.spareComputeEncoder!))
                buffer.addCompletedHandler { cb in
                    #expect(cb.status == .completed)
                    completions.withLock { $0 += 1 }
                }
                buffer.label = "loop"
                buffer.commit()
            }()
            // Dropped: kept by the queue once it finishes, for the next makeCommandBuffer.
            _ = finished(queue, count: 1)
        }
        #expect(bufferAddresses.count == 1)
        #expect(encoderAddresses.count == 1)
        #expect(completions.current == 50)
        #expect(counter.contents().load(as: UInt32.self) == 50)
    }

    @Test("a loop of dropped render passes into one texture reuses one command buffer; getBytes still waits for the writer")
    func renderLoopReuses() throws {
        let gpu = try TestGPU()
        let queue = try makeQueue(gpu, on: VirtualDisplay())
        let target = try gpu.renderTarget()
        var bufferAddresses = Set<UnsafeMutableRawPointer>()
        for frame in 0..<20 {
            try {
                let buffer = try queue.makeCommandBuffer()
                bufferAddresses.insert(address(buffer))
                let shade = Double(frame) / 19
                let encoder = try buffer.makeRenderCommandEncoder(
                    descriptor: gpu.clearingPass(target, clear: ClearColor(red: shade, green: 0, blue: 1 - shade, alpha: 1)))
                encoder.endEncoding()
                buffer.commit()
            }()
            // getBytes waits for the last committed writer, which is still referenced by
            // the texture only until it finishes.
            let pixels = try gpu.pixels(of: target)
            let seen = texel(pixels, width: 64, x: 5, y: 5)
            #expect(texel(seen, holds: [Double(frame) / 19, 0, 1 - Double(frame) / 19, 1]), "frame \(frame): \(seen)")
            _ = finished(queue, count: 1)
        }
        #expect(bufferAddresses.count == 1)
    }

    @Test("a reused buffer starts fresh and runs its own work and handlers once")
    func reusedBufferIsFresh() throws {
        let gpu = try TestGPU()
        let queue = try gpu.device.makeCommandQueue()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        try {
            let first = try gpu.incrementBuffer(counter, by: 5, on: queue)
            first.label = "first"
            first.encodeSignalEvent(event, value: 1)
            first.addCompletedHandler { _ in }
            first.commit()
        }()
        let kept = finished(queue, count: 1)
        let second = try queue.makeCommandBuffer()
        #expect([kept.spares, kept.candidates].joined().contains(address(second)))
        #expect(queue.engine.recycler.spares.isEmpty && queue.engine.recycler.candidates.isEmpty)
        #expect(second.status == .notEnqueued && second.label == nil && second.error == nil)
        #expect(second.kernelStartTime == 0 && second.gpuEndTime == 0)
        #expect(second.record.eventSignals.isEmpty && second.record.completedHandlers.isEmpty)
        let calls = Locked(0)
        second.addCompletedHandler { _ in calls.withLock { $0 += 1 } }
        second.commit()
        second.waitUntilCompleted()
        #expect(second.status == .completed)
        #expect(calls.current == 1)
        #expect(event.signaledValue == 1)
        #expect(counter.contents().load(as: UInt32.self) == 5)
    }

    @Test("a buffer the app holds, holds unowned, or ever referenced weakly, is not reused; the queue lets it go 100 ms later",
          arguments: ["strong", "unowned", "weak", "weak, dropped before commit"])
    func reachableBufferIsNotReused(reference: String) throws {
        final class UnownedBox {
            unowned let buffer: CommandBuffer
            init(_ buffer: CommandBuffer) { self.buffer = buffer }
        }
        let gpu = try TestGPU()
        let clock = VirtualDisplay()
        let queue = try makeQueue(gpu, on: clock)
        let counter = try gpu.device.makeBuffer(length: 4)
        var strong: CommandBuffer?
        var unownedBox: UnownedBox?
        weak var watcher: CommandBuffer?
        var keptAddress: UnsafeMutableRawPointer?
        // `kept` waits for an event the CPU signals once the app has dropped its strong
        // reference, so that only the kind of reference under test remains at completion.
        let release = try gpu.device.makeSharedEvent()
        try {
            let kept = try gpu.incrementBuffer(counter, on: queue)
            kept.encodeWaitForEvent(release, value: 1)
            keptAddress = address(kept)
            switch reference {
            case "strong": strong = kept
            case "unowned": unownedBox = UnownedBox(kept)
            case "weak": watcher = kept
            default:
                watcher = kept
                watcher = nil
            }
            kept.commit()
            // Dropped at once; it finishes after `kept` (completion is in commit order).
            try gpu.incrementBuffer(counter, on: queue).commit()
        }()
        release.signaledValue = 1
        let kept = finished(queue, count: 2)
        #expect(!kept.spares.contains(keptAddress!))
        #expect(kept.candidates.contains(keptAddress!))
        let next = try queue.makeCommandBuffer()
        #expect(address(next) != keptAddress)
        #expect(queue.engine.recycler.candidates.map(address).contains(keptAddress!))
        // 100 ms after it came, the queue gives the candidate up; it is not reused.
        waitForGiveUpTimer(queue)
        clock.advance(by: .milliseconds(99))
        #expect(queue.engine.lock.withLock { queue.engine.recycler.giveUps } == 0)
        clock.advance(by: .milliseconds(1))
        wait(on: queue.engine, "giving up candidates") { queue.engine.recycler.giveUps >= 1 }
        #expect(queue.engine.recycler.candidates.isEmpty)
        #expect(!queue.engine.recycler.spares.map(address).contains(keptAddress!))
        #expect(watcher == nil)
        if let strong {
            #expect(strong.status == .completed)
            #expect(address(strong) == keptAddress)
        }
        withExtendedLifetime(unownedBox) {}
        withExtendedLifetime(next) {}
        #expect(counter.contents().load(as: UInt32.self) == 2)
    }

    @Test("an encoder the app keeps after endEncoding is not reused; a dropped one is")
    func keptEncoderIsNotReused() throws {
        let gpu = try TestGPU()
        let buffer = try gpu.queue.makeCommandBuffer()
        let kept = try buffer.makeComputeCommandEncoder()
        kept.endEncoding()
        #expect(buffer.spareComputeEncoder === kept)
        var next: ComputeCommandEncoder? = try buffer.makeComputeCommandEncoder()
        #expect(next !== kept)
        next?.endEncoding()
        #expect(buffer.spareComputeEncoder === next)
        let nextAddress = address(next!)
        next = nil
        let third = try buffer.makeComputeCommandEncoder()
        #expect(address(third) == nextAddress)
        third.endEncoding()
        buffer.commit()
        buffer.waitUntilCompleted()
        #expect(buffer.status == .completed)
        withExtendedLifetime(kept) {}
    }

    @Test("a dropped queue goes, though a finished buffer it kept holds it",
          arguments: ["dropped before completion", "held at completion"])
    func droppedQueueGoes(moment: String) throws {
        let gpu = try TestGPU()
        let clock = VirtualDisplay()
        weak var watchedQueue: CommandQueue?
        let engine = try { () throws -> QueueEngine in
            let queue = try makeQueue(gpu, on: clock)
            watchedQueue = queue
            let counter = try gpu.device.makeBuffer(length: 4)
            let buffer = try gpu.incrementBuffer(counter, on: queue)
            buffer.commit()
            if moment == "held at completion" {
                buffer.waitUntilCompleted()
                _ = finished(queue, count: 1)
                #expect(queue.engine.lock.withLock { queue.engine.recycler.candidates.count } == 1)
                waitForGiveUpTimer(queue)
            }
            return queue.engine
        }()
        // A kept candidate holds the queue until the give-up timer lets it go.
        clock.advance(by: Recycler.candidateGrace)
        wait(on: engine, "the queue's shutdown") { engine.isStopping }
        #expect(watchedQueue == nil)
        // Under the engine's lock: the give-up timer's thread may still be at work on them.
        wait(on: engine, "the recycler emptied") { engine.recycler.spares.isEmpty && engine.recycler.candidates.isEmpty }
    }
}
