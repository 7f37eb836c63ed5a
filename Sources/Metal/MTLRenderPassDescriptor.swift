import GPU

/// Metal's `MTLRenderPassAttachmentDescriptor`: what colour and depth attachments share,
/// the texture held as Metal's `MTLTexture`. The settings go to SwiftGPU's pass when an
/// encoder is made from the descriptor.
public class MTLRenderPassAttachmentDescriptor {
    /// The texture as SwiftGPU's, checked as it is set.
    var ownTexture: Texture?

    /// The texture rendered into; stops for a texture SwiftGPU did not make.
    public var texture: (any MTLTexture)? {
        get { ownTexture }
        set { ownTexture = newValue.map { own($0, as: Texture.self, in: "\(Swift.type(of: self)).texture") } }
    }
    /// What the pass does with the texture's contents as it begins.
    public var loadAction: MTLLoadAction
    /// What the pass does with the rendered contents as it ends.
    public var storeAction: MTLStoreAction

    init(loadAction: MTLLoadAction, storeAction: MTLStoreAction) {
        self.loadAction = loadAction
        self.storeAction = storeAction
    }
}

/// Metal's `MTLRenderPassColorAttachmentDescriptor`: one colour attachment of a pass.
public final class MTLRenderPassColorAttachmentDescriptor: MTLRenderPassAttachmentDescriptor {
    /// The colour a `.clear` load action clears to.
    public var clearColor = MTLClearColor(red: 0, green: 0, blue: 0, alpha: 1)
    /// The texture SwiftGPU's held as it was set.
    private var ownResolveTexture: Texture?
    /// Where a multisampled texture's samples resolve to (store action
    /// `.multisampleResolve` or `.storeAndMultisampleResolve`); stops for a texture
    /// SwiftGPU did not make.
    public var resolveTexture: (any MTLTexture)? {
        get { ownResolveTexture }
        set {
            ownResolveTexture = newValue.map { own($0, as: Texture.self, in: "MTLRenderPassColorAttachmentDescriptor.resolveTexture") }
        }
    }

    init() { super.init(loadAction: .dontCare, storeAction: .store) }

    /// Copies the settings to SwiftGPU's `attachment`.
    func apply(to attachment: RenderPassColorAttachmentDescriptor) {
        attachment.texture = ownTexture
        attachment.loadAction = loadAction
        attachment.storeAction = storeAction
        attachment.clearColor = clearColor
        attachment.resolveTexture = ownResolveTexture
    }
}

/// Metal's `MTLRenderPassDepthAttachmentDescriptor`: a pass's depth attachment.
public final class MTLRenderPassDepthAttachmentDescriptor: MTLRenderPassAttachmentDescriptor {
    /// The depth a `.clear` load action clears to.
    public var clearDepth = 1.0

    init() { super.init(loadAction: .clear, storeAction: .dontCare) }

    /// Copies the settings to SwiftGPU's `attachment`.
    func apply(to attachment: RenderPassDepthAttachmentDescriptor) {
        attachment.texture = ownTexture
        attachment.loadAction = loadAction
        attachment.storeAction = storeAction
        attachment.clearDepth = clearDepth
    }
}

/// Metal's `MTLRenderPassStencilAttachmentDescriptor`: a pass's stencil attachment. SwiftGPU's
/// stencil lives in a depth-stencil texture (`.depth32Float_stencil8`) that is the pass's
/// depth attachment too, with the depth attachment's actions: the texture set here must be
/// the depth attachment's, and its actions the same.
public final class MTLRenderPassStencilAttachmentDescriptor: MTLRenderPassAttachmentDescriptor {
    /// The stencil value a `.clear` load action clears to.
    public var clearStencil: UInt32 = 0

    init() { super.init(loadAction: .clear, storeAction: .dontCare) }

    /// Copies the clear value to SwiftGPU's depth-stencil `attachment`, after checking the
    /// texture and actions are the depth attachment's (`depth`).
    func apply(to attachment: RenderPassDepthAttachmentDescriptor, depth: MTLRenderPassDepthAttachmentDescriptor,
               call: String) {
        guard let texture = ownTexture else { return }
        guard texture === depth.ownTexture else {
            misuse("\(call): stencilAttachment.texture is not depthAttachment.texture; SwiftGPU keeps stencil in the "
                + "depth attachment's depth-stencil texture")
        }
        guard texture.pixelFormat.hasStencil else {
            misuse("\(call): stencilAttachment.texture's format \(texture.pixelFormat) has no stencil")
        }
        guard loadAction == depth.loadAction, storeAction == depth.storeAction else {
            misuse("\(call): stencilAttachment's actions (\(loadAction), \(storeAction)) differ from depthAttachment's "
                + "(\(depth.loadAction), \(depth.storeAction)); SwiftGPU applies the depth attachment's to both")
        }
        attachment.clearStencil = clearStencil
    }
}

/// Metal's colour attachments of a render pass, indexed from 0.
public final class MTLRenderPassColorAttachmentDescriptorArray {
    /// The attachments made so far, by index.
    var made: [Int: MTLRenderPassColorAttachmentDescriptor] = [:]

    init() {}

    /// The attachment at `index`, made on first use, as in Metal.
    public subscript(index: Int) -> MTLRenderPassColorAttachmentDescriptor! {
        if let attachment = made[index] { return attachment }
        let attachment = MTLRenderPassColorAttachmentDescriptor()
        made[index] = attachment
        return attachment
    }
}

/// Metal's `MTLRenderPassDescriptor`: the attachments of a render pass, with textures held
/// as Metal's `MTLTexture`; SwiftGPU's `RenderPassDescriptor` is made from it for each encoder.
public final class MTLRenderPassDescriptor {
    /// A pass with no attachments.
    public init() {}

    /// The colour attachments.
    public let colorAttachments = MTLRenderPassColorAttachmentDescriptorArray()
    /// The depth attachment.
    public let depthAttachment: MTLRenderPassDepthAttachmentDescriptor! = MTLRenderPassDepthAttachmentDescriptor()
    /// The stencil attachment: in SwiftGPU, the depth attachment's depth-stencil texture.
    public let stencilAttachment: MTLRenderPassStencilAttachmentDescriptor! = MTLRenderPassStencilAttachmentDescriptor()

    /// SwiftGPU's descriptor of the pass as it is set now; `call` names the call that
    /// makes an encoder of it, for a misuse message.
    func pass(for call: String) -> RenderPassDescriptor {
        let pass = RenderPassDescriptor()
        for (index, attachment) in colorAttachments.made { attachment.apply(to: pass.colorAttachments[index]) }
        depthAttachment.apply(to: pass.depthAttachment)
        stencilAttachment.apply(to: pass.depthAttachment, depth: depthAttachment, call: call)
        return pass
    }
}
