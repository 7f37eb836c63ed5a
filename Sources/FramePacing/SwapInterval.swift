/// How often a pacer shows a new frame.
public enum SwapInterval: Sendable, Hashable {
    /// Every `refreshes` vblanks (1: every refresh).
    case fixed(refreshes: Int)
    /// No sooner than `seconds` after the previous frame was shown, rounded up to whole
    /// refreshes (1/30 on 60 Hz: every second vblank).
    case minimumDuration(Double)
    /// Chosen from measured frame times in the manner of Android's frame-pacing library
    /// (Swappy), never faster than `preferredFrameRate`: raised when more than 10% of the
    /// frames in a 2 s window miss their vblank, lowered only when none miss and the
    /// frames fit the shorter interval with a 1 ms margin.
    case automatic(preferredFrameRate: Double)
}
