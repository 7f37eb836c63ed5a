import FramePacing

/// When an X11 window's frames were shown, as the X server reports it through the Present
/// extension: hand it to the window's layer with `Layer.usePresentationFeedback(_:)`.
///
/// It shares the event thread of an `XPresentClock` on the same window (one vblank source
/// per window: display links on `clock` and the feedback wake the same thread). How frames
/// are matched to the server's completions depends on how the Vulkan driver presents (see
/// `XPresentFrameMatcher`): Mesa's software drivers copy with PutImage, and each frame is
/// reported at the vblank that first shows it (mode `.copy`), or as skipped when a later
/// frame replaced it before that vblank; drivers that present pixmaps are reported from
/// their own completions (`.copy`, `.flip` or `.skip`).
///
/// Release it (and the layer using it) before destroying the window.
public final class XPresentFeedback: PresentationFeedback {
    /// The window's vblanks, from the Present extension.
    public let presentClock: XPresentClock

    /// Feedback for `window` on `connection` (the connection the layer's surface was made
    /// with), on a clock of its own. Throws when the server lacks the Present extension or
    /// reports no vblank for the window.
    public convenience init(connection: OpaquePointer, window: UInt32) throws(XPresentClockError) {
        self.init(clock: try XPresentClock(connection: connection, window: window))
    }

    /// Feedback on `clock`, the `XPresentClock` of the layer's window, shared with the
    /// display links that run on it.
    public init(clock: XPresentClock) { presentClock = clock }

    /// The window's vblanks.
    public var clock: any DisplayClock { presentClock }

    /// Starts reporting presented frames to `report`, on the clock's event thread.
    public func start(_ report: @escaping @Sendable (PresentationReport) -> Void) { presentClock.core.startFeedback(report) }

    /// Nothing to do before an X present.
    public func willPresent(frame: UInt64) {}

    /// Asks the server for the vblank that shows `frame` (when its present succeeded).
    public func didPresent(frame: UInt64, shown: Bool) {
        if shown { presentClock.core.presented(frame: frame) }
    }

    /// Stops reporting.
    public func stop() { presentClock.core.stopFeedback() }
}
