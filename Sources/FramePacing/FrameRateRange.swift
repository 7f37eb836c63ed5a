/// A range of frame rates a display link may run at, with the rate it prefers.
public struct FrameRateRange: Sendable, Hashable {
    /// The lowest acceptable rate, in frames per second.
    public var minimum: Double
    /// The highest acceptable rate, in frames per second.
    public var maximum: Double
    /// The rate to aim for, in frames per second.
    public var preferred: Double

    /// Makes a range; `preferred` defaults to `maximum`.
    public init(minimum: Double, maximum: Double, preferred: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred ?? maximum
    }

    /// Run at the display's own rate.
    public static let `default` = FrameRateRange(minimum: 0, maximum: 0, preferred: 0)
}

extension FrameRateRange {
    /// The rate a display link runs at on a display refreshing `refreshRate` times a
    /// second: a whole divisor of the refresh rate (60 Hz gives 60, 30, 20, 15, …), the one
    /// inside the range nearest `preferred` (the faster on a tie). A preferred rate above
    /// the maximum counts as the maximum; `cap` (low power mode's 30) lowers the maximum;
    /// when no divisor lies inside the range, the fastest one not above the maximum. The
    /// default range gives the refresh rate (or the cap).
    public func snapped(toRefreshRate refreshRate: Double, cap: Double? = nil) -> Double {
        precondition(refreshRate > 0, "FrameRateRange.snapped(toRefreshRate:): refreshRate must be positive, got \(refreshRate)")
        let epsilon = 1e-6
        var upper = maximum > 0 ? Swift.min(maximum, refreshRate) : refreshRate
        if let cap { upper = Swift.min(upper, cap) }
        let lower = Swift.min(Swift.max(minimum, 0), upper)
        let target = Swift.min(Swift.max(preferred > 0 ? preferred : upper, lower), upper)
        let divisors = (1...Swift.max(Int(refreshRate.rounded(.up)), 1)).map { refreshRate / Double($0) }
        let inside = divisors.filter { $0 >= lower - epsilon && $0 <= upper + epsilon }
        if let best = inside.min(by: { abs($0 - target) < abs($1 - target) - epsilon }) { return best }
        return divisors.first { $0 <= upper + epsilon } ?? divisors.last!
    }
}
