import GPU

/// Metal's `MTLDrawable`; SwiftGPU's `Drawable` conforms.
public protocol MTLDrawable: AnyObject, Sendable {
    /// The drawable's number, increasing per layer.
    var drawableID: Int { get }
    /// When the drawable was shown, in seconds; 0 until then, or if it was dropped.
    var presentedTime: Double { get }
    /// Presents the drawable once the work that renders it is scheduled.
    func present()
    /// Runs `block` once the drawable was shown or dropped.
    func addPresentedHandler(_ block: @escaping @Sendable (any MTLDrawable) -> Void)
}

/// SwiftGPU's `Drawable` as Metal's `MTLDrawable`.
extension Drawable: MTLDrawable {
    /// Metal's `addPresentedHandler(_:)`, handing `block` the drawable as Metal's protocol.
    public func addPresentedHandler(_ block: @escaping @Sendable (any MTLDrawable) -> Void) {
        let handler: @Sendable (Drawable) -> Void = { drawable in block(drawable) }
        addPresentedHandler(handler)
    }
}
