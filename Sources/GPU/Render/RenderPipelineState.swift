import CVulkan

/// A compiled render pipeline, Metal's `MTLRenderPipelineState`, with its layout derived
/// from the functions' SPIR-V.
///
/// `@unchecked Sendable`: every stored property is immutable.
public final class RenderPipelineState: @unchecked Sendable {
    let backend: VulkanPipeline
    /// The device that made it.
    public let device: Device
    /// The label from the descriptor.
    public let label: String?
    /// Colour attachment formats by index (nil: none).
    public let colorPixelFormats: [PixelFormat?]
    /// The depth attachment format.
    public let depthPixelFormat: PixelFormat?
    /// Samples per pixel.
    public let sampleCount: Int
    /// The class of primitives it draws.
    public let topologyClass: PrimitiveTopologyClass
    /// Resources both functions declare.
    let slots: [ResourceSlot]
    /// Buffer indices that feed vertex attributes.
    let vertexBufferIndices: [Int]
    /// Names for messages.
    let functionNames: String
    /// The twin whose small uniform blocks are push constants, when it has any.
    let pushConstants: PushConstantPipeline?

    init(device: Device, descriptor d: RenderPipelineDescriptor) throws(LibraryError) {
        guard let vertex = d.vertexFunction else {
            throw .unsupportedFunction(name: "(none)", reason: "a render pipeline needs a vertexFunction")
        }
        guard vertex.stage == .vertex else {
            throw .unsupportedFunction(name: vertex.name, reason: "it is a \(vertex.stage) function, not a vertex function")
        }
        if let fragment = d.fragmentFunction, fragment.stage != .fragment {
            throw .unsupportedFunction(name: fragment.name, reason: "it is a \(fragment.stage) function, not a fragment function")
        }
        guard d.rasterSampleCount == 1 || d.rasterSampleCount == 4 else {
            throw .unsupportedFunction(name: vertex.name, reason: "rasterSampleCount must be 1 or 4")
        }
        let fragment = d.fragmentFunction
        slots = try ResourceSlot.slots(of: vertex, stage: .vertex)
            + (fragment.map { fragment throws(LibraryError) in try ResourceSlot.slots(of: fragment, stage: .fragment) } ?? [])
        functionNames = [vertex.name, fragment?.name].compactMap { $0 }.joined(separator: " + ")

        // Vertex inputs come from the vertex descriptor, by location.
        var attributes: [VkVertexInputAttributeDescription] = []
        var usedLayouts: Set<Int> = []
        for input in vertex.entryPoint.inputs {
            let location = Int(input.location)
            guard let vertexDescriptor = d.vertexDescriptor, location < 16,
                  let format = vertexDescriptor.attributes[location].format
            else {
                throw .unsupportedFunction(name: vertex.name, reason:
                    "its input at location \(location) has no attribute in the pipeline's vertexDescriptor")
            }
            let attribute = vertexDescriptor.attributes[location]
            guard (0..<31).contains(attribute.bufferIndex), vertexDescriptor.layouts[attribute.bufferIndex].stride > 0 else {
                throw .unsupportedFunction(name: vertex.name, reason:
                    "attribute \(location) reads buffer index \(attribute.bufferIndex), whose layout has no stride")
            }
            usedLayouts.insert(attribute.bufferIndex)
            attributes.append(VkVertexInputAttributeDescription(
                location: input.location, binding: UInt32(attribute.bufferIndex), format: format.vkFormat,
                offset: UInt32(attribute.offset)))
        }
        vertexBufferIndices = usedLayouts.sorted()
        let vertexBindings = vertexBufferIndices.map { index -> VkVertexInputBindingDescription in
            let layout = d.vertexDescriptor!.layouts[index]
            return VkVertexInputBindingDescription(
                binding: UInt32(index), stride: UInt32(layout.stride),
                inputRate: layout.stepFunction == .perVertex ? VK_VERTEX_INPUT_RATE_VERTEX : VK_VERTEX_INPUT_RATE_INSTANCE)
        }

        // Colour attachments, up to the last one with a format.
        let lastColor = d.colorAttachments.lastIndex { $0.pixelFormat != nil } ?? -1
        colorPixelFormats = d.colorAttachments.prefix(lastColor + 1).map(\.pixelFormat)
        for output in fragment?.entryPoint.outputs ?? [] where Int(output.location) >= colorPixelFormats.count
            || colorPixelFormats[Int(output.location)] == nil {
            throw .unsupportedFunction(name: fragment!.name, reason:
                "it writes colour output \(output.location), but colorAttachments[\(output.location)] has no pixelFormat")
        }
        let blends = d.colorAttachments.prefix(lastColor + 1).map { a -> VkPipelineColorBlendAttachmentState in
            VkPipelineColorBlendAttachmentState(
                blendEnable: VkBool32(a.isBlendingEnabled ? VK_TRUE : VK_FALSE),
                srcColorBlendFactor: a.sourceRGBBlendFactor.vkBlendFactor,
                dstColorBlendFactor: a.destinationRGBBlendFactor.vkBlendFactor,
                colorBlendOp: a.rgbBlendOperation.vkBlendOp,
                srcAlphaBlendFactor: a.sourceAlphaBlendFactor.vkBlendFactor,
                dstAlphaBlendFactor: a.destinationAlphaBlendFactor.vkBlendFactor,
                alphaBlendOp: a.alphaBlendOperation.vkBlendOp,
                colorWriteMask: VkColorComponentFlags(UInt32(a.writeMask.rawValue)))
        }
        depthPixelFormat = d.depthAttachmentPixelFormat
        sampleCount = d.rasterSampleCount
        topologyClass = d.inputPrimitiveTopology
        label = d.label
        self.device = device

        let configuration = RenderPipelineConfiguration(
            vertexWords: vertex.module.words, vertexEntry: vertex.entryPoint.name,
            fragment: fragment.map { ($0.module.words, $0.entryPoint.name) },
            bindings: slots.map(\.layoutBinding),
            vertexBindings: vertexBindings, vertexAttributes: attributes,
            colorFormats: colorPixelFormats.map { $0?.vkFormat ?? VK_FORMAT_UNDEFINED }, blends: blends,
            depthFormat: d.depthAttachmentPixelFormat?.vkFormat ?? VK_FORMAT_UNDEFINED,
            stencilFormat: (d.stencilAttachmentPixelFormat ?? (d.depthAttachmentPixelFormat?.hasStencil == true
                ? d.depthAttachmentPixelFormat : nil))?.vkFormat ?? VK_FORMAT_UNDEFINED,
            samples: d.rasterSampleCount, topology: d.inputPrimitiveTopology.vkTopology)
        do {
            backend = try VulkanPipeline.render(device: device.backend, configuration: configuration,
                                                cache: device.pipelineCache.cache)
        } catch {
            throw .unsupportedFunction(name: functionNames, reason: "\(error)")
        }
        pushConstants = PushConstantPipeline.render(device: device, configuration: configuration, slots: slots,
                                                  vertex: vertex, fragment: fragment, label: functionNames)
        device.pipelineCache.saveIfGrown()
    }
}

extension Device {
    /// Makes a render pipeline. Throws when a function is of the wrong stage, declares
    /// resources outside the binding convention, has inputs the vertex descriptor does not
    /// feed, or writes colour outputs with no attachment format.
    public func makeRenderPipelineState(descriptor: RenderPipelineDescriptor) throws(LibraryError) -> RenderPipelineState {
        try RenderPipelineState(device: self, descriptor: descriptor)
    }
}
