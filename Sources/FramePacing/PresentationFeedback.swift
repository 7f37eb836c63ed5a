/// How the display server put a presented frame on screen, as it reports it.
public enum PresentCompletionMode: Sendable, Hashable {
    /// Copied into the window's contents (X Present's Copy, a PutImage, a composited
    /// Wayland surface).
    case copy
    /// Scanned out from the frame's own buffer (X Present's Flip, Wayland's zero-copy).
    case flip
    /// Replaced by a later frame before it was shown (X Present's Skip, Wayland's
    /// `discarded`).
    case skip
    /// Shown, in a way the server did not say.
    case unknown
}

/// What the display server reported for one presented frame.
public struct PresentationReport: Sendable, Hashable {
    /// The number the layer gave the frame in `PresentationFeedback.willPresent(frame:)`.
    public var frame: UInt64
    /// When the frame was shown, on `CLOCK_MONOTONIC`; nil when it was never shown
    /// (`mode == .skip`).
    public var presentedTime: Duration?
    /// The server's vblank counter at that time (X's MSC, Wayland's sequence), when it
    /// reports one.
    public var msc: UInt64?
    /// The refresh period the server reported with the frame (Wayland), when it did.
    public var refresh: Duration?
    /// How the frame reached the screen.
    public var mode: PresentCompletionMode

    /// A report of `frame`.
    public init(frame: UInt64, presentedTime: Duration?, msc: UInt64? = nil, refresh: Duration? = nil,
                mode: PresentCompletionMode) {
        self.frame = frame
        self.presentedTime = presentedTime
        self.msc = msc
        self.refresh = refresh
        self.mode = mode
    }
}

/// The display server's word on when a window's frames were shown: X's Present extension
/// (`XPresentFeedback` in `GPUXCB`) or Wayland's presentation-time protocol
/// (`WaylandPresentationFeedback` in `GPUWayland`), handed to a window layer with
/// `Layer.usePresentationFeedback(_:)`.
///
/// The layer numbers its frames and calls `willPresent(frame:)` just before the present
/// call that shows one and `didPresent(frame:shown:)` right after it; the feedback reports
/// each frame whose present call succeeded exactly once, in presentation order, through
/// the closure given to `start(_:)`, on a thread of its own. `clock` is the server's vblank
/// grid, for display links and the layer's pacer.
public protocol PresentationFeedback: AnyObject, Sendable {
    /// The server's vblanks: the clock display links and the pacer of a layer that uses
    /// this feedback run on.
    var clock: any DisplayClock { get }
    /// Starts reporting to `report`; called once, by the layer, before its first present.
    func start(_ report: @escaping @Sendable (PresentationReport) -> Void)
    /// The present call that shows `frame` comes next.
    func willPresent(frame: UInt64)
    /// The present call for `frame` returned: `shown` when it succeeded (the frame will be
    /// reported), false when it failed (it will not).
    func didPresent(frame: UInt64, shown: Bool)
    /// Stops reporting; no report is made after it returns. Frames not yet reported are
    /// not reported.
    func stop()
}
