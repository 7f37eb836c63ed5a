import FramePacing
import Foundation
import GPU
import GPUTestSupport
import Testing

@Suite("Frame pacing on Xvfb (real clock)", .validated)
struct PacingXvfbTests {
    @Test("a 60 Hz target through present(afterMinimumDuration:): mean interval 16.67 ± 0.2 ms over 5 s, standard deviation ≤ 1.5 ms")
    func sixtyHertz() throws {
        let gpu = try TestGPU()
        let fixture = try XWindowFixture(gpu, width: 128, height: 128)
        let layer = fixture.layer
        let waiter = PresentWaiter()
        var ids: [Int] = []
        // 301 frames: 300 intervals, 5 s at 60 Hz. Xvfb's FIFO is not a clock (lavapipe
        // presents at thousands of frames per second), so the cadence is the pacer's alone.
        for frame in 0..<301 {
            let drawable = try #require(layer.nextDrawable())
            ids.append(drawable.drawableID)
            try gpu.present(drawable, red: Double(frame % 2), waiter: waiter) {
                $0.present($1, afterMinimumDuration: 1.0 / 60)
            }
        }
        #expect(waiter.wait(for: ids.count))
        let times = ids.map { waiter.presentedTimes[$0] ?? 0 }
        #expect(times.allSatisfy { $0 > 0 }, "every frame shown")
        let intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let sd = (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(intervals.count)).squareRoot()
        let sorted = intervals.sorted()
        print(String(format: "pacing on Xvfb: 60 Hz target, %d intervals: mean %.3f ms, sd %.3f ms, min %.3f, p50 %.3f, p99 %.3f, max %.3f ms",
                     intervals.count, mean, sd, sorted.first!, sorted[sorted.count / 2], sorted[sorted.count * 99 / 100], sorted.last!))
        #expect(abs(mean - 1000.0 / 60) <= 0.2, "mean \(mean) ms")
        #expect(sd <= 1.5, "standard deviation \(sd) ms")
        #expect(layer.frameStatistics.records.count == 301)
    }
}
