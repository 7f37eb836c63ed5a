import Foundation
import PointerInput

/// The strokes prediction is judged on: each a class of motion that a predictor meets in
/// use, from a model with a documented basis, sampled by the benchmark at 60, 120 and
/// 240 Hz.
public enum StrokeCorpus {
    /// Every class, in the order the tables list them.
    public static let all: [CorpusStroke] = [reaches, lissajous, cursive, corner, zigzag, stopAndGoSampled, stopAndGoSilent, noisySlow]

    /// Five point-to-point reaches of 180–480 px in 300–500 ms, in different directions,
    /// each on the minimum-jerk profile and followed by a 150 ms hold: smooth starts and
    /// stops (a pen reporting while still).
    public static let reaches: CorpusStroke = {
        let moves: [(SIMD2<Double>, Double)] = [([420, 90], 0.45), ([-180, 260], 0.35), ([-300, -120], 0.40),
                                                 ([120, -300], 0.30), ([480, 40], 0.50)]
        var start = 0.0
        var reaches: [MinimumJerkPath.Reach] = []
        for (displacement, duration) in moves {
            reaches.append(MinimumJerkPath.Reach(displacement: displacement, start: start, duration: duration))
            start += duration + 0.15
        }
        let path = MinimumJerkPath(origin: [200, 300], reaches: reaches)
        return CorpusStroke(name: "reaches", duration: start) { path.position(at: $0) }
    }()

    /// A 3:2 Lissajous figure (300 × 200 px) drawn in 2.5 s with the two-thirds power law:
    /// speeds from about 300 to 1,500 px/s, slowest in the tight turns.
    public static let lissajous = powerLaw(name: "lissajous", parameterEnd: 2 * .pi, duration: 2.5) { theta in
        [600 + 300 * sin(3 * theta + .pi / 2), 400 + 200 * sin(2 * theta)]
    }

    /// Cursive loops (a prolate trochoid: eight loops of 80 px, advancing 160 px a loop, as
    /// a row of l's) drawn in 2.5 s with the two-thirds power law.
    public static let cursive = powerLaw(name: "cursive", parameterEnd: 8 * 2 * .pi, duration: 2.5) { theta in
        [150 + 25 * theta - 40 * sin(theta), 400 - 40 * cos(theta)]
    }

    /// The curve `shape` over 0...`parameterEnd`, drawn in `duration` s with the two-thirds power law.
    static func powerLaw(name: String, parameterEnd: Double, duration: Double,
                         shape: @escaping @Sendable (Double) -> SIMD2<Double>) -> CorpusStroke {
        let path = PowerLawPath(parameterEnd: parameterEnd, duration: duration, curve: shape)
        return CorpusStroke(name: name, duration: path.duration) { path.position(at: $0) }
    }

    /// Twice round a 320 px square: reaches of 400 ms from corner to corner, each starting
    /// 280 ms after the previous (Flash and Hogan's superposition), so each 90° corner is
    /// rounded and slowed as a hand does it.
    public static let corner: CorpusStroke = {
        let square: [SIMD2<Double>] = [[200, 500], [200, 180], [520, 180], [520, 500]]
        let points = Array((0..<8).map { square[$0 % 4] }) + [square[0]]
        let path = MinimumJerkPath.via(points, start: 0, duration: 0.4, step: 0.28)
        return CorpusStroke(name: "corner", duration: path.end + 0.05) { path.position(at: $0) }
    }()

    /// Scribbling: ten strokes of 220 px, each turning 150° from the one before (a zigzag),
    /// 260 ms each and overlapping by 90 ms, so the reversals are fast.
    public static let zigzag = zigzag(name: "zigzag", length: 220, turn: 150, startAngle: 0.3, duration: 0.26, step: 0.17)

    /// Ten strokes of `length` px from (300, 400), the first at `startAngle` radians, each
    /// turning `turn` degrees from the one before, alternately left and right: minimum-jerk
    /// reaches of `duration` s, each starting `step` s after the previous.
    static func zigzag(name: String, length: Double, turn: Double, startAngle: Double, duration: Double, step: Double) -> CorpusStroke {
        var points: [SIMD2<Double>] = [[300, 400]]
        var angle = startAngle
        for index in 0..<10 {
            points.append(points[index] + length * SIMD2(cos(angle), sin(angle)))
            angle += (index % 2 == 0 ? 1 : -1) * turn * .pi / 180
        }
        let path = MinimumJerkPath.via(points, start: 0, duration: duration, step: step)
        return CorpusStroke(name: name, duration: path.end + 0.05) { path.position(at: $0) }
    }

    /// 1,200 px/s for 350 ms, then still for 250 ms, four times, turning 60° each time: the
    /// pointer starts and stops dead, with samples while still (a pen or touch screen).
    public static let stopAndGoSampled = stopAndGo(name: "stop-and-go, sampled", device: .pen, reportsWhileStill: true)

    /// As `stopAndGoSampled`, from a mouse: no samples while still.
    public static let stopAndGoSilent = stopAndGo(name: "stop-and-go, silent", device: .pointer, reportsWhileStill: false)

    /// Four legs at `speed` px/s for `moving` s, each followed by `still` s still and turning
    /// `turn` radians from the one before.
    static func stopAndGo(name: String, device: InputDeviceKind, reportsWhileStill: Bool, speed: Double = 1_200,
                          moving: Double = 0.35, still: Double = 0.25, turn: Double = .pi / 3) -> CorpusStroke {
        let period = moving + still
        return CorpusStroke(name: name, device: device, duration: 4 * period - still + 0.05, reportsWhileStill: reportsWhileStill) { t in
            var position: SIMD2<Double> = [200, 300]
            for leg in 0..<4 {
                let angle = Double(leg) * turn
                let travelled = min(max(t - Double(leg) * period, 0), moving) * speed
                position += travelled * SIMD2(cos(angle), sin(angle))
            }
            return position
        }
    }

    /// A slow, wavy stroke (250 px/s along, ±20 px at 0.7 Hz across) from a noisy device:
    /// 1.5 px of Gaussian noise on each position and each timestamp up to 1 ms off.
    public static let noisySlow = CorpusStroke(name: "noisy slow", device: .touch, duration: 2.5, noise: 1.5,
                                               timestampJitter: 0.001) { t in
        [200 + 250 * t, 400 + 20 * sin(2 * .pi * 0.7 * t)]
    }
}
