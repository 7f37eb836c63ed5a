/// Point-to-point reaching movements on the minimum-jerk model (Flash and Hogan, 1985):
/// a reach of duration T moves along its straight line by the profile
/// s(τ) = 10τ³ − 15τ⁴ + 6τ⁵, τ = t / T, which starts and ends at rest with no acceleration.
/// A path through via points is the sum of reaches that overlap in time (Flash and Hogan's
/// superposition): the later reach starts before the earlier one ends, which rounds the
/// corner and lowers the speed through it, as hands do.
public struct MinimumJerkPath: Sendable {
    /// One reach: a displacement, when it starts and how long it lasts (seconds from the
    /// stroke's start).
    public struct Reach: Sendable, Hashable {
        /// What the reach adds to the position, in pixels.
        public var displacement: SIMD2<Double>
        /// When it starts, in seconds.
        public var start: Double
        /// How long it lasts, in seconds.
        public var duration: Double

        /// A reach by `displacement` from `start` for `duration` seconds.
        public init(displacement: SIMD2<Double>, start: Double, duration: Double) {
            precondition(duration > 0, "MinimumJerkPath.Reach: duration must be positive, got \(duration)")
            self.displacement = displacement
            self.start = start
            self.duration = duration
        }
    }

    /// Where the path starts.
    public var origin: SIMD2<Double>
    /// The reaches, in any order.
    public var reaches: [Reach]

    /// A path from `origin` made of `reaches`.
    public init(origin: SIMD2<Double>, reaches: [Reach]) {
        self.origin = origin
        self.reaches = reaches
    }

    /// The fraction of a reach done at `tau` (0...1).
    public static func profile(_ tau: Double) -> Double {
        let t = min(max(tau, 0), 1)
        return t * t * t * (10 + t * (-15 + 6 * t))
    }

    /// The position `time` seconds after the stroke's start.
    public func position(at time: Double) -> SIMD2<Double> {
        reaches.reduce(origin) { $0 + $1.displacement * Self.profile((time - $1.start) / $1.duration) }
    }

    /// When the last reach ends, in seconds.
    public var end: Double { reaches.map { $0.start + $0.duration }.max() ?? 0 }

    /// Reaches that go from one via point to the next, each lasting `duration`, the next
    /// starting `step` seconds after the previous one (an overlap of `duration − step`),
    /// from `start`.
    public static func via(_ points: [SIMD2<Double>], start: Double, duration: Double, step: Double) -> MinimumJerkPath {
        precondition(points.count >= 2, "MinimumJerkPath.via: needs two points or more, got \(points.count)")
        let reaches = zip(points, points.dropFirst()).enumerated().map { index, pair in
            Reach(displacement: pair.1 - pair.0, start: start + Double(index) * step, duration: duration)
        }
        return MinimumJerkPath(origin: points[0], reaches: reaches)
    }
}
