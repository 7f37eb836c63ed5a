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
