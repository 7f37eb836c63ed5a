import Foundation

/// A curve traversed with the speed hands draw it at: the two-thirds power law
/// (Lacquaniti, Terzuolo and Viviani, 1983), angular velocity proportional to curvature to
/// the power 2/3, which is tangential speed v = K · κ^(−1/3): slow through tight turns,
/// fast along flat stretches. The curve is given by a parameter θ; the time to each θ is
/// integrated numerically once, and positions at a time are read back from that table.
public struct PowerLawPath: Sendable {
    /// The curve at a parameter value.
    public let curve: @Sendable (Double) -> SIMD2<Double>
    /// Times (seconds) at evenly spaced parameter values from 0 to `parameterEnd`.
    private let times: [Double]
    private let parameterEnd: Double

    /// The curve from θ = 0 to `parameterEnd`, taking `duration` seconds in all; the
    /// curvature is clamped to at least `minimumCurvature` (1/px) so that straight stretches
    /// stay at a finite speed.
    public init(parameterEnd: Double, duration: Double, minimumCurvature: Double = 1.0 / 2_000, steps: Int = 20_000,
                curve: @escaping @Sendable (Double) -> SIMD2<Double>) {
        precondition(parameterEnd > 0 && duration > 0 && steps > 2, "PowerLawPath: parameterEnd, duration and steps must be positive")
        self.curve = curve
        self.parameterEnd = parameterEnd
        let h = parameterEnd / Double(steps)
        // dt/dθ = |r'(θ)| / v(θ) with v = κ^(−1/3) (K = 1 for now), by central differences.
        func rate(_ theta: Double) -> Double {
            let d = 1e-4 * parameterEnd
            let a = curve(theta - d), b = curve(theta), c = curve(theta + d)
            let first = (c - a) / (2 * d), second = (c - 2 * b + a) / (d * d)
            let speed = (first * first).sum().squareRoot()
            let cross = abs(first.x * second.y - first.y * second.x)
            let curvature = max(cross / max(speed * speed * speed, 1e-12), minimumCurvature)
            return speed * pow(curvature, 1.0 / 3)
        }
        var times = [0.0]
        times.reserveCapacity(steps + 1)
        var previous = rate(0)
        for index in 1...steps {
            let next = rate(Double(index) * h)
            times.append(times[index - 1] + (previous + next) / 2 * h)
            previous = next
        }
        let scale = duration / times[steps]
        self.times = times.map { $0 * scale }
    }

    /// How long the whole curve takes, in seconds.
    public var duration: Double { times[times.count - 1] }

    /// The position `time` seconds after the start (the end of the curve after it ends).
    public func position(at time: Double) -> SIMD2<Double> {
        let t = min(max(time, 0), duration)
        var low = 0, high = times.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if times[middle] <= t { low = middle } else { high = middle }
        }
        let span = times[high] - times[low]
        let fraction = span > 0 ? (t - times[low]) / span : 0
        let h = parameterEnd / Double(times.count - 1)
        return curve((Double(low) + fraction) * h)
    }
}
