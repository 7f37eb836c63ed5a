import FramePacing
import GPUTestSupport
import SwiftGPUSupport
import Testing
@testable import GPU
import GPUXCB

/// Which source a window layer's presented times come from, chosen at run time.
@Suite("Present-timing routes", .validated)
struct PresentTimingRouteTests {
    @Test("the choice: the server's feedback, then display timing, then present waits, then the host clock",
          arguments: [
              (false, false, false, PresentTimingRoute.hostClock),
              (false, false, true, .presentWait),
              (false, true, false, .displayTiming),
              (false, true, true, .displayTiming),
              (true, false, false, .serverFeedback),
              (true, true, true, .serverFeedback),
          ])
    func choice(serverFeedback: Bool, displayTiming: Bool, presentWait: Bool, expected: PresentTimingRoute) {
        let support = PresentTimingSupport(displayTiming: displayTiming, presentWait: presentWait)
        #expect(PresentTimingRoute.choose(serverFeedback: serverFeedback, support: support) == expected)
    }

    @Test("a window layer takes the route its device's extensions allow (lavapipe's: the host's clock), then the server's feedback once given")
    func deviceRoute() throws {
        let gpu = try TestGPU()
        let enabled = gpu.device.backend.enabledExtensions
        let support = gpu.device.backend.presentTiming.support
        #expect(support == PresentTimingSupport(displayTiming: enabled.contains("VK_GOOGLE_display_timing"),
                                                presentWait: enabled.isSuperset(of: ["VK_KHR_present_id", "VK_KHR_present_wait"])),
                "enabled: \(enabled)")
        if gpu.device.isSoftware {   // lavapipe offers neither extension
            #expect(support == PresentTimingSupport(displayTiming: false, presentWait: false), "enabled: \(enabled)")
        }
        let fixture = try XWindowFixture(gpu, width: 64, height: 64)
        let presenter = try #require(fixture.layer.presenter)
        let waiter = PresentWaiter()
        try gpu.present(try #require(fixture.layer.nextDrawable()), red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(presenter.lock.withLock { presenter.timingRoute } == PresentTimingRoute.choose(serverFeedback: false, support: support))
        fixture.layer.usePresentationFeedback(try XPresentFeedback(connection: fixture.x.connection, window: fixture.window))
        #expect(presenter.lock.withLock { presenter.timingRoute } == .serverFeedback)

        // Presented as fast as they come, frames share vblanks: each is reported once, shown
        // at a vblank of its own or skipped.
        var drawables: [Drawable] = []
        for frame in 0..<12 {
            let drawable = try #require(fixture.layer.nextDrawable())
            drawables.append(drawable)
            try gpu.present(drawable, red: Double(frame % 2), waiter: waiter)
        }
        #expect(waiter.wait(for: drawables.count))
        let reports = drawables.compactMap(\.presentationReport)
        #expect(reports.count == 12)
        let shown = reports.filter { $0.mode != .skip }
        #expect(!shown.isEmpty)
        #expect(zip(shown.dropFirst(), shown).allSatisfy { $0.msc! > $1.msc! })
        #expect(zip(drawables, reports).allSatisfy { ($0.presentedTime == 0) == ($1.mode == .skip) })
    }
}
