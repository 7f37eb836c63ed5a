/// A buffer or a texture: what an encoder's `useResource(_:usage:)` takes, Metal's
/// `MTLResource`.
public protocol Resource: AnyObject, Sendable {}

extension Buffer: Resource {}
extension Texture: Resource {}
