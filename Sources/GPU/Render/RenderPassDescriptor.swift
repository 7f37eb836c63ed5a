/// What happens to an attachment when a pass starts, Metal's `MTLLoadAction`.
public enum LoadAction: Sendable, Hashable {
    /// Contents are undefined.
    case dontCare
    /// Keep the contents.
    case load
    /// Clear to the clear value.
    case clear
}

/// What happens to an attachment when a pass ends, Metal's `MTLStoreAction`.
public enum StoreAction: Sendable, Hashable {
    /// Contents may be discarded.
    case dontCare
    /// Keep the contents.
    case store
    /// Resolve the samples into `resolveTexture`; discard the samples.
    case multisampleResolve
    /// Resolve and keep the samples.
    case storeAndMultisampleResolve
}

/// A colour attachment of a pass (Metal's defaults: load `.dontCare`, store `.store`,
/// clear colour (0, 0, 0, 1)).
public final class RenderPassColorAttachmentDescriptor {
    /// The texture rendered into.
    public var texture: Texture?
    /// Its mipmap level.
    public var level = 0
    /// Its slice.
    public var slice = 0
    /// On load.
    public var loadAction = LoadAction.dontCare
    /// On store.
    public var storeAction = StoreAction.store
    /// The clear colour.
    public var clearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 1)
    /// Where multisampled contents resolve to.
    public var resolveTexture: Texture?
    /// A descriptor with Metal's defaults.
    public init() {}

    /// A copy, as a descriptor array stores one.
    func copied() -> RenderPassColorAttachmentDescriptor {
        let copy = RenderPassColorAttachmentDescriptor()
        copy.texture = texture
        copy.level = level
        copy.slice = slice
        copy.loadAction = loadAction
        copy.storeAction = storeAction
        copy.clearColor = clearColor
        copy.resolveTexture = resolveTexture
        return copy
    }
}

/// The depth attachment of a pass (Metal's defaults: load `.clear`, store `.dontCare`,
/// clear depth 1). A texture whose format has stencil is the pass's stencil attachment too,
/// with the same actions.
public final class RenderPassDepthAttachmentDescriptor {
    /// The depth texture.
    public var texture: Texture?
    /// On load.
    public var loadAction = LoadAction.clear
    /// On store.
    public var storeAction = StoreAction.dontCare
    /// The clear depth.
    public var clearDepth = 1.0
    /// The stencil value a `.clear` load action clears to, for a texture whose format has
    /// stencil (Metal's `stencilAttachment.clearStencil`); 0 by default.
    public var clearStencil: UInt32 = 0
    init() {}
}

/// The attachments of a render pass, Metal's `MTLRenderPassDescriptor`.
public final class RenderPassDescriptor {
    /// Up to four colour attachments.
    public let colorAttachments = RenderPassColorAttachmentDescriptorArray(
        make: RenderPassColorAttachmentDescriptor.init, copy: { $0.copied() })
    /// The depth attachment.
    public let depthAttachment = RenderPassDepthAttachmentDescriptor()
    /// Where the pass's visibility results go, Metal's `visibilityResultBuffer`: each
    /// offset ``RenderCommandEncoder/setVisibilityResultMode(_:offset:)`` names gets a
    /// `UInt64` when the pass's command buffer completes.
    public var visibilityResultBuffer: Buffer?
    /// Where the pass samples counters at its start and end, Metal's
    /// `sampleBufferAttachments` (see ``RenderPassSampleBufferAttachmentDescriptor``).
    public let sampleBufferAttachments = RenderPassSampleBufferAttachmentDescriptorArray(
        make: RenderPassSampleBufferAttachmentDescriptor.init, copy: { $0.copied() })
    /// Makes a descriptor with Metal's defaults.
    public init() {}
}
