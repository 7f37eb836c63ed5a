import GPU
import Metal

/// The view's own attachments: a depth-stencil texture and a multisample colour texture of
/// the drawables' size, as MetalKit's view keeps them.
extension MTKView {
    /// The pixel format of the view's depth-stencil texture (`.depth32Float` or
    /// `.depth32Float_stencil8`), or `nil` (MetalKit's `.invalid`, the default) for none.
    /// Stops for a format with neither depth nor stencil.
    public var depthStencilPixelFormat: MTLPixelFormat? {
        get { attachmentTextures.depthStencilFormat }
        set {
            if let format = newValue, !format.isDepth {
                fatalError("SwiftGPU API misuse: MTKView.depthStencilPixelFormat: \(format) is no depth or stencil format; "
                    + "use .depth32Float or .depth32Float_stencil8")
            }
            attachmentTextures.depthStencilFormat = newValue
        }
    }

    /// Samples per pixel: above 1, frames render into `multisampleColorTexture` (and a
    /// multisample depth-stencil texture) and resolve into the drawable. 1 (the default)
    /// or 4, the counts SwiftGPU's textures offer; stops for another.
    public var sampleCount: Int {
        get { attachmentTextures.sampleCount }
        set {
            guard newValue == 1 || newValue == 4 else {
                fatalError("SwiftGPU API misuse: MTKView.sampleCount: \(newValue) is not 1 or 4")
            }
            attachmentTextures.sampleCount = newValue
        }
    }

    /// The depth `currentRenderPassDescriptor` clears to; 1 by default.
    public var clearDepth: Double {
        get { attachmentTextures.clearDepth }
        set { attachmentTextures.clearDepth = newValue }
    }

    /// The stencil value `currentRenderPassDescriptor` clears to; 0 by default.
    public var clearStencil: UInt32 {
        get { attachmentTextures.clearStencil }
        set { attachmentTextures.clearStencil = newValue }
    }

    /// The view's depth-stencil texture, of the drawables' size and `sampleCount`, made on
    /// first use after a change; `nil` without a `depthStencilPixelFormat` or a device.
    public var depthStencilTexture: (any MTLTexture)? { currentAttachments?.depthStencil }

    /// The texture a multisampled frame renders into, of `colorPixelFormat` and
    /// `sampleCount`, made on first use after a change; `nil` at a `sampleCount` of 1 or
    /// without a device.
    public var multisampleColorTexture: (any MTLTexture)? { currentAttachments?.multisampleColor }

    /// The attachments for the drawables' size as it is set now.
    private var currentAttachments: (depthStencil: Texture?, multisampleColor: Texture?)? {
        guard Int(drawableSize.width) > 0, Int(drawableSize.height) > 0 else { return nil }
        return attachments(width: Int(drawableSize.width), height: Int(drawableSize.height))
    }

    /// The view's textures for drawables of `width` × `height` pixels, made again when the
    /// size, a format or the sample count changed since they were made.
    func attachments(width: Int, height: Int) -> (depthStencil: Texture?, multisampleColor: Texture?) {
        guard let device = device as? Device else { return (nil, nil) }
        let key = AttachmentTextures.Key(width: width, height: height, depthStencilFormat: depthStencilPixelFormat,
                                         colorFormat: colorPixelFormat, sampleCount: sampleCount)
        if attachmentTextures.key != key {
            attachmentTextures.key = key
            attachmentTextures.depthStencil = depthStencilPixelFormat.map { format in
                makeTexture(device, format: format, width: width, height: height, what: "depth-stencil")
            }
            attachmentTextures.multisampleColor = sampleCount > 1
                ? makeTexture(device, format: colorPixelFormat, width: width, height: height, what: "multisample colour")
                : nil
        }
        return (attachmentTextures.depthStencil, attachmentTextures.multisampleColor)
    }

    /// A private render-target texture of `format` at the view's sample count.
    private func makeTexture(_ device: Device, format: PixelFormat, width: Int, height: Int, what: String) -> Texture {
        let descriptor = TextureDescriptor(pixelFormat: format, width: width, height: height, sampleCount: sampleCount,
                                           usage: .renderTarget, storageMode: .private)
        do {
            return try device.makeTexture(descriptor: descriptor)
        } catch {
            fatalError("MTKView: the \(what) texture (\(format), \(width)×\(height), \(sampleCount) samples) could not be made: \(error)")
        }
    }
}

/// The settings of an `MTKView`'s own attachments and the textures made for them.
struct AttachmentTextures {
    /// What the textures were made for.
    struct Key: Equatable {
        var width: Int
        var height: Int
        var depthStencilFormat: PixelFormat?
        var colorFormat: PixelFormat
        var sampleCount: Int
    }

    var depthStencilFormat: PixelFormat?
    var sampleCount = 1
    var clearDepth = 1.0
    var clearStencil: UInt32 = 0
    var key: Key?
    var depthStencil: Texture?
    var multisampleColor: Texture?
}
