import Foundation
import PointerInput

/// A stroke with a known true position at every time, sampled with optional noise: the
/// ground truth prediction is measured against.
struct SyntheticStroke: Sendable {
    /// Every stroke starts here and lasts `duration`.
    static let start: Duration = .milliseconds(100)
    static let duration: Duration = .seconds(2)

    let name: String
    /// The standard deviation of the noise on each sample's position, in pixels.
    let noise: Double
    /// The true position at a time since the start, in seconds.
    let path: @Sendable (Double) -> SIMD2<Double>

    /// The true position at `time` on the clock.
    func truth(at time: Duration) -> SIMD2<Double> { path(min(max((time - SyntheticStroke.start).seconds, 0), SyntheticStroke.duration.seconds)) }

    /// Samples at `rate` per second from half an interval after the start (so none falls
    /// on a 60 Hz vblank, and the input's phase against the frames is the average one),
    /// with seeded noise.
    func samples(rate: Double) -> [InputSample] {
        var random = SeededNoise(seed: UInt64(rate) * 7_919 + UInt64(name.utf8.count))
        let offset = Duration.nanoseconds(Int64((0.5e9 / rate).rounded()))
        return ScriptedInputSource.stroke(from: SyntheticStroke.start + offset, duration: SyntheticStroke.duration - offset * 2,
                                          rate: rate) { time in
            truth(at: time) + (noise > 0 ? [random.gaussian(sigma: noise), random.gaussian(sigma: noise)] : .zero)
        }
    }

    /// 1,000 px/s in a straight line.
    static let line = SyntheticStroke(name: "line", noise: 0) { t in [100 + 800 * t, 100 + 600 * t] }
    /// A circle of 200 px radius once a second: 1,257 px/s, always turning.
    static let circle = SyntheticStroke(name: "circle", noise: 0) { t in
        [600 + 200 * cos(2 * .pi * t), 400 + 200 * sin(2 * .pi * t)]
    }
    /// An Archimedean spiral, 1.5 turns a second, its radius growing from 20 to 220 px:
    /// turning and speeding up (to 2,100 px/s).
    static let spiral = SyntheticStroke(name: "spiral", noise: 0) { t in
        let radius = 20 + 100 * t, angle = 3 * Double.pi * t
        return [600 + radius * cos(angle), 400 + radius * sin(angle)]
    }
    /// 1,500 px/s in a line for 1.5 s, then still.
    static let suddenStop = SyntheticStroke(name: "sudden stop", noise: 0) { t in [100 + 1_500 * min(t, 1.5), 300] }
    /// 500 px/s in a line, each sample off by 2 px of Gaussian noise (a noisy panel or an
    /// unsteady hand).
    static let jitter = SyntheticStroke(name: "jitter", noise: 2) { t in [100 + 500 * t, 300] }

    static let all = [line, circle, spiral, suddenStop, jitter]
}
