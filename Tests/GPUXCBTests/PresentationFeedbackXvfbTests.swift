import FramePacing
import Foundation
import GPU
import GPUTestSupport
import GPUXCB
import Testing

/// Presented times from the X server: the Present extension's completions on Xvfb's fake
/// 60 Hz CRTC. Real-clock tests: they run after the rest of the suite, one at a time.
@Suite("Presentation feedback on Xvfb (real clock)", .validated)
struct PresentationFeedbackXvfbTests {
    @Test("300 frames at 60 Hz: presented times are the server's vblanks, every frame's MSC is accounted for")
    func serverTimes() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 128, height: 128)
        let layer = fixture.layer
        let feedback = try XPresentFeedback(connection: fixture.x.connection, window: fixture.window)
        layer.usePresentationFeedback(feedback)
        let (drawables, reports) = try presentPaced(gpu, layer, frames: 300)
        let shown = reports.compactMap { $0 }.filter { $0.mode != .skip }
        let skipped = reports.compactMap { $0 }.filter { $0.mode == .skip }
        // Every frame is accounted for: shown at a vblank of its own, or reported skipped.
        #expect(shown.count + skipped.count == 300)
        let mscs = shown.map { $0.msc! }
        #expect(zip(mscs.dropFirst(), mscs).allSatisfy { $0 > $1 }, "shown frames have increasing MSCs")
        // presentedTime is the server's UST for the frame's vblank.
        for (drawable, report) in zip(drawables, reports) where report?.mode != .skip {
            #expect(abs(drawable.presentedTime - report!.presentedTime!.inSeconds) < 1e-6)
        }
        // The server's refresh, from its own counter and times over the run.
        let refresh = (shown.last!.presentedTime! - shown.first!.presentedTime!).inSeconds
            / Double(shown.last!.msc! - shown.first!.msc!)
        #expect(abs(refresh - 1.0 / 60) * 1000 <= 0.2, "Xvfb's fake CRTC runs at 60 Hz: \(refresh * 1000) ms")
        let times = shown.map { $0.presentedTime!.inSeconds }
        let intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let gaps = zip(mscs.dropFirst(), mscs).filter { $0 - $1 > 1 }.count
        print(String(format: "feedback on Xvfb: %d shown, %d skipped, %d MSC gaps; server refresh %.3f ms, mean interval %.3f ms (min %.3f, max %.3f)",
                     shown.count, skipped.count, gaps, refresh * 1000, mean, intervals.min()!, intervals.max()!))
        #expect(abs(mean - refresh * 1000) <= 0.2, "mean \(mean) ms against \(refresh * 1000) ms")
        #expect(shown.allSatisfy { $0.mode == .copy }, "lavapipe copies with PutImage")
        #expect(layer.frameStatistics.records.count == 300)
    }
}

/// Presented times stay the host's when the server gives no feedback: the layer says so
/// once and carries on. (Xvfb cannot run without the Present extension, so the feedback is
/// made for a window that does not exist, which fails the same way at the same point.)
@Suite("Presentation feedback fallback")
struct PresentationFeedbackFallbackTests {
    @Test("feedback that cannot be made: the layer logs one line and reports host times")
    func noFeedback() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let fixture = try XWindowFixture(gpu, width: 64, height: 64)
            let layer = fixture.layer
            let used = layer.usePresentationFeedback {
                try XPresentFeedback(connection: fixture.x.connection, window: 0x0BAD_BEEF)
            }
            #expect(!used)
            let waiter = PresentWaiter()
            let drawable = try #require(layer.nextDrawable())
            try gpu.present(drawable, red: 1, waiter: waiter)
            #expect(waiter.wait(for: 1))
            #expect(drawable.presentedTime > 0)
            #expect(drawable.presentationReport == nil)
        }
        let lines = stderr(result).split(separator: "\n").filter { $0.contains("presentation feedback") }
        #expect(lines.count == 1, "\(stderr(result))")
        #expect(lines.first?.hasSuffix("no presentation feedback: could not select Present events on window 195935983; "
            + "presented times are when vkQueuePresentKHR returned") == true, "\(lines)")
    }
}
