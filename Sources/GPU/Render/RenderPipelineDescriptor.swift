/// One colour attachment's format and blending, Metal's
/// `MTLRenderPipelineColorAttachmentDescriptor` (same defaults).
public final class RenderPipelineColorAttachmentDescriptor {
    /// The attachment's format; nil for no attachment.
    public var pixelFormat: PixelFormat?
    /// Whether blending is on.
    public var isBlendingEnabled = false
    /// Factor on the source colour.
    public var sourceRGBBlendFactor = BlendFactor.one
    /// Factor on the destination colour.
    public var destinationRGBBlendFactor = BlendFactor.zero
    /// How colours combine.
    public var rgbBlendOperation = BlendOperation.add
    /// Factor on the source alpha.
    public var sourceAlphaBlendFactor = BlendFactor.one
    /// Factor on the destination alpha.
    public var destinationAlphaBlendFactor = BlendFactor.zero
    /// How alphas combine.
    public var alphaBlendOperation = BlendOperation.add
    /// Channels written.
    public var writeMask = ColorWriteMask.all
    init() {}
}

/// Everything a render pipeline is made from, Metal's `MTLRenderPipelineDescriptor`.
public final class RenderPipelineDescriptor {
    /// The vertex function.
    public var vertexFunction: Function?
    /// The fragment function (nil: depth-only).
    public var fragmentFunction: Function?
    /// Vertex attribute layouts; nil when the vertex shader has no inputs.
    public var vertexDescriptor: VertexDescriptor?
    /// Up to four colour attachments.
    public let colorAttachments = (0..<4).map { _ in RenderPipelineColorAttachmentDescriptor() }
    /// The depth attachment's format, if any.
    public var depthAttachmentPixelFormat: PixelFormat?
    /// The stencil attachment's format, if any (the depth format when it holds stencil).
    public var stencilAttachmentPixelFormat: PixelFormat?
    /// Samples per pixel (1 or 4).
    public var rasterSampleCount = 1
    /// The class of primitives drawn.
    public var inputPrimitiveTopology = PrimitiveTopologyClass.triangle
    /// A label.
    public var label: String?
    /// Makes a descriptor with Metal's defaults.
    public init() {}
}
