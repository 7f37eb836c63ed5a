import Foundation
import GPUTestSupport
import SwiftGPUSupport
import Testing
@testable import GPU

/// Drawables shown or dropped, as their presented handlers saw them.
final class PresentLog: Sendable {
    private let entries = LockedValue<[(id: Int, time: Double)]>([], rank: .leaf("PresentationTests.entries"))

    func watch(_ drawable: Drawable) {
        drawable.addPresentedHandler { [self] d in
            let entry = (d.drawableID, d.presentedTime)   // read before the lock: it takes the layer's
            entries.withLock { $0.append(entry) }
        }
    }

    var all: [(id: Int, time: Double)] { entries.withLock { $0 } }
    var shown: [Int] { all.filter { $0.time > 0 }.map(\.id) }
    var dropped: [Int] { all.filter { $0.time == 0 }.map(\.id) }
}

@Suite("Presentation: headless layer", .validated)
struct PresentationTests {
    static func layer(_ gpu: TestGPU, _ display: VirtualDisplay, mode: PresentMode = .fifo, count: Int = 3) throws -> Layer {
        let layer = try Layer(device: gpu.device, surface: .headless(width: 32, height: 32, display: display))
        layer.presentMode = mode
        layer.maximumDrawableCount = count
        return layer
    }

    /// Waits until everything the device's own queue was given has completed and its
    /// handlers (a headless drawable's hand-over to the display among them) have run: a
    /// buffer committed after them completes after them, in order.
    static func drainDeviceQueue(_ gpu: TestGPU) throws {
        let fence = try gpu.device.internalQueue().makeCommandBuffer()
        fence.commit()
        fence.waitUntilCompleted()
    }

    /// Clears `drawable` to `red` (0–1) and presents it, waiting for the GPU so that the
    /// display holds it before the test advances time.
    static func render(_ gpu: TestGPU, _ drawable: Drawable, red: Double, log: PresentLog,
                       present: (CommandBuffer, Drawable) -> Void = { $0.present($1) }) throws {
        log.watch(drawable)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(
            descriptor: gpu.clearingPass(drawable.texture, clear: ClearColor(red: red, green: 0, blue: 0, alpha: 1)))
        encoder.endEncoding()
        present(cb, drawable)
        cb.commit()
        cb.waitUntilCompleted()
    }

    @Test("fifo: one drawable per vblank, presentedTime at the vblank, handlers once, IDs increasing, pixels reach the image")
    func fifo() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        let log = PresentLog()
        var drawables: [Drawable] = []
        for frame in 0..<3 {
            let drawable = try #require(layer.nextDrawable())
            try Self.render(gpu, drawable, red: Double(frame + 1) / 4, log: log)
            drawables.append(drawable)
        }
        #expect(drawables.map(\.drawableID) == [1, 2, 3])
        #expect(log.all.isEmpty, "nothing shown before the first vblank")
        display.advance(by: .milliseconds(100))
        #expect(log.shown == [1, 2, 3])
        #expect(drawables.map(\.presentedTime) == (1...3).map { Double(display.vblankTime($0).nanoseconds) / 1e9 })
        let statistics = layer.frameStatistics
        #expect(statistics.records.map(\.frameID) == [1, 2, 3])
        #expect(statistics.displayIntervals.allSatisfy { abs($0 - 1000.0 / 60) < 0.001 })
        #expect(statistics.records.allSatisfy { $0.msUntilDisplayed != nil })
        let pixels = try gpu.pixels(of: drawables[2].texture)
        #expect(Array(pixels[0..<4]) == [0, 0, 191, 255], "bgra: the last frame's red is on screen")
    }

    @Test("drawable.present() before commit(), as a commit in a defer does: shown only once the buffer that renders it is committed, with its pixels; a renderer dropped uncommitted lets the present go")
    func presentBeforeCommit() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        let log = PresentLog()

        let drawable = try #require(layer.nextDrawable())
        log.watch(drawable)
        let cb = try gpu.renderPresentingBeforeCommit(drawable, clear: ClearColor(red: 0.5, green: 0, blue: 0, alpha: 1))
        // Whatever the device's own queue was given is done, and vblanks pass: nothing is
        // shown while the rendering is not committed.
        try Self.drainDeviceQueue(gpu)
        display.advance(by: .milliseconds(50))
        #expect(log.all.isEmpty, "the drawable was shown before the buffer that renders it was committed")
        cb.commit()
        cb.waitUntilCompleted()
        try Self.drainDeviceQueue(gpu)
        display.advance(by: .milliseconds(50))
        #expect(log.shown == [drawable.drawableID])
        #expect(Array(try gpu.pixels(of: drawable.texture)[0..<4]) == [0, 0, 128, 255], "bgra: the rendered red")

        // A buffer that renders into the drawable and is dropped without a commit no longer
        // holds the present up.
        let second = try #require(layer.nextDrawable())
        log.watch(second)
        do {
            let dropped = try gpu.queue.makeCommandBuffer()
            let encoder = try dropped.makeRenderCommandEncoder(descriptor: gpu.clearingPass(second.texture))
            encoder.endEncoding()
            second.present()
        }
        try Self.drainDeviceQueue(gpu)
        display.advance(by: .milliseconds(50))
        #expect(log.shown == [drawable.drawableID, second.drawableID])
    }

    @Test("drawable.present() from the rendering buffer's scheduled handler, Metal's pattern: shown with its pixels, no lock taken against the order")
    func presentFromScheduledHandler() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        let log = PresentLog()
        for frame in 0..<2 {   // the first makes the device's own queue inside the handler
            let drawable = try #require(layer.nextDrawable())
            try Self.render(gpu, drawable, red: 0.5, log: log) { cb, drawable in cb.addScheduledHandler { _ in drawable.present() } }
            try Self.drainDeviceQueue(gpu)
            display.advance(by: .milliseconds(20))
            #expect(log.shown.count == frame + 1)
            #expect(Array(try gpu.pixels(of: drawable.texture)[0..<4]) == [0, 0, 128, 255])
        }
    }

    @Test("mailbox: a drawable replaced before its vblank is dropped, presentedTime 0, handlers still run")
    func mailbox() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display, mode: .mailbox)
        let log = PresentLog()
        for frame in 0..<2 { try Self.render(gpu, try #require(layer.nextDrawable()), red: Double(frame) / 2, log: log) }
        #expect(log.dropped == [1])
        display.advance(by: .milliseconds(20))
        #expect(log.shown == [2])
        #expect(layer.frameStatistics.droppedFrames == 1)
    }

    @Test("all drawables in use: nextDrawable returns nil after its timeout, and a drawable again once one is released")
    func timeout() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display, count: 2)
        layer.drawableTimeout = .milliseconds(50)
        let log = PresentLog()
        for frame in 0..<2 { try Self.render(gpu, try #require(layer.nextDrawable()), red: Double(frame) / 2, log: log) }
        let start = Date()
        #expect(layer.nextDrawable() == nil)
        #expect(Date().timeIntervalSince(start) >= 0.05)
        display.advance(by: .milliseconds(40))   // both shown; the first released when the second shows
        #expect(layer.nextDrawable() != nil)
    }

    @Test("advancesVirtualDisplayWhileWaiting: with every drawable in flight, nextDrawable waits for the GPU, then advances the display vblank by vblank until one is released")
    func advancingDisplayWhileWaiting() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        layer.advancesVirtualDisplayWhileWaiting = true
        layer.drawableTimeout = .seconds(30)
        let log = PresentLog()
        // The queue is held, as a busy GPU holds it: three frames in flight, none complete.
        let event = try gpu.device.makeSharedEvent()
        let gate = try gpu.queue.makeCommandBuffer()
        gate.encodeWaitForEvent(event, value: 1)
        gate.commit()
        var buffers: [CommandBuffer] = []
        for frame in 0..<3 {
            let drawable = try #require(layer.nextDrawable())
            log.watch(drawable)
            let cb = try gpu.queue.makeCommandBuffer()
            try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(
                drawable.texture, clear: ClearColor(red: Double(frame) / 4, green: 0, blue: 0, alpha: 1))).endEncoding()
            cb.present(drawable)
            cb.commit()
            buffers.append(cb)
        }
        #expect(buffers.allSatisfy { $0.status == .committed })
        #expect(display.now == .zero)
        // The fourth waits for the first frames to complete, then for the second to be
        // shown, which releases the first: two vblanks of display time pass in the call.
        event.signaledValue = 1
        let fourth = try #require(layer.nextDrawable())
        #expect(log.shown == [1, 2])
        #expect(display.now == display.vblankTime(2))
        #expect(fourth.drawableID == 4)

        // Off (the default), a layer whose drawables are all taken waits for its timeout:
        // the display is its owner's to advance.
        layer.advancesVirtualDisplayWhileWaiting = false
        layer.drawableTimeout = .milliseconds(50)
        try Self.render(gpu, fourth, red: 1, log: log)
        #expect(layer.nextDrawable() == nil)
        #expect(display.now == display.vblankTime(2))
    }

    @Test("not active: nextDrawable is nil at once; a call blocked with no timeout wakes with nil when the gate closes")
    func lifecycle() async throws {
        let lifecycle = AppLifecycle()
        let gpu = try TestGPU(lifecycle: lifecycle)
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display, count: 2)
        layer.allowsNextDrawableTimeout = false
        let held = [try #require(layer.nextDrawable()), try #require(layer.nextDrawable())]
        let blocked = Task.detached { layer.nextDrawable() == nil }
        lifecycle.willResignActive()
        #expect(await blocked.value)
        #expect(layer.nextDrawable() == nil)
        lifecycle.didBecomeActive()
        _ = held
    }

    @Test("low latency: one frame in flight; latency recorded from frame start to display")
    func lowLatency() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        layer.isLowLatency = true
        layer.drawableTimeout = .milliseconds(50)
        let log = PresentLog()
        try Self.render(gpu, try #require(layer.nextDrawable()), red: 1, log: log)
        #expect(layer.nextDrawable() == nil, "the first frame is still in flight")
        display.advance(by: .milliseconds(20))
        #expect(log.shown == [1])
        display.advance(by: .milliseconds(5))
        try Self.render(gpu, try #require(layer.nextDrawable()), red: 1, log: log)
        display.advance(by: .milliseconds(20))
        #expect(layer.frameLatencies == [display.vblankTime(1), display.vblankTime(2) - .milliseconds(25)])
        #expect(layer.frameLatencies.allSatisfy { $0 <= display.refreshPeriod })
    }

    @Test("present(atTime:) is never early; afterMinimumDuration waits after the previous display")
    func presentTiming() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        let log = PresentLog()
        let first = try #require(layer.nextDrawable())
        try Self.render(gpu, first, red: 1, log: log) { $0.present($1, atTime: 0.040) }
        display.advance(by: .milliseconds(60))
        #expect(first.presentedTime == Double(display.vblankTime(3).nanoseconds) / 1e9)
        let second = try #require(layer.nextDrawable())
        try Self.render(gpu, second, red: 1, log: log) { $0.present($1, afterMinimumDuration: 1.0 / 30) }
        display.advance(by: .milliseconds(100))
        #expect(second.presentedTime == Double(display.vblankTime(5).nanoseconds) / 1e9)
    }

    @Test("a drawable dropped without presenting gives its slot back")
    func reclaim() throws {
        let gpu = try TestGPU()
        let layer = try Self.layer(gpu, VirtualDisplay(refreshRate: 60), count: 2)
        layer.drawableTimeout = .milliseconds(50)
        for _ in 0..<5 { #expect(layer.nextDrawable() != nil) }
    }

    @Test("a command buffer that presents a drawable and is dropped without commit gives the drawable's slot back")
    func reclaimUncommittedPresent() throws {
        let gpu = try TestGPU()
        let layer = try Self.layer(gpu, VirtualDisplay(refreshRate: 60), count: 2)
        layer.drawableTimeout = .milliseconds(50)
        for _ in 0..<5 {
            let drawable = try #require(layer.nextDrawable())
            let cb = try gpu.queue.makeCommandBuffer()
            cb.present(drawable)
            _ = cb
        }
        #expect(layer.nextDrawable() != nil)
    }

    @Test("misuse: a third-party drawable count, a non-drawable format, presenting twice")
    func misuse() async throws {
        let count = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let layer = try Layer(device: gpu.device, surface: .headless(width: 8, height: 8, display: VirtualDisplay()))
            layer.maximumDrawableCount = 4
        }
        #expect(stderr(count).contains("SwiftGPU API misuse: Layer.maximumDrawableCount: 4 is not 2 or 3"))
        let format = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let layer = try Layer(device: gpu.device, surface: .headless(width: 8, height: 8, display: VirtualDisplay()))
            layer.pixelFormat = .rgba8Unorm
        }
        #expect(stderr(format).contains("SwiftGPU API misuse: Layer.pixelFormat: rgba8Unorm is not a drawable format"))
        let twice = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let layer = try Layer(device: gpu.device, surface: .headless(width: 8, height: 8, display: VirtualDisplay()))
            let drawable = try #require(layer.nextDrawable())
            let cb = try gpu.queue.makeCommandBuffer()
            cb.present(drawable)
            cb.present(drawable)
        }
        #expect(stderr(twice).contains("SwiftGPU API misuse: present(_:): drawable 1 is already presented"))
    }

    @Test("a long run keeps only the last latencyWindow frame latencies, oldest first")
    func latencyWindowIsBounded() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        layer.isLowLatency = true
        var expected: [Duration] = []
        for frame in 0..<(Layer.latencyWindow + 50) {
            // Frames start at varied points of the refresh, so latencies differ.
            display.advance(by: .microseconds(frame % 7 * 1_000))
            let start = display.now
            let drawable = try #require(layer.nextDrawable())
            let cb = try gpu.queue.makeCommandBuffer()
            cb.present(drawable)
            cb.commit()
            cb.waitUntilCompleted()
            display.advance(by: display.refreshPeriod)
            expected.append(.wholeNanoseconds(seconds: drawable.presentedTime) - start)
        }
        #expect(layer.frameLatencies.count == Layer.latencyWindow)
        #expect(layer.frameLatencies == Array(expected.suffix(Layer.latencyWindow)))
    }

    @Test("a real-time display whose clock thread is stalled: present events delivered on a thread reading the time never deadlock the layer")
    func stalledRealTimeClock() throws {
        let gpu = try TestGPU()
        let clock = MonotonicClock()
        let display = VirtualDisplay(refreshRate: 60, realTime: clock)
        let layer = try Self.layer(gpu, display)
        // Stall the display's clock thread: due present events are then delivered by
        // whichever thread reads the display's time next.
        let stall = DispatchSemaphore(value: 0)
        let stalled = DispatchSemaphore(value: 0)
        _ = clock.schedule(at: clock.now, leeway: .zero) { _ in
            stalled.signal()
            stall.wait()
        }
        stalled.wait()
        defer { stall.signal() }
        let shown = Locked(0)
        // Each frame's displayed event falls due while the clock is stalled, and is
        // delivered inside the next nextDrawable() (which reads the time) or the next
        // present (on the completion thread); its handler takes the layer's lock.
        let waker = MonotonicClock()
        for _ in 0..<4 {
            let drawable = try #require(layer.nextDrawable())
            drawable.addPresentedHandler { _ in shown.withLock { $0 += 1 } }
            let cb = try gpu.queue.makeCommandBuffer()
            cb.present(drawable)
            cb.commit()
            cb.waitUntilCompleted()
            // Let the frame's vblank pass in real time (a timer of another clock).
            let passed = DispatchSemaphore(value: 0)
            _ = waker.schedule(at: waker.now + display.refreshPeriod * 2, leeway: .zero) { _ in passed.signal() }
            passed.wait()
        }
        _ = display.now
        #expect(shown.current == 4, "every frame was shown, its handler run on a reading thread")
    }

    @Test("Drawable.present() and present(at:) on the drawable itself, after the rendering buffer is committed")
    func drawablePresentsItself() throws {
        let gpu = try TestGPU()
        let display = VirtualDisplay(refreshRate: 60)
        let layer = try Self.layer(gpu, display)
        let log = PresentLog()
        let first = try #require(layer.nextDrawable())
        log.watch(first)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(
            descriptor: gpu.clearingPass(first.texture, clear: ClearColor(red: 1, green: 0, blue: 0, alpha: 1)))
        encoder.endEncoding()
        cb.commit()
        first.present()
        let second = try #require(layer.nextDrawable())
        log.watch(second)
        second.present(at: display.vblankTime(3).seconds)
        // Both drawables have been handed to the display.
        try Self.drainDeviceQueue(gpu)
        display.advance(by: .milliseconds(20))
        #expect(log.shown == [first.drawableID])
        #expect(first.presentedTime == display.vblankTime(1).seconds)
        display.advance(by: .milliseconds(40))
        #expect(log.shown == [first.drawableID, second.drawableID])
        #expect(second.presentedTime == display.vblankTime(3).seconds, "never before the time asked")
        #expect(texel(try gpu.pixels(of: first.texture), width: 32, x: 4, y: 4) == [0, 0, 255, 255], "red, in BGRA")
    }
}
