import Dispatch
import FramePacing
import Foundation
import GPUTestSupport
import SwiftGPUSupport
import Testing
@testable import GPU

@Suite("Presentation: window surfaces under Xvfb", .validated)
struct WindowPresentationTests {
    /// Presents frames of one colour until the window shows it at (`x`, `y`) (BGR
    /// `expected`); false if 60 frames do not get it there.
    static func presentUntilVisible(_ gpu: TestGPU, _ layer: Layer, red: Double, green: Double, expected: [UInt8],
                                    at point: (Int, Int), read: () throws -> [UInt8]) throws -> Bool {
        for _ in 0..<60 {
            let waiter = PresentWaiter()
            guard let drawable = layer.nextDrawable() else { continue }
            try gpu.present(drawable, red: red, green: green, waiter: waiter)
            #expect(waiter.wait(for: 1))
            if try read() == expected { return true }
        }
        return false
    }

    @Test("xcb: each present mode is used as asked, frames are presented in order and reach the window",
          arguments: PresentMode.allCases)
    func xcbModes(mode: PresentMode) throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu)
        let layer = fixture.layer
        layer.presentMode = mode
        #expect(layer.drawableSize == Size2D(width: 256, height: 256))
        let waiter = PresentWaiter()
        var ids: [Int] = []
        for frame in 0..<8 {
            let drawable = try #require(layer.nextDrawable())
            #expect(drawable.texture.width == 256 && drawable.texture.pixelFormat == .bgra8Unorm)
            ids.append(drawable.drawableID)
            try gpu.present(drawable, red: Double(frame) / 8, waiter: waiter)
        }
        #expect(waiter.wait(for: 8))
        #expect(layer.activePresentMode == mode, "lavapipe offers all four modes on Xvfb")
        #expect(ids == Array(ids.sorted()) && Set(ids).count == 8)
        let times = waiter.presentedTimes
        #expect(ids.allSatisfy { (times[$0] ?? 0) > 0 }, "every present call succeeded")
        #expect(ids.map { times[$0]! } == ids.map { times[$0]! }.sorted(), "presented in order")
        let shown = try Self.presentUntilVisible(gpu, layer, red: 1, green: 0.5, expected: [0, 128, 255], at: (128, 128)) {
            try fixture.pixel(x: 128, y: 128)
        }
        #expect(shown, "the window shows the presented colour")
        #expect(try fixture.pixel(x: 3, y: 250) == [0, 128, 255], "the whole window")
    }

    @Test("the present thread is userInteractive: presented handlers run on it with that scheduling")
    func presentThreadScheduling() async throws {
        let expected = await schedulingOfNewThread(.userInteractive)
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let drawable = try #require(fixture.layer.nextDrawable())
        let seen = LockedValue<ThreadScheduling.Applied?>(nil, rank: .leaf("WindowPresentationTests.seen"))
        drawable.addPresentedHandler { _ in seen.withLock { $0 = ThreadScheduling.current() } }
        let waiter = PresentWaiter()
        try gpu.present(drawable, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(seen.withLock { $0 } == expected)
    }

    @Test("xlib: each present mode presents frames that reach the window", arguments: PresentMode.allCases)
    func xlibModes(mode: PresentMode) throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 200, height: 120, xlib: true)
        let layer = fixture.layer
        layer.presentMode = mode
        #expect(layer.drawableSize == Size2D(width: 200, height: 120))
        let shown = try Self.presentUntilVisible(gpu, layer, red: 0, green: 1, expected: [0, 255, 0], at: (100, 60)) {
            try fixture.pixel(x: 100, y: 60)
        }
        #expect(shown)
        #expect(layer.activePresentMode == mode)
    }

    @Test("drawable.present() before commit() on a window: nothing of the drawable reaches the window until the buffer that renders it is committed, then its pixels do")
    func presentBeforeCommit() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        // Every swapchain image holds a green frame, and the window is cleared to black:
        // an image presented before it is rendered would show green.
        for _ in 0..<8 {
            let waiter = PresentWaiter()
            let drawable = try #require(fixture.layer.nextDrawable())
            try gpu.present(drawable, red: 0, green: 1, waiter: waiter)
            #expect(waiter.wait(for: 1))
        }
        #expect(try fixture.pixel(x: 32, y: 32) == [0, 255, 0])
        fixture.x.clear(fixture.window)
        #expect(try fixture.pixel(x: 32, y: 32) == [0, 0, 0])

        let waiter = PresentWaiter()
        let drawable = try #require(fixture.layer.nextDrawable())
        waiter.watch(drawable)
        let cb = try gpu.renderPresentingBeforeCommit(drawable, clear: ClearColor(red: 1, green: 0, blue: 0, alpha: 1))
        // Whatever the device's own queue was given is submitted and done, and every present
        // queued so far is made: nothing of the drawable is on the window.
        try PresentationTests.drainDeviceQueue(gpu)
        try #require(fixture.layer.presenter).waitUntilQueuedPresentsMade()
        #expect(try fixture.pixel(x: 32, y: 32) == [0, 0, 0], "the drawable was presented before the buffer that renders it was committed")
        cb.commit()
        #expect(waiter.wait(for: 1))
        #expect(try fixture.pixel(x: 32, y: 32) == [0, 0, 255], "bgr: the rendered red")
    }

    @Test("srgb drawables: a linear 0.5 clear is stored encoded (188)")
    func srgb() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        fixture.layer.pixelFormat = .bgra8Unorm_srgb
        let shown = try Self.presentUntilVisible(gpu, fixture.layer, red: 0.5, green: 0, expected: [0, 0, 188], at: (32, 32)) {
            try fixture.pixel(x: 32, y: 32)
        }
        #expect(shown)
    }

    @Test("resize: the swapchain is remade at the window's new size once the frame in hand is presented")
    func resize() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 160, height: 120)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        let inHand = try #require(layer.nextDrawable())
        fixture.x.resize(fixture.window, width: 240, height: 200)
        layer.drawableSize = Size2D(width: 240, height: 200)
        // The frame in hand is still presented, on the swapchain it came from.
        try gpu.present(inHand, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(waiter.presentedTimes[inHand.drawableID]! > 0)
        let next = try #require(layer.nextDrawable())
        #expect(next.texture.width == 240 && next.texture.height == 200)
        #expect(layer.presenter?.swapchainsMade == 2)
        try gpu.present(next, red: 0, green: 1)
        let shown = try Self.presentUntilVisible(gpu, layer, red: 0, green: 1, expected: [0, 255, 0], at: (230, 190)) {
            try fixture.x.pixel(of: fixture.window, width: 240, height: 200, x: 230, y: 190)
        }
        #expect(shown)
    }

    @Test("a window resized by someone else: the swapchain follows once Vulkan reports it out of date or suboptimal")
    func resizeByWindowSystem() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 160, height: 120)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        try gpu.present(try #require(layer.nextDrawable()), red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        fixture.x.resize(fixture.window, width: 200, height: 100)
        var sizes: [Int] = []
        for _ in 0..<4 {
            guard let drawable = layer.nextDrawable() else { continue }
            sizes.append(drawable.texture.width)
            try gpu.present(drawable, red: 1, waiter: waiter)
            #expect(waiter.wait(for: 1))
        }
        #expect(sizes.last == 200, "sizes seen: \(sizes)")
        #expect(layer.drawableSize == Size2D(width: 200, height: 100))
    }

    @Test("switching present mode while frames are in flight: the next drawable uses the new mode")
    func switchModes() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        var frames = 0
        for mode in [PresentMode.mailbox, .immediate, .fifoRelaxed, .fifo, .mailbox] {
            layer.presentMode = mode
            for _ in 0..<3 {
                try gpu.present(try #require(layer.nextDrawable()), red: 1, waiter: waiter)
                frames += 1
                #expect(layer.activePresentMode == mode)
            }
        }
        #expect(waiter.wait(for: frames))
        #expect(layer.presenter?.swapchainsMade == 5)
    }

    @Test("zero drawableSize: nextDrawable is nil at once")
    func zeroSize() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        fixture.layer.drawableSize = Size2D(width: 0, height: 0)
        #expect(fixture.layer.nextDrawable() == nil)
    }

    @Test("out of date at acquire: nextDrawable remakes the swapchain and still returns a drawable")
    func outOfDateAtAcquire() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        try gpu.present(try #require(layer.nextDrawable()), red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        gpu.device.backend.faults.inject(.outOfDate, at: .acquireNextImage)
        let drawable = try #require(layer.nextDrawable())
        #expect(layer.presenter?.swapchainsMade == 2)
        try gpu.present(drawable, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(waiter.presentedTimes[drawable.drawableID]! > 0)
    }

    @Test("suboptimal and out of date at present: shown (suboptimal) or dropped (out of date), then remade")
    func presentResults() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        gpu.device.backend.faults.inject(.suboptimal, at: .queuePresent)
        let first = try #require(layer.nextDrawable())
        try gpu.present(first, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(waiter.presentedTimes[first.drawableID]! > 0, "a suboptimal present still shows the image")
        let second = try #require(layer.nextDrawable())
        #expect(layer.presenter?.swapchainsMade == 2, "remade after the suboptimal present")
        gpu.device.backend.faults.inject(.outOfDate, at: .queuePresent)
        try gpu.present(second, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(waiter.presentedTimes[second.drawableID] == 0, "an out-of-date present is dropped")
        let third = try #require(layer.nextDrawable())
        #expect(layer.presenter?.swapchainsMade == 3)
        try gpu.present(third, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(waiter.presentedTimes[third.drawableID]! > 0)
    }

    @Test("all drawables held: nextDrawable returns nil after its timeout; a drawable dropped unpresented is handed out again")
    func timeout() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        layer.maximumDrawableCount = 2
        layer.drawableTimeout = .milliseconds(50)
        var held: [Drawable] = [try #require(layer.nextDrawable()), try #require(layer.nextDrawable())]
        let start = Date()
        #expect(layer.nextDrawable() == nil)
        #expect(Date().timeIntervalSince(start) >= 0.05)
        let slot = held[0].slot
        held.removeFirst()
        let again = try #require(layer.nextDrawable())
        #expect(again.slot == slot, "the acquired image comes back")
        let waiter = PresentWaiter()
        try gpu.present(again, red: 1, waiter: waiter)
        try gpu.present(held[0], red: 1, waiter: waiter)
        #expect(waiter.wait(for: 2))
        #expect(waiter.presentedTimes.values.allSatisfy { $0 > 0 })
    }

    @Test("gate: nil while not active; a call blocked without timeout wakes with nil; released in the background, remade after")
    func gate() async throws {
        let lifecycle = AppLifecycle()
        let gpu = try TestGPU(lifecycle: lifecycle)
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        layer.maximumDrawableCount = 2
        layer.allowsNextDrawableTimeout = false
        var held: [Drawable] = [try #require(layer.nextDrawable()), try #require(layer.nextDrawable())]
        let blocked = Task.detached { layer.nextDrawable() == nil }
        lifecycle.willResignActive()
        #expect(await blocked.value)
        #expect(layer.nextDrawable() == nil)
        _ = lifecycle.didEnterBackground(deadline: .seconds(1))
        #expect(layer.presenter?.hasSwapchain == true, "drawables in hand keep the swapchain")
        held.removeAll()
        #expect(layer.presenter?.hasSwapchain == false, "released in the background once no drawable is in flight")
        lifecycle.willEnterForeground()
        #expect(layer.nextDrawable() == nil)
        lifecycle.didBecomeActive()
        let drawable = try #require(layer.nextDrawable())
        #expect(layer.presenter?.swapchainsMade == 2)
        let waiter = PresentWaiter()
        try gpu.present(drawable, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
    }

    @Test("a presenting command buffer refused by the gate gives its image back unshown (presentedTime 0)")
    func refusedPresent() throws {
        let lifecycle = AppLifecycle()
        let gpu = try TestGPU(lifecycle: lifecycle)
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        let drawable = try #require(layer.nextDrawable())
        lifecycle.willResignActive()
        let waiter = PresentWaiter()
        waiter.watch(drawable)
        let cb = try gpu.queue.makeCommandBuffer()
        cb.present(drawable)
        cb.commit()
        #expect(waiter.wait(for: 1))
        #expect(cb.status == .error)
        #expect(waiter.presentedTimes[drawable.drawableID] == 0)
        lifecycle.didBecomeActive()
        let again = try #require(layer.nextDrawable())
        #expect(again.slot == drawable.slot)
        try gpu.present(again, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
    }

    @Test("low latency: mailbox, one frame in flight, latency from nextDrawable to the present call's return")
    func lowLatency() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        layer.isLowLatency = true
        layer.drawableTimeout = .milliseconds(50)
        let first = try #require(layer.nextDrawable())
        #expect(layer.activePresentMode == .mailbox)
        #expect(layer.nextDrawable() == nil, "one frame in flight")
        let waiter = PresentWaiter()
        try gpu.present(first, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        let second = try #require(layer.nextDrawable())
        try gpu.present(second, red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        let latencies = layer.frameLatencies
        #expect(latencies.count == 2)
        #expect(latencies.allSatisfy { $0 > .zero && $0 < .seconds(5) })
    }

    @Test("present(atTime:) and afterMinimumDuration hold the present until the time asked, never earlier")
    func timedPresents() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        let first = try #require(layer.nextDrawable())
        let target = HostClock.seconds() + 0.03
        try gpu.present(first, red: 1, waiter: waiter) { $0.present($1, atTime: target) }
        #expect(waiter.wait(for: 1))
        let firstTime = waiter.presentedTimes[first.drawableID]!
        #expect(firstTime >= target)
        let second = try #require(layer.nextDrawable())
        try gpu.present(second, red: 1, waiter: waiter) { $0.present($1, afterMinimumDuration: 0.02) }
        #expect(waiter.wait(for: 1))
        // The minimum duration counts from the previous frame's deadline (absolute
        // deadlines: the present call's own jitter never moves the cadence).
        #expect(waiter.presentedTimes[second.drawableID]! >= target + 0.02)
    }

    @Test("present-mode fallback: the documented chains")
    func fallback() {
        let none: Set<PresentMode> = [.fifo]
        #expect(PresentMode.allCases.map { $0.fallback(offered: none) } == [.fifo, .fifo, .fifo, .fifo])
        #expect(PresentMode.mailbox.fallback(offered: [.fifo, .immediate]) == .immediate)
        #expect(PresentMode.immediate.fallback(offered: [.fifo, .mailbox]) == .mailbox)
        #expect(PresentMode.fifoRelaxed.fallback(offered: [.fifo, .mailbox, .immediate]) == .fifo)
        #expect(PresentMode.allCases.allSatisfy { $0.fallback(offered: Set(PresentMode.allCases)) == $0 })
    }
}
