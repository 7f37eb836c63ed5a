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
///
/// A class, as in Metal; `makeDepthStencilState(descriptor:)` copies it.
public final class StencilDescriptor {
    /// The values as they are now; the properties below read and write them.
    var values: StencilValues

    /// Compares the reference value with the stored value (both masked by `readMask`).
    public var stencilCompareFunction: CompareFunction {
        get { values.stencilCompareFunction }
        set { values.stencilCompareFunction = newValue }
    }
    /// When the stencil test fails.
    public var stencilFailureOperation: StencilOperation {
        get { values.stencilFailureOperation }
        set { values.stencilFailureOperation = newValue }
    }
    /// When the stencil test passes and the depth test fails.
    public var depthFailureOperation: StencilOperation {
        get { values.depthFailureOperation }
        set { values.depthFailureOperation = newValue }
    }
    /// When both pass.
    public var depthStencilPassOperation: StencilOperation {
        get { values.depthStencilPassOperation }
        set { values.depthStencilPassOperation = newValue }
    }
    /// Bits compared.
    public var readMask: UInt32 {
        get { values.readMask }
        set { values.readMask = newValue }
    }
    /// Bits written.
    public var writeMask: UInt32 {
        get { values.writeMask }
        set { values.writeMask = newValue }
    }

    /// Makes a descriptor with Metal's defaults.
    public init() { values = StencilValues() }

    /// A descriptor holding `values`.
    init(_ values: StencilValues) { self.values = values }
}

/// The values of a `StencilDescriptor`, copied when the state is made.
struct StencilValues: Sendable, Hashable {
    /// Compares the reference value with the stored value (both masked by `readMask`).
    var stencilCompareFunction = CompareFunction.always
    /// When the stencil test fails.
    var stencilFailureOperation = StencilOperation.keep
    /// When the stencil test passes and the depth test fails.
    var depthFailureOperation = StencilOperation.keep
    /// When both pass.
    var depthStencilPassOperation = StencilOperation.keep
    /// Bits compared.
    var readMask: UInt32 = 0xFF
    /// Bits written.
    var writeMask: UInt32 = 0xFF
}

/// Depth and stencil testing, Metal's `MTLDepthStencilDescriptor` (defaults: compare
/// always, no depth write, no stencil test). A class, as in Metal;
/// `makeDepthStencilState(descriptor:)` copies it.
public final class DepthStencilDescriptor {
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

    /// A descriptor holding `values`.
    init(_ values: DepthStencilValues) {
        depthCompareFunction = values.depthCompareFunction
        isDepthWriteEnabled = values.isDepthWriteEnabled
        frontFaceStencil = values.frontFaceStencil.map(StencilDescriptor.init)
        backFaceStencil = values.backFaceStencil.map(StencilDescriptor.init)
    }

    /// The values as they are now.
    var values: DepthStencilValues {
        DepthStencilValues(depthCompareFunction: depthCompareFunction, isDepthWriteEnabled: isDepthWriteEnabled,
                           frontFaceStencil: frontFaceStencil?.values, backFaceStencil: backFaceStencil?.values)
    }
}

/// The values of a `DepthStencilDescriptor`, copied when the state is made.
struct DepthStencilValues: Sendable, Hashable {
    /// The depth comparison.
    var depthCompareFunction = CompareFunction.always
    /// Whether passing fragments write depth.
    var isDepthWriteEnabled = false
    /// The stencil test for front faces; nil (with `backFaceStencil` nil) for none.
    var frontFaceStencil: StencilValues?
    /// The stencil test for back faces; nil to use `frontFaceStencil`.
    var backFaceStencil: StencilValues?
}

/// An immutable depth-stencil state, Metal's `MTLDepthStencilState`.
public final class DepthStencilState: Sendable {
    /// What it was made from, copied from the descriptor.
    let values: DepthStencilValues
    /// A descriptor of the state: a new one on each call, as changing it changes nothing.
    public var descriptor: DepthStencilDescriptor { DepthStencilDescriptor(values) }
    init(values: DepthStencilValues) { self.values = values }
}

extension Device {
    /// Makes a depth-stencil state.
    public func makeDepthStencilState(descriptor: DepthStencilDescriptor) -> DepthStencilState {
        DepthStencilState(values: descriptor.values)
    }
}
