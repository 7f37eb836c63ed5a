import GPU

/// Records B1 and B4's work into `cb`: one one-thread dispatch adding `params` (1) to
/// `counter`.
func encodeIncrement(_ cb: CommandBuffer, _ pipeline: ComputePipelineState, counter: Buffer, params: Buffer) throws {
    let encoder = try cb.makeComputeCommandEncoder()
    encoder.setComputePipelineState(pipeline)
    encoder.setBuffer(counter, offset: 0, index: 0)
    encoder.setBuffer(params, offset: 0, index: 3)
    encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
    encoder.endEncoding()
}

/// A square rgba8 render target, a shared buffer its pixels are copied into, and a pass
/// that clears and stores it: what B2 and B3 draw into. The copy needs no fence when they
/// are untracked: it follows the pass, which leaves the texture in its resting layout.
struct ReadbackTarget {
    let size: Int
    let texture: Texture
    let readback: Buffer
    let pass = RenderPassDescriptor()

    /// A target whose texture and buffer are tracked, or `untracked` (B2's untracked variant).
    init(device: Device, size: Int, untracked: Bool = false) throws {
        self.size = size
        let descriptor = TextureDescriptor.texture2D(pixelFormat: .rgba8Unorm, width: size, height: size,
                                                     mipmapped: false, usage: [.renderTarget, .shaderRead])
        descriptor.hazardTrackingMode = untracked ? .untracked : .default
        texture = try device.makeTexture(descriptor: descriptor)
        readback = try device.makeBuffer(length: size * size * 4, options: untracked ? .hazardTrackingModeUntracked : [])
        pass.colorAttachments[0].texture = texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
    }

    /// Copies the target into `readback` at the end of `cb`.
    func encodeReadback(_ cb: CommandBuffer) throws {
        let blit = try cb.makeBlitCommandEncoder()
        blit.copy(from: texture, to: readback, destinationOffset: 0, destinationBytesPerRow: size * 4)
        blit.endEncoding()
    }
}
