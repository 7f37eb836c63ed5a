/// How often a pacer shows a new frame.
public enum SwapInterval: Sendable, Hashable {
    /// Every `refreshes` vblanks (1: every refresh).
    case fixed(refreshes: Int)
    /// No sooner than `seconds` after the previous frame was shown, rounded up to whole
    /// refreshes (1/30 on 60 Hz: every second vblank).
    case minimumDuration(Double)
    /// Chosen from measured frame times, never faster than `preferredFrameRate`: raised as
    /// Android's frame-pacing library (Swappy) does, when more than 10% of the frames in a
    /// 2 s window miss their vblank; lowered only when none in the window miss, the
    /// interval has held for `Pacer.lowerHold` (10 s, longer after an oscillation) and 99%
    /// of that span's frames fit the shorter interval pipelined with 1 ms to spare.
    case automatic(preferredFrameRate: Double)
}
