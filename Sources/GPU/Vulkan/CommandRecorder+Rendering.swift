import CVulkan

/// One attachment of a dynamic-rendering pass.
struct RenderingAttachment {
    var image: ImageAllocation
    var view: VkImageView
    var load: VkAttachmentLoadOp
    var store: VkAttachmentStoreOp
    var clear: VkClearValue
    var resolve: (image: ImageAllocation, view: VkImageView)?
}

/// What a render pass asks of one attachment: the image a texture had when the pass began
/// (retained by the pass), and Metal's actions in the front end's terms.
struct AttachmentRequest {
    /// The value a cleared attachment starts with.
    enum Clear {
        case color(ClearColor)
        case depth(Double, stencil: UInt32)
    }

    var image: ImageAllocation
    var level: Int
    var slice: Int
    var load: LoadAction
    var store: StoreAction
    var clear: Clear
    var resolve: ImageAllocation?
}

extension RenderingAttachment {
    /// The Vulkan attachment for `request`, with views of the level and slice it names.
    init(_ request: AttachmentRequest) throws(VulkanError) {
        var clear = VkClearValue()
        switch request.clear {
        case .color(let color):
            clear.color.float32 = (Float(color.red), Float(color.green), Float(color.blue), Float(color.alpha))
        case .depth(let depth, let stencil):
            clear.depthStencil = VkClearDepthStencilValue(depth: Float(depth), stencil: stencil)
        }
        let resolved = try request.resolve.map { (image) throws(VulkanError) in
            (image, try image.attachmentView(level: 0, layer: 0))
        }
        self.init(image: request.image,
                  view: try request.image.attachmentView(level: request.level, layer: request.slice),
                  load: request.load.vkLoadOp, store: request.store.vkStoreOp, clear: clear, resolve: resolved)
    }
}

/// Render-pass recording: dynamic rendering, dynamic state and draws.
extension CommandRecorder {
    /// Begins rendering into the attachments `colors` and `depth` ask for; with
    /// `secondaryContents`, the pass's commands come from secondary command buffers.
    func beginRendering(colors: [AttachmentRequest?], depth: AttachmentRequest?, width: Int, height: Int,
                        secondaryContents: Bool = false) throws(VulkanError) {
        let colorAttachments = try colors.map { (request) throws(VulkanError) in try request.map(RenderingAttachment.init) }
        let depthAttachment = try depth.map(RenderingAttachment.init)
        beginRendering(colors: colorAttachments, depth: depthAttachment, width: width, height: height,
                       secondaryContents: secondaryContents)
    }

    /// Moves the attachments to their attachment layouts and begins rendering.
    func beginRendering(colors: [RenderingAttachment?], depth: RenderingAttachment?, width: Int, height: Int,
                        secondaryContents: Bool = false) {
        for attachment in colors.compactMap({ $0 }) + (depth.map { [$0] } ?? []) {
            transition(attachment.image, to: attachment.image.attachmentLayout)
            if let resolve = attachment.resolve { transition(resolve.image, to: resolve.image.attachmentLayout) }
        }
        func info(_ attachment: RenderingAttachment?) -> VkRenderingAttachmentInfo {
            var info = VkRenderingAttachmentInfo()
            info.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
            guard let attachment else { return info }
            info.imageView = attachment.view
            info.imageLayout = attachment.image.attachmentLayout
            info.loadOp = attachment.load
            info.storeOp = attachment.store
            info.clearValue = attachment.clear
            if let resolve = attachment.resolve {
                info.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT
                info.resolveImageView = resolve.view
                info.resolveImageLayout = resolve.image.attachmentLayout
            }
            return info
        }
        let colorInfos = colors.map(info)
        var depthInfo = info(depth)
        let hasStencil = depth?.image.descriptor.pixelFormat.hasStencil == true
        var stencilInfo = hasStencil ? info(depth) : VkRenderingAttachmentInfo()
        colorInfos.withUnsafeBufferPointer { colorPointer in
            var rendering = VkRenderingInfo()
            rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
            if secondaryContents {
                rendering.flags = VkRenderingFlags(VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT.rawValue)
            }
            rendering.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0),
                                            extent: VkExtent2D(width: UInt32(width), height: UInt32(height)))
            rendering.layerCount = 1
            rendering.colorAttachmentCount = UInt32(colorInfos.count)
            rendering.pColorAttachments = colorPointer.baseAddress
            withUnsafePointer(to: &depthInfo) { depthPointer in
                withUnsafePointer(to: &stencilInfo) { stencilPointer in
                    rendering.pDepthAttachment = depth == nil ? nil : depthPointer
                    rendering.pStencilAttachment = hasStencil ? stencilPointer : nil
                    vkCmdBeginRendering(commandBuffer, &rendering)
                }
            }
        }
    }

    /// Ends rendering.
    func endRendering() { vkCmdEndRendering(commandBuffer) }

    /// Sets the dynamic state a graphics pipeline takes from the encoder. `flipsY` gives the
    /// viewport a negative height, so clip-space y points up as in Metal.
    func setDynamicState(viewport: Viewport, flipsY: Bool, scissor: ScissorRect, cullMode: CullMode, winding: Winding,
                         depthTest: Bool, depthWrite: Bool, depthCompare: CompareFunction,
                         stencil: (front: StencilValues, back: StencilValues)?, reference: UInt32) {
        var vkViewport = VkViewport(x: Float(viewport.originX), y: Float(viewport.originY), width: Float(viewport.width),
                                    height: Float(viewport.height), minDepth: Float(viewport.znear), maxDepth: Float(viewport.zfar))
        if flipsY {
            vkViewport.y += vkViewport.height
            vkViewport.height = -vkViewport.height
        }
        vkCmdSetViewport(commandBuffer, 0, 1, &vkViewport)
        var rect = VkRect2D(offset: VkOffset2D(x: Int32(scissor.x), y: Int32(scissor.y)),
                            extent: VkExtent2D(width: UInt32(scissor.width), height: UInt32(scissor.height)))
        vkCmdSetScissor(commandBuffer, 0, 1, &rect)
        vkCmdSetCullMode(commandBuffer, cullMode.vkCullMode)
        vkCmdSetFrontFace(commandBuffer, winding.vkFrontFace)
        vkCmdSetDepthTestEnable(commandBuffer, VkBool32(depthTest ? VK_TRUE : VK_FALSE))
        vkCmdSetDepthWriteEnable(commandBuffer, VkBool32(depthWrite ? VK_TRUE : VK_FALSE))
        vkCmdSetDepthCompareOp(commandBuffer, depthCompare.vkCompareOp)
        vkCmdSetStencilTestEnable(commandBuffer, VkBool32(stencil == nil ? VK_FALSE : VK_TRUE))
        let front = stencil?.front ?? StencilValues()
        let back = stencil?.back ?? StencilValues()
        for (face, test) in [(VK_STENCIL_FACE_FRONT_BIT, front), (VK_STENCIL_FACE_BACK_BIT, back)] {
            let flags = VkStencilFaceFlags(face.rawValue)
            vkCmdSetStencilOp(commandBuffer, flags, test.stencilFailureOperation.vkStencilOp,
                              test.depthStencilPassOperation.vkStencilOp, test.depthFailureOperation.vkStencilOp,
                              test.stencilCompareFunction.vkCompareOp)
            vkCmdSetStencilCompareMask(commandBuffer, flags, test.readMask)
            vkCmdSetStencilWriteMask(commandBuffer, flags, test.writeMask)
        }
        vkCmdSetStencilReference(commandBuffer, VkStencilFaceFlags(VK_STENCIL_FACE_FRONT_AND_BACK.rawValue), reference)
    }

    /// Sets the primitive topology of the next draws.
    func setTopology(_ type: PrimitiveType) { vkCmdSetPrimitiveTopology(commandBuffer, type.vkTopology) }

    /// Binds a vertex buffer at `binding`.
    func bindVertexBuffer(_ buffer: VkBuffer?, offset: UInt64, binding: Int) {
        var buffer = buffer
        var offset = offset
        vkCmdBindVertexBuffers(commandBuffer, UInt32(binding), 1, &buffer, &offset)
    }

    /// Records a non-indexed draw; the encoder checked that each value fits 32 bits.
    @inline(__always)
    func draw(vertexCount: Int, instanceCount: Int, firstVertex: Int, firstInstance: Int) {
        vkCmdDraw(commandBuffer, UInt32(truncatingIfNeeded: vertexCount), UInt32(truncatingIfNeeded: instanceCount),
                  UInt32(truncatingIfNeeded: firstVertex), UInt32(truncatingIfNeeded: firstInstance))
    }

    /// Records an indexed draw.
    func drawIndexed(indexCount: Int, instanceCount: Int, indexBuffer: VkBuffer, offset: Int, type: IndexType,
                     baseVertex: Int, firstInstance: Int) {
        vkCmdBindIndexBuffer(commandBuffer, indexBuffer, UInt64(offset), type.vkIndexType)
        vkCmdDrawIndexed(commandBuffer, UInt32(indexCount), UInt32(instanceCount), 0, Int32(baseVertex), UInt32(firstInstance))
    }

    /// Records a draw whose `VkDrawIndirectCommand` the GPU reads from `buffer` at `offset`.
    func drawIndirect(_ buffer: VkBuffer, offset: Int) {
        vkCmdDrawIndirect(commandBuffer, buffer, UInt64(offset), 1, 0)
    }

    /// Records an indexed draw whose `VkDrawIndexedIndirectCommand` the GPU reads from
    /// `buffer` at `offset`; its first index counts from `indexOffset` in `indexBuffer`.
    func drawIndexedIndirect(indexBuffer: VkBuffer, indexOffset: Int, type: IndexType, buffer: VkBuffer, offset: Int) {
        vkCmdBindIndexBuffer(commandBuffer, indexBuffer, UInt64(indexOffset), type.vkIndexType)
        vkCmdDrawIndexedIndirect(commandBuffer, buffer, UInt64(offset), 1, 0)
    }
}
