/// How often a pacer shows a new frame.
public enum SwapInterval: Sendable, Hashable {
    /// Every `refreshes` vblanks (1: every refresh).
    case fixed(refreshes: Int)
    /// No sooner than `seconds` after the previous frame was shown, rounded up to whole
    /// refreshes (1/30 on 60 Hz: every second vblank).
    case minimumDuration(Double)
    /// The highest rate, never faster than `preferredFrameRate`, whose hitch ratio (Apple's:
    /// milliseconds frames are shown after their cadence's vblank, per second) stays under
    /// `Pacer.hitchLimit` (5 ms/s): raised (pipelining first) when frames were late by more
    /// than that over `Pacer.hitchWindow`; lowered only when none in the last 2 s missed,
    /// the interval has held for `Pacer.lowerHold` (10 s, longer after an oscillation) and a
    /// model of the frame loop says that span's frames would have been late by at most
    /// 1 ms/s at the shorter interval.
    case automatic(preferredFrameRate: Double)
}
