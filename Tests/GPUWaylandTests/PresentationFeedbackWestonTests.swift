import FramePacing
import Foundation
import GPU
import GPUTestSupport
import GPUWayland
import Testing

/// Presented times from a Wayland compositor: `wp_presentation` feedback on Weston's
/// headless backend. Real-clock tests: they run after the rest of the suite, one at a time.
@Suite("Presentation feedback on Weston (real clock)", .validated)
struct PresentationFeedbackWestonTests {
    @Test("300 frames at 60 Hz: presented times and refresh are the compositor's, every frame is reported")
    func compositorTimes() throws {
        // Weston 10's headless output finishes a frame 16 ms after its repaint, and repaints
        // `repaint-window` ms before the next refresh (7 by default): frames then come every
        // 25.7 ms whatever the refresh. A 16 ms window makes its frames come at its refresh.
        let weston = try WestonServer(ini: "[core]\nrepaint-window=16\n")
        let gpu = try TestGPU()
        let window = try WaylandToplevel(socketPath: weston.socketPath, adapter: nil)
        let surface = try #require(window.surface)
        let feedback = try WaylandPresentationFeedback(display: window.display, surface: surface)
        let layer = try Layer(device: gpu.device, surface: .wayland(display: window.display, surface: surface))
        layer.drawableSize = Size2D(width: 64, height: 48)
        layer.usePresentationFeedback(feedback)
        let (drawables, reports) = try presentPaced(gpu, layer, frames: 300)
        let shown = reports.compactMap { $0 }.filter { $0.mode != .skip }
        let discarded = reports.compactMap { $0 }.filter { $0.mode == .skip }
        #expect(shown.count + discarded.count == 300)
        let refresh = try #require(shown.last?.refresh)
        for (drawable, report) in zip(drawables, reports) where report?.mode != .skip {
            #expect(abs(drawable.presentedTime - report!.presentedTime!.inSeconds) < 1e-6)
        }
        // Weston's headless output counts no sequence: its frame period is the median of
        // the intervals between its reports.
        #expect(shown.allSatisfy { $0.msc == nil })
        let times = shown.map { $0.presentedTime!.inSeconds }
        let intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }
        let period = intervals.sorted()[intervals.count / 2]
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let gaps = intervals.filter { $0 > period * 1.5 }.count
        print(String(format: "feedback on Weston: %d shown, %d discarded, %d missed compositor frames; refresh reported %.3f ms, "
                     + "frame period %.3f ms; mean interval %.3f ms (min %.3f, max %.3f)",
                     shown.count, discarded.count, gaps, refresh.inSeconds * 1000, period, mean, intervals.min()!, intervals.max()!))
        #expect(abs(refresh.inSeconds - 1.0 / 60) < 1e-6, "Weston's headless output reports 60 Hz")
        // Its frame clock is a 16 ms timer after each repaint, so its period is not its
        // nominal refresh and varies from frame to frame: paced on it, frames miss none of
        // its frames but at the start.
        #expect(gaps <= 2, "\(gaps) compositor frames missed")
        #expect(abs(mean - period) <= 0.5, "mean \(mean) ms against the compositor's frame period \(period) ms")
        #expect(abs(1000 / feedback.clock.refreshRate - period) < 0.5, "the clock runs on the compositor's frames")
        withExtendedLifetime(window) {}
    }
}
