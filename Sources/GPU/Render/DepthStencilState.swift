/// What a stencil test does to the stored value, Metal's `MTLStencilOperation`.
public enum StencilOperation: Sendable, Hashable {
    /// Keep it.
    case keep
    /// Set it to 0.
    case zero
    /// Set it to the reference value.
    case replace
    /// Add 1, clamping.
    case incrementClamp
    /// Subtract 1, clamping.
    case decrementClamp
    /// Invert the bits.
    case invert
    /// Add 1, wrapping.
    case incrementWrap
    /// Subtract 1, wrapping.
    case decrementWrap
}

/// The stencil test for one face, Metal's `MTLStencilDescriptor` (same defaults).
public struct StencilDescriptor: Sendable, Hashable {
    /// Compares the reference value with the stored value (both masked by `readMask`).
    public var stencilCompareFunction = CompareFunction.always
    /// When the stencil test fails.
    public var stencilFailureOperation = StencilOperation.keep
    /// When the stencil test passes and the depth test fails.
    public var depthFailureOperation = StencilOperation.keep
    /// When both pass.
    public var depthStencilPassOperation = StencilOperation.keep
    /// Bits compared.
    public var readMask: UInt32 = 0xFF
    /// Bits written.
    public var writeMask: UInt32 = 0xFF
    /// Makes a descriptor with Metal's defaults.
    public init() {}
}

/// Depth and stencil testing, Metal's `MTLDepthStencilDescriptor` (defaults: compare
/// always, no depth write, no stencil test).
public struct DepthStencilDescriptor: Sendable, Hashable {
    /// The depth comparison.
    public var depthCompareFunction = CompareFunction.always
    /// Whether passing fragments write depth.
    public var isDepthWriteEnabled = false
    /// The stencil test for front faces; nil (with `backFaceStencil` nil) for none.
    public var frontFaceStencil: StencilDescriptor?
    /// The stencil test for back faces; nil to use `frontFaceStencil`.
    public var backFaceStencil: StencilDescriptor?
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
