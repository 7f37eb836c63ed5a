/// When a presented frame may be shown: Metal's three `present` calls.
public enum PresentTiming: Sendable, Hashable {
    /// As soon as the present mode allows (a pacer applies its swap interval).
    case asSoonAsPossible
    /// No earlier than this time on the display's clock (`present(_:atTime:)`).
    case atTime(Duration)
    /// Once the previous frame has been shown for at least this long
    /// (`present(_:afterMinimumDuration:)`).
    case afterMinimumDuration(Duration)
}
