/// One image handed to a `VirtualDisplay`.
public struct DisplayPresentRequest: Sendable {
    /// The caller's image slot (a swapchain index).
    public var imageIndex: Int
    /// How the image replaces what is queued or shown.
    public var mode: PresentMode
    /// The image is never shown before this display time (`present(_:atTime:)`).
    public var notBefore: Duration?
    /// When the app started the frame, for latency records.
    public var frameStart: Duration?
    /// Receives the image's events, in order.
    public var handler: @Sendable (DisplayPresentEvent) -> Void

    /// A request for `imageIndex` in `mode`.
    public init(imageIndex: Int, mode: PresentMode, notBefore: Duration? = nil, frameStart: Duration? = nil,
                handler: @escaping @Sendable (DisplayPresentEvent) -> Void) {
        self.imageIndex = imageIndex
        self.mode = mode
        self.notBefore = notBefore
        self.frameStart = frameStart
        self.handler = handler
    }
}

/// What happened to a presented image, in display time.
public enum DisplayPresentEvent: Sendable, Equatable {
    /// The image became visible (at a vblank, or at once).
    case displayed(at: Duration)
    /// The image was replaced before it was ever shown (mailbox); a `released` event
    /// follows at once.
    case dropped(at: Duration)
    /// The image is no longer shown or queued: the caller may reuse it.
    case released(at: Duration)
}
