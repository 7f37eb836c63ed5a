/// Depth testing, Metal's `MTLDepthStencilDescriptor` (defaults: compare always, no write).
public struct DepthStencilDescriptor: Sendable, Hashable {
    /// The depth comparison.
    public var depthCompareFunction = CompareFunction.always
    /// Whether passing fragments write depth.
    public var isDepthWriteEnabled = false
    /// Makes a descriptor with Metal's defaults.
    public init() {}
}

/// An immutable depth-stencil state, Metal's `MTLDepthStencilState`.
public final class DepthStencilState: Sendable {
    /// What it was made from.
    public let descriptor: DepthStencilDescriptor
    init(descriptor: DepthStencilDescriptor) { self.descriptor = descriptor }
}

extension Device {
    /// Makes a depth-stencil state.
    public func makeDepthStencilState(descriptor: DepthStencilDescriptor) -> DepthStencilState {
        DepthStencilState(descriptor: descriptor)
    }
}
