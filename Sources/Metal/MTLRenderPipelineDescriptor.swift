import GPU

/// Metal's `MTLRenderPipelineDescriptor`: SwiftGPU's `RenderPipelineDescriptor` with
/// its functions held as Metal's `MTLFunction`.
public final class MTLRenderPipelineDescriptor {
    /// The SwiftGPU descriptor the settings other than the functions live in.
    let descriptor = RenderPipelineDescriptor()

    /// A descriptor with Metal's defaults.
    public init() {}

    /// The function run per vertex.
    public var vertexFunction: (any MTLFunction)?
    /// The function run per fragment.
    public var fragmentFunction: (any MTLFunction)?
    /// The layout of vertex attributes in buffers.
    public var vertexDescriptor: MTLVertexDescriptor? {
        get { descriptor.vertexDescriptor }
        set { descriptor.vertexDescriptor = newValue }
    }
    /// The colour attachments' formats and blending.
    public var colorAttachments: RenderPipelineColorAttachmentDescriptorArray { descriptor.colorAttachments }
    /// The depth attachment's format, if any.
    public var depthAttachmentPixelFormat: MTLPixelFormat? {
        get { descriptor.depthAttachmentPixelFormat }
        set { descriptor.depthAttachmentPixelFormat = newValue }
    }
    /// The stencil attachment's format, if any: in SwiftGPU, the depth attachment's
    /// depth-stencil format (`.depth32Float_stencil8`).
    public var stencilAttachmentPixelFormat: MTLPixelFormat? {
        get { descriptor.stencilAttachmentPixelFormat }
        set { descriptor.stencilAttachmentPixelFormat = newValue }
    }
    /// Samples per pixel of the attachments the pipeline renders into (1 or 4).
    public var rasterSampleCount: Int {
        get { descriptor.rasterSampleCount }
        set { descriptor.rasterSampleCount = newValue }
    }
    /// Samples per pixel: Metal's older name for `rasterSampleCount`.
    public var sampleCount: Int {
        get { descriptor.rasterSampleCount }
        set { descriptor.rasterSampleCount = newValue }
    }
    /// The pipeline's label, for debugging tools.
    public var label: String? {
        get { descriptor.label }
        set { descriptor.label = newValue }
    }

    /// SwiftGPU's descriptor with the functions set; stops for a function SwiftGPU did not make.
    func resolved(in call: String) -> RenderPipelineDescriptor {
        descriptor.vertexFunction = vertexFunction.map { own($0, as: Function.self, in: call) }
        descriptor.fragmentFunction = fragmentFunction.map { own($0, as: Function.self, in: call) }
        return descriptor
    }
}

/// Metal's `MTLRenderPipelineState`; SwiftGPU's `RenderPipelineState` conforms.
public protocol MTLRenderPipelineState: AnyObject, Sendable {}

/// SwiftGPU's `RenderPipelineState` as Metal's `MTLRenderPipelineState`.
extension RenderPipelineState: MTLRenderPipelineState {}
