/// One presented frame, with PresentMon's per-present measures. Times are seconds on the
/// display's clock; a measure that does not apply (a dropped frame's display, the first
/// frame's intervals) is nil.
public struct PresentRecord: Sendable, Equatable, Codable {
    /// The drawable's ID.
    public var frameID: Int
    /// When the app started the frame (the drawable was handed out).
    public var frameStart: Double
    /// When the frame was handed to the display.
    public var presentTime: Double
    /// When it became visible; nil when it was dropped.
    public var displayedTime: Double?
    /// When the frame's cadence asked for it to be shown (its pacer's ideal vblank), where
    /// known: hitches are measured against it.
    public var expectedDisplayTime: Double?
    /// Milliseconds since the previous present (PresentMon's MsBetweenPresents).
    public var msBetweenPresents: Double?
    /// Milliseconds the previous displayed frame was shown before this one replaced it
    /// (MsBetweenDisplayChange); nil for a dropped frame and the first displayed one.
    public var msBetweenDisplayChange: Double?
    /// Milliseconds from present to display (MsUntilDisplayed).
    public var msUntilDisplayed: Double?
    /// Milliseconds from frame start to display (DisplayLatency).
    public var msFrameStartToDisplay: Double?

    /// Whether the frame was dropped (replaced before it was shown).
    public var isDropped: Bool { displayedTime == nil }
}
