import GPU

/// Metal's `MTLRenderPassColorAttachmentDescriptor`: one colour attachment of a pass, its
/// texture held as Metal's `MTLTexture`.
public final class MTLRenderPassColorAttachmentDescriptor {
    /// SwiftGPU's attachment this one sets.
    let attachment: RenderPassColorAttachmentDescriptor

    init(_ attachment: RenderPassColorAttachmentDescriptor) { self.attachment = attachment }

    /// The texture rendered into; stops for a texture SwiftGPU did not make.
    public var texture: (any MTLTexture)? {
        get { attachment.texture }
        set { attachment.texture = newValue.map { own($0, as: Texture.self, in: "MTLRenderPassColorAttachmentDescriptor.texture") } }
    }
    /// What the pass does with the texture's contents as it begins.
    public var loadAction: MTLLoadAction {
        get { attachment.loadAction }
        set { attachment.loadAction = newValue }
    }
    /// What the pass does with the rendered contents as it ends.
    public var storeAction: MTLStoreAction {
        get { attachment.storeAction }
        set { attachment.storeAction = newValue }
    }
    /// The colour a `.clear` load action clears to.
    public var clearColor: MTLClearColor {
        get { attachment.clearColor }
        set { attachment.clearColor = newValue }
    }
}

/// Metal's `MTLRenderPassDepthAttachmentDescriptor`: a pass's depth attachment, its
/// texture held as Metal's `MTLTexture`.
public final class MTLRenderPassDepthAttachmentDescriptor {
    /// SwiftGPU's attachment this one sets.
    let attachment: RenderPassDepthAttachmentDescriptor

    init(_ attachment: RenderPassDepthAttachmentDescriptor) { self.attachment = attachment }

    /// The depth texture; stops for a texture SwiftGPU did not make.
    public var texture: (any MTLTexture)? {
        get { attachment.texture }
        set { attachment.texture = newValue.map { own($0, as: Texture.self, in: "MTLRenderPassDepthAttachmentDescriptor.texture") } }
    }
    /// What the pass does with the depth as it begins.
    public var loadAction: MTLLoadAction {
        get { attachment.loadAction }
        set { attachment.loadAction = newValue }
    }
    /// What the pass does with the depth as it ends.
    public var storeAction: MTLStoreAction {
        get { attachment.storeAction }
        set { attachment.storeAction = newValue }
    }
    /// The depth a `.clear` load action clears to.
    public var clearDepth: Double {
        get { attachment.clearDepth }
        set { attachment.clearDepth = newValue }
    }
}

/// Metal's colour attachments of a render pass, indexed from 0.
public final class MTLRenderPassColorAttachmentDescriptorArray {
    /// The attachments made so far, by index.
    private var made: [Int: MTLRenderPassColorAttachmentDescriptor] = [:]
    /// SwiftGPU's pass the attachments belong to.
    private let pass: RenderPassDescriptor

    init(_ pass: RenderPassDescriptor) { self.pass = pass }

    /// The attachment at `index`, made on first use, as in Metal.
    public subscript(index: Int) -> MTLRenderPassColorAttachmentDescriptor! {
        if let attachment = made[index] { return attachment }
        let attachment = MTLRenderPassColorAttachmentDescriptor(pass.colorAttachments[index])
        made[index] = attachment
        return attachment
    }
}

/// Metal's `MTLRenderPassDescriptor`: SwiftGPU's `RenderPassDescriptor` with its
/// attachments' textures held as Metal's `MTLTexture`.
public final class MTLRenderPassDescriptor {
    /// SwiftGPU's pass these settings go to.
    let pass = RenderPassDescriptor()

    /// A pass with no attachments.
    public init() {}

    /// The colour attachments.
    public private(set) lazy var colorAttachments = MTLRenderPassColorAttachmentDescriptorArray(pass)
    /// The depth attachment.
    public private(set) lazy var depthAttachment: MTLRenderPassDepthAttachmentDescriptor! =
        MTLRenderPassDepthAttachmentDescriptor(pass.depthAttachment)
}
