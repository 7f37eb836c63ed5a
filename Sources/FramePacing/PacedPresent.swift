/// A pacer's decision for one presented frame.
public struct PacedPresent: Sendable, Hashable {
    /// The vblank the frame is shown at, at the earliest: give it to the display as the
    /// frame's "not before" time.
    public var target: Duration
    /// The vblank the cadence asked for (nil for the first frame): `target` is later when
    /// the frame arrived too late for it.
    public var ideal: Duration?
    /// The interval the cadence asked for, in refreshes.
    public var refreshes: Int

    /// Whether the frame arrived too late for the vblank its cadence asked for.
    public var missed: Bool { ideal.map { target > $0 } ?? false }
}
