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

    init() { super.init(loadAction: .dontCare, storeAction: .store) }

    /// Copies the settings to SwiftGPU's `attachment`.
    func apply(to attachment: RenderPassColorAttachmentDescriptor) {
        attachment.texture = ownTexture
        attachment.loadAction = loadAction
        attachment.storeAction = storeAction
        attachment.clearColor = clearColor
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

    /// SwiftGPU's descriptor of the pass as it is set now.
    var pass: RenderPassDescriptor {
        let pass = RenderPassDescriptor()
        for (index, attachment) in colorAttachments.made { attachment.apply(to: pass.colorAttachments[index]) }
        depthAttachment.apply(to: pass.depthAttachment)
        return pass
    }
}
