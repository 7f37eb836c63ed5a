/// One colour attachment's format and blending as a pipeline is made with them: a copy of a
/// `RenderPipelineColorAttachmentDescriptor`'s values, which the backend reads.
struct ColorAttachmentState {
    var pixelFormat: PixelFormat?
    var isBlendingEnabled: Bool
    var sourceRGBBlendFactor: BlendFactor
    var destinationRGBBlendFactor: BlendFactor
    var rgbBlendOperation: BlendOperation
    var sourceAlphaBlendFactor: BlendFactor
    var destinationAlphaBlendFactor: BlendFactor
    var alphaBlendOperation: BlendOperation
    var writeMask: ColorWriteMask

    /// The values `descriptor` holds now.
    init(_ descriptor: RenderPipelineColorAttachmentDescriptor) {
        pixelFormat = descriptor.pixelFormat
        isBlendingEnabled = descriptor.isBlendingEnabled
        sourceRGBBlendFactor = descriptor.sourceRGBBlendFactor
        destinationRGBBlendFactor = descriptor.destinationRGBBlendFactor
        rgbBlendOperation = descriptor.rgbBlendOperation
        sourceAlphaBlendFactor = descriptor.sourceAlphaBlendFactor
        destinationAlphaBlendFactor = descriptor.destinationAlphaBlendFactor
        alphaBlendOperation = descriptor.alphaBlendOperation
        writeMask = descriptor.writeMask
    }
}

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
    /// A descriptor with Metal's defaults.
    public init() {}

    /// A copy, as a descriptor array stores one.
    func copied() -> RenderPipelineColorAttachmentDescriptor {
        let state = ColorAttachmentState(self)
        let copy = RenderPipelineColorAttachmentDescriptor()
        copy.pixelFormat = state.pixelFormat
        copy.isBlendingEnabled = state.isBlendingEnabled
        copy.sourceRGBBlendFactor = state.sourceRGBBlendFactor
        copy.destinationRGBBlendFactor = state.destinationRGBBlendFactor
        copy.rgbBlendOperation = state.rgbBlendOperation
        copy.sourceAlphaBlendFactor = state.sourceAlphaBlendFactor
        copy.destinationAlphaBlendFactor = state.destinationAlphaBlendFactor
        copy.alphaBlendOperation = state.alphaBlendOperation
        copy.writeMask = state.writeMask
        return copy
    }
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
    public let colorAttachments = RenderPipelineColorAttachmentDescriptorArray(
        make: RenderPipelineColorAttachmentDescriptor.init, copy: { $0.copied() })
    /// The depth attachment's format, if any.
    public var depthAttachmentPixelFormat: PixelFormat?
    /// The stencil attachment's format, if any (the depth format when it holds stencil).
    public var stencilAttachmentPixelFormat: PixelFormat?
    /// Samples per pixel (1 or 4).
    public var rasterSampleCount = 1
    /// Samples per pixel: Metal's older name for `rasterSampleCount`.
    public var sampleCount: Int {
        get { rasterSampleCount }
        set { rasterSampleCount = newValue }
    }
    /// Options for the buffers the vertex function reads, by buffer index.
    public let vertexBuffers = PipelineBufferDescriptorArray()
    /// Options for the buffers the fragment function reads, by buffer index.
    public let fragmentBuffers = PipelineBufferDescriptorArray()
    /// The class of primitives drawn.
    public var inputPrimitiveTopology = PrimitiveTopologyClass.triangle
    /// A label.
    public var label: String?
    /// Which way y points in the vertex function's clip space: Metal's (up, the default),
    /// so a vertex function translated from MSL draws the same picture, or Vulkan's (down),
    /// for shaders written for Vulkan.
    public var clipSpace = ClipSpaceConvention.metal
    /// Makes a descriptor with Metal's defaults.
    public init() {}
}

/// Which way y points in clip space and normalized device coordinates.
///
/// Only y differs: in both, x points right, depth runs 0…1, the framebuffer's and a
/// texture's origin is their top-left corner, and the winding set with
/// `setFrontFacing(_:)` is the winding seen in the rendered image.
public enum ClipSpaceConvention: Sendable, Hashable {
    /// Metal's: y up, (-1, 1) is the top-left corner of the viewport. SwiftGPU flips the
    /// viewport (a negative height, core since Vulkan 1.1) to get it.
    case metal
    /// Vulkan's: y down, (-1, -1) is the top-left corner of the viewport.
    case vulkan
}

/// Whether a buffer bound to a pipeline changes while the GPU uses it: Metal's
/// `MTLMutability`.
public enum Mutability: Sendable, Hashable {
    /// The API's default (mutable).
    case `default`
    /// The buffer may change between draws.
    case mutable
    /// The buffer does not change while the GPU uses it.
    case immutable
}

/// Options for the buffer at one index of a pipeline: Metal's `MTLPipelineBufferDescriptor`.
/// SwiftGPU accepts the hint; Vulkan has no use for it, and every buffer works either way.
public final class PipelineBufferDescriptor {
    /// Whether the buffer changes while the GPU uses it.
    public var mutability = Mutability.default
    init() {}
}

/// The per-index buffer options of a pipeline stage: Metal's
/// `MTLPipelineBufferDescriptorArray`, by buffer index (0–31).
public final class PipelineBufferDescriptorArray {
    private let descriptors = (0...BindingConvention.maxBufferIndex).map { _ in PipelineBufferDescriptor() }
    init() {}

    /// The options for buffer `index`; stops outside 0–31.
    public subscript(index: Int) -> PipelineBufferDescriptor {
        guard descriptors.indices.contains(index) else {
            misuse("vertexBuffers/fragmentBuffers[\(index)]: buffer index is outside 0...\(BindingConvention.maxBufferIndex)")
        }
        return descriptors[index]
    }
}
