/// A render pass descriptor's attachments, checked: what a render encoder, or a parallel
/// one and its sub-encoders, draws into, and how the pass begins.
struct RenderPassTarget {
    /// The colour attachments' formats, up to the last one set.
    let colorFormats: [PixelFormat?]
    let depthFormat: PixelFormat?
    let sampleCount: Int
    /// The attachments' size: scissor rectangles must lie in it.
    let size: Size
    /// The buffer visibility results go to, if any.
    let visibilityResultBuffer: Buffer?
    /// The counter samples the pass takes at its start and end.
    let counterSamples: PassCounterSamples
    private let pass: RenderPassDescriptor

    /// Checks `pass` for `call`; stops when its attachments do not fit together.
    init(_ pass: RenderPassDescriptor, parallel: Bool, call: String) {
        let colors = pass.colorAttachments.all.map(\.texture)
        let lastColor = colors.lastIndex { $0 != nil } ?? -1
        let depthTexture = pass.depthAttachment.texture
        let all = colors.compactMap { $0 } + (depthTexture.map { [$0] } ?? [])
        guard let first = all.first else { misuse("\(call): the pass has no attachments") }
        for (index, attachment) in pass.colorAttachments.all.enumerated() {
            guard let texture = attachment.texture else { continue }
            guard (0..<texture.mipmapLevelCount).contains(attachment.level) else {
                misuse("\(call): colorAttachments[\(index)].level \(attachment.level) is outside the "
                    + "\(texture.misuseDescription)'s 0..<\(texture.mipmapLevelCount)")
            }
            guard (0..<texture.spec.layerCount).contains(attachment.slice) else {
                misuse("\(call): colorAttachments[\(index)].slice \(attachment.slice) is outside the "
                    + "\(texture.misuseDescription)'s 0..<\(texture.spec.layerCount)")
            }
        }
        let size = first.size(ofLevel: pass.colorAttachments.all.first { $0.texture === first }?.level ?? 0)
        for attachment in pass.colorAttachments.all {
            guard let texture = attachment.texture else { continue }
            guard texture.usage.contains(.renderTarget) else {
                misuse("\(call): a colour attachment's \(texture.misuseDescription) lacks .renderTarget usage")
            }
            guard texture.size(ofLevel: attachment.level) == size, texture.sampleCount == first.sampleCount else {
                misuse("\(call): attachments differ in size or sample count")
            }
            if attachment.storeAction.resolves {
                guard let resolve = attachment.resolveTexture, resolve.sampleCount == 1, texture.sampleCount > 1 else {
                    misuse("\(call): a multisample resolve needs a multisampled texture and a single-sample resolveTexture")
                }
                guard resolve.size(ofLevel: 0) == size, resolve.pixelFormat == texture.pixelFormat else {
                    misuse("\(call): the resolveTexture (\(resolve.pixelFormat) \(resolve.size(ofLevel: 0))) differs from its "
                        + "attachment (\(texture.pixelFormat) \(size))")
                }
            }
        }
        if let depthTexture {
            guard depthTexture.pixelFormat.isDepth, depthTexture.usage.contains(.renderTarget) else {
                misuse("\(call): the depth attachment needs a depth format with .renderTarget usage")
            }
        }
        colorFormats = colors.prefix(lastColor + 1).map { $0?.pixelFormat }
        depthFormat = depthTexture?.pixelFormat
        sampleCount = first.sampleCount
        self.size = size
        visibilityResultBuffer = pass.visibilityResultBuffer
        counterSamples = PassCounterSamples(render: pass.sampleBufferAttachments.all, parallel: parallel, call: call)
        self.pass = pass
    }

    /// Checks `pass`, opens an encoder of `kind` on `commandBuffer` and begins the pass in
    /// the buffer's context; its commands come from secondary command buffers when
    /// `secondaryContents`.
    static func open(_ pass: RenderPassDescriptor, on commandBuffer: CommandBuffer, kind: EncoderKind, call: StaticString,
                     secondaryContents: Bool) throws(GPUError) -> (target: RenderPassTarget, context: CommandRecorder) {
        let target = RenderPassTarget(pass, parallel: secondaryContents, call: "\(call)")
        let begun = try commandBuffer.beginEncoder(kind, call: "\(call)")
        do {
            try target.begin(in: begun.context, of: commandBuffer, startsBuffer: begun.startsBuffer,
                             secondaryContents: secondaryContents, call: call)
        } catch {
            commandBuffer.endEncoder()
            throw .vulkan(error)
        }
        return (target, begun.context)
    }

    /// The formats a secondary command buffer continues this pass with.
    var formats: CommandRecorder.PassFormats {
        CommandRecorder.PassFormats(colors: colorFormats, depth: depthFormat, sampleCount: sampleCount)
    }

    /// Begins the pass in `context`, the context of `commandBuffer`'s encoder just opened
    /// (`startsBuffer`: the buffer's first); its commands come from secondary command
    /// buffers when `secondaryContents`. The attachments are kept alive and noted as
    /// written by the command buffer.
    private func begin(in context: CommandRecorder, of commandBuffer: CommandBuffer, startsBuffer: Bool,
                       secondaryContents: Bool, call: StaticString) throws(VulkanError) {
        // Earlier writes in this buffer (compute, blits) must be visible before the pass:
        // barriers inside dynamic rendering are restricted. A pass that starts the buffer
        // has none to wait for (earlier buffers end with a barrier).
        if !startsBuffer { context.memoryBarrier() }
        context.encoding.hazards.reset()
        if visibilityResultBuffer != nil, !secondaryContents { try context.prepareOcclusionQueries() }
        func request(_ texture: Texture, level: Int, slice: Int, load: LoadAction, store: StoreAction,
                     clear: AttachmentRequest.Clear, resolve: Texture?) -> AttachmentRequest {
            let image = texture.retainBacking(in: context, call: call)
            commandBuffer.noteWrite(to: texture)
            let resolveImage = resolve.map { resolve in
                commandBuffer.noteWrite(to: resolve)
                return resolve.retainBacking(in: context, call: call)
            }
            return AttachmentRequest(image: image, level: level, slice: slice, load: load, store: store, clear: clear,
                                     resolve: resolveImage)
        }
        let colorRequests = pass.colorAttachments.all.prefix(colorFormats.count).map { a -> AttachmentRequest? in
            guard let texture = a.texture else { return nil }
            return request(texture, level: a.level, slice: a.slice, load: a.loadAction, store: a.storeAction,
                           clear: .color(a.clearColor), resolve: a.storeAction.resolves ? a.resolveTexture : nil)
        }
        let depthRequest = pass.depthAttachment.texture.map { texture in
            request(texture, level: 0, slice: 0, load: pass.depthAttachment.loadAction, store: pass.depthAttachment.storeAction,
                    clear: .depth(pass.depthAttachment.clearDepth, stencil: pass.depthAttachment.clearStencil), resolve: nil)
        }
        // The pass's indirect draws are checked in a prologue placed before it (see
        // `CommandRecorder+IndirectValidation.swift`); the pass's own commands, its start
        // samples (a statistics query it ends) among them, go after.
        if commandBuffer.options.validatesIndirectArguments { try context.separateRenderPass(startsBuffer: startsBuffer) }
        counterSamples.recordStart(in: context)
        try context.beginRendering(colors: colorRequests, depth: depthRequest, width: size.width, height: size.height,
                                   secondaryContents: secondaryContents)
    }
}
