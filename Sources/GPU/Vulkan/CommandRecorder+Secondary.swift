import CVulkan

/// Parallel render passes: the primary context begins rendering with secondary contents,
/// each sub-encoder records into a secondary context that continues the pass, and the
/// primary executes them in the order they were made.
extension CommandRecorder {
    /// The attachment formats and sample count a secondary command buffer continues a
    /// render pass with (Vulkan's inheritance info for dynamic rendering).
    struct PassFormats {
        var colors: [PixelFormat?]
        var depth: PixelFormat?
        var sampleCount: Int
    }

    /// A secondary context for the `index`th sub-encoder of a parallel pass: one this
    /// primary kept from an earlier pass (in `spares`), or a new one.
    func secondary(at index: Int, spares: [CommandRecorder]) throws(VulkanError) -> CommandRecorder {
        index < spares.count ? spares[index] : try CommandRecorder(device: device, secondary: true)
    }

    /// Readies the context for a sub-encoder and begins its secondary command buffer, on
    /// the thread that makes the sub-encoder: the upload ring and descriptor pool are
    /// emptied, and the command buffer is one whose pool holds no commands.
    ///
    /// The context has two command buffers and takes turns: the one its previous pass
    /// recorded into keeps those commands until `freePreviousCommands()`, which the
    /// sub-encoder calls on the thread that records into it. Freeing a pass's commands
    /// costs about as much as recording them (the driver frees each), so a parallel pass
    /// frees its previous commands on its recording threads, in parallel, as a C program
    /// resets each thread's command pool on that thread; reset with the primary, the
    /// freeing was all on the thread that made the command buffer.
    func prepareSecondary(_ formats: PassFormats) throws(VulkanError) {
        try resetUploadsAndDescriptors()
        resetIndirectValidation()
        if currentHoldsCommands {
            let other: Recording
            if let existing = otherRecording {
                other = existing
            } else {
                other = try Self.makeRecording(device: device, secondary: true, memory: memory)
            }
            if otherHoldsCommands { try resetPool(other.pool) }   // its freeing failed, or never ran
            otherRecording = swapRecording(for: other)
            otherHoldsCommands = true
            currentHoldsCommands = false
        }
        try beginSecondary(formats)
        currentHoldsCommands = true
    }

    /// Frees the commands of this context's previous pass, on the thread that records the
    /// current one. A failure leaves them to the next `prepareSecondary(_:)`, which resets
    /// that pool before it records into it again.
    func freePreviousCommands() {
        guard otherHoldsCommands, let other = otherRecording else { return }
        if (try? resetPool(other.pool)) != nil { otherHoldsCommands = false }
    }

    /// Begins recording a secondary command buffer that continues a render pass with
    /// `formats`; the context's hazard record starts empty.
    private func beginSecondary(_ formats: PassFormats) throws(VulkanError) {
        encoding.hazards.reset()
        let colorFormats = formats.colors.map { $0?.vkFormat ?? VK_FORMAT_UNDEFINED }
        let depthFormat = formats.depth?.vkFormat ?? VK_FORMAT_UNDEFINED
        let commandBuffer = commandBuffer
        try colorFormats.withUnsafeBufferPointer { (colorPointer) throws(VulkanError) in
            var rendering = VkCommandBufferInheritanceRenderingInfo()
            rendering.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO
            rendering.colorAttachmentCount = UInt32(colorFormats.count)
            rendering.pColorAttachmentFormats = colorPointer.baseAddress
            rendering.depthAttachmentFormat = depthFormat
            rendering.stencilAttachmentFormat = formats.depth?.hasStencil == true ? depthFormat : VK_FORMAT_UNDEFINED
            rendering.rasterizationSamples = VkSampleCountFlagBits(UInt32(formats.sampleCount))
            try withUnsafePointer(to: &rendering) { (renderingPointer) throws(VulkanError) in
                var inheritance = VkCommandBufferInheritanceInfo()
                inheritance.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO
                inheritance.pNext = UnsafeRawPointer(renderingPointer)
                try withUnsafePointer(to: &inheritance) { (inheritancePointer) throws(VulkanError) in
                    var info = VkCommandBufferBeginInfo()
                    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
                    info.flags = VkCommandBufferUsageFlags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
                        | VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT.rawValue)
                    info.pInheritanceInfo = inheritancePointer
                    try vkCall(.beginCommandBuffer, device.unretainedFaults) { vkBeginCommandBuffer(commandBuffer, &info) }
                }
            }
        }
    }

    /// Ends recording a secondary command buffer.
    func endSecondary() throws(VulkanError) {
        let commandBuffer = commandBuffer
        try vkCall(.endCommandBuffer, device.unretainedFaults) { vkEndCommandBuffer(commandBuffer) }
    }

    /// Records `secondaries`' commands into this primary's pass, in order, and takes their
    /// indirect-argument reads into this context's hazard record.
    func execute(_ secondaries: [CommandRecorder]) {
        guard !secondaries.isEmpty else { return }
        var handles: [VkCommandBuffer?] = secondaries.map(\.commandBuffer)
        vkCmdExecuteCommands(commandBuffer, UInt32(handles.count), &handles)
        for secondary in secondaries { encoding.hazards.takeAccesses(of: secondary.encoding.hazards) }
    }
}
