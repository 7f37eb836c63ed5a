import CVulkan
import Glibc
import SwiftGPUSPIRV

/// What a graphics pipeline is made from, in Vulkan's terms.
struct RenderPipelineConfiguration {
    var vertexWords: [UInt32]
    var vertexEntry: String
    var fragment: (words: [UInt32], entry: String)?
    /// The values of the vertex function's constants, by `SpecId`.
    var vertexSpecialization: [SpecializationConstant] = []
    /// The values of the fragment function's constants, by `SpecId`.
    var fragmentSpecialization: [SpecializationConstant] = []
    var bindings: [PipelineObject.LayoutBinding]
    /// Push-constant ranges of the layout, at most one per stage.
    var pushConstantRanges: [PushConstantRange] = []
    var vertexBindings: [VkVertexInputBindingDescription]
    var vertexAttributes: [VkVertexInputAttributeDescription]
    var colorFormats: [VkFormat]
    var blends: [VkPipelineColorBlendAttachmentState]
    var depthFormat: VkFormat
    var stencilFormat: VkFormat
    var samples: Int
    var topology: VkPrimitiveTopology
}

/// One vertex attribute a render pipeline's vertex function reads, from the vertex
/// descriptor.
struct VertexInput {
    var location: UInt32
    var bufferIndex: Int
    var format: VertexFormat
    var offset: Int
}

/// The layout of one vertex buffer index that feeds attributes.
struct VertexLayout {
    var bufferIndex: Int
    var stride: Int
    var stepFunction: VertexStepFunction
}

extension RenderPipelineConfiguration {
    /// The Vulkan configuration of a render pipeline the front end has checked.
    init(vertex: Function, fragment: Function?, slots: [ResourceSlot], inputs: [VertexInput], layouts: [VertexLayout],
         colorAttachments: [ColorAttachmentState], depthFormat: PixelFormat?,
         stencilFormat: PixelFormat?, samples: Int, topology: PrimitiveTopologyClass) {
        self.init(
            vertexWords: vertex.module.words, vertexEntry: vertex.entryPoint.name,
            fragment: fragment.map { ($0.module.words, $0.entryPoint.name) },
            vertexSpecialization: vertex.specialization, fragmentSpecialization: fragment?.specialization ?? [],
            bindings: slots.map(\.layoutBinding),
            vertexBindings: layouts.map { layout in
                VkVertexInputBindingDescription(
                    binding: UInt32(layout.bufferIndex), stride: UInt32(layout.stride),
                    inputRate: layout.stepFunction == .perVertex ? VK_VERTEX_INPUT_RATE_VERTEX : VK_VERTEX_INPUT_RATE_INSTANCE)
            },
            vertexAttributes: inputs.map { input in
                VkVertexInputAttributeDescription(location: input.location, binding: UInt32(input.bufferIndex),
                                                  format: input.format.vkFormat, offset: UInt32(input.offset))
            },
            colorFormats: colorAttachments.map { $0.pixelFormat?.vkFormat ?? VK_FORMAT_UNDEFINED },
            blends: colorAttachments.map { a in
                VkPipelineColorBlendAttachmentState(
                    blendEnable: VkBool32(a.isBlendingEnabled ? VK_TRUE : VK_FALSE),
                    srcColorBlendFactor: a.sourceRGBBlendFactor.vkBlendFactor,
                    dstColorBlendFactor: a.destinationRGBBlendFactor.vkBlendFactor,
                    colorBlendOp: a.rgbBlendOperation.vkBlendOp,
                    srcAlphaBlendFactor: a.sourceAlphaBlendFactor.vkBlendFactor,
                    dstAlphaBlendFactor: a.destinationAlphaBlendFactor.vkBlendFactor,
                    alphaBlendOp: a.alphaBlendOperation.vkBlendOp,
                    colorWriteMask: VkColorComponentFlags(UInt32(a.writeMask.rawValue)))
            },
            depthFormat: depthFormat?.vkFormat ?? VK_FORMAT_UNDEFINED,
            stencilFormat: stencilFormat?.vkFormat ?? VK_FORMAT_UNDEFINED,
            samples: samples, topology: topology.vkTopology)
    }
}

/// Memory for create-info structures that must stay put until the create call; freed with
/// the arena.
private final class Arena {
    private var frees: [() -> Void] = []
    deinit { frees.forEach { $0() } }

    func place<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        frees.append { pointer.deinitialize(count: 1); pointer.deallocate() }
        return pointer
    }

    func place<T>(_ values: [T]) -> UnsafeMutablePointer<T>? {
        guard !values.isEmpty else { return nil }
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: values.count)
        pointer.initialize(from: values, count: values.count)
        frees.append { pointer.deinitialize(count: values.count); pointer.deallocate() }
        return pointer
    }

    func string(_ value: String) -> UnsafePointer<CChar> {
        let copy = strdup(value)!
        frees.append { free(copy) }
        return UnsafePointer(copy)
    }
}

extension PipelineObject {
    /// Dynamic state every graphics pipeline takes from the encoder, as Metal sets it there.
    static let dynamicStates: [VkDynamicState] = [
        VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
        VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
        VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
        VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
        VK_DYNAMIC_STATE_STENCIL_REFERENCE,
    ]

    /// Makes a graphics pipeline for dynamic rendering.
    static func render(device: DeviceBackend, configuration c: RenderPipelineConfiguration,
                       cache: PipelineCacheObject) throws(VulkanError) -> PipelineObject {
        let vk = device.handle
        let (setLayout, layout) = try makeLayout(device: device, bindings: c.bindings,
                                                 pushConstantRanges: c.pushConstantRanges)
        var modules: [VkShaderModule] = []
        defer { modules.forEach { vkDestroyShaderModule(vk, $0, nil) } }
        let arena = Arena()
        var stages: [VkPipelineShaderStageCreateInfo] = []
        do throws(VulkanError) {
            for (words, entry, stage, constants) in [(c.vertexWords, c.vertexEntry, VK_SHADER_STAGE_VERTEX_BIT,
                                                      c.vertexSpecialization)]
                + (c.fragment.map { [($0.words, $0.entry, VK_SHADER_STAGE_FRAGMENT_BIT, c.fragmentSpecialization)] } ?? []) {
                let module = try makeShaderModule(device: device, words: words)
                modules.append(module)
                var info = VkPipelineShaderStageCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                info.stage = stage
                info.module = module
                info.pName = arena.string(entry)
                if !constants.isEmpty {
                    let (entries, data) = specializationData(constants)
                    info.pSpecializationInfo = UnsafePointer(arena.place(VkSpecializationInfo(
                        mapEntryCount: UInt32(entries.count), pMapEntries: UnsafePointer(arena.place(entries)),
                        dataSize: data.count, pData: UnsafeRawPointer(arena.place(data)))))
                }
                stages.append(info)
            }
        } catch {
            vkDestroyPipelineLayout(vk, layout, nil)
            vkDestroyDescriptorSetLayout(vk, setLayout, nil)
            throw error
        }

        var vertexInput = VkPipelineVertexInputStateCreateInfo()
        vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO
        vertexInput.vertexBindingDescriptionCount = UInt32(c.vertexBindings.count)
        vertexInput.pVertexBindingDescriptions = UnsafePointer(arena.place(c.vertexBindings))
        vertexInput.vertexAttributeDescriptionCount = UInt32(c.vertexAttributes.count)
        vertexInput.pVertexAttributeDescriptions = UnsafePointer(arena.place(c.vertexAttributes))

        var assembly = VkPipelineInputAssemblyStateCreateInfo()
        assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO
        assembly.topology = c.topology

        var viewport = VkPipelineViewportStateCreateInfo()
        viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO
        viewport.viewportCount = 1
        viewport.scissorCount = 1

        var raster = VkPipelineRasterizationStateCreateInfo()
        raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO
        raster.polygonMode = VK_POLYGON_MODE_FILL
        raster.lineWidth = 1

        var multisample = VkPipelineMultisampleStateCreateInfo()
        multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
        multisample.rasterizationSamples = VkSampleCountFlagBits(UInt32(c.samples))

        var depth = VkPipelineDepthStencilStateCreateInfo()
        depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO
        depth.depthCompareOp = VK_COMPARE_OP_ALWAYS
        depth.maxDepthBounds = 1

        var blend = VkPipelineColorBlendStateCreateInfo()
        blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
        blend.attachmentCount = UInt32(c.blends.count)
        blend.pAttachments = UnsafePointer(arena.place(c.blends))

        var dynamic = VkPipelineDynamicStateCreateInfo()
        dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
        dynamic.dynamicStateCount = UInt32(dynamicStates.count)
        dynamic.pDynamicStates = UnsafePointer(arena.place(dynamicStates))

        var rendering = VkPipelineRenderingCreateInfo()
        rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
        rendering.colorAttachmentCount = UInt32(c.colorFormats.count)
        rendering.pColorAttachmentFormats = UnsafePointer(arena.place(c.colorFormats))
        rendering.depthAttachmentFormat = c.depthFormat
        rendering.stencilAttachmentFormat = c.stencilFormat

        var info = VkGraphicsPipelineCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
        info.pNext = UnsafeRawPointer(arena.place(rendering))
        info.stageCount = UInt32(stages.count)
        info.pStages = UnsafePointer(arena.place(stages))
        info.pVertexInputState = UnsafePointer(arena.place(vertexInput))
        info.pInputAssemblyState = UnsafePointer(arena.place(assembly))
        info.pViewportState = UnsafePointer(arena.place(viewport))
        info.pRasterizationState = UnsafePointer(arena.place(raster))
        info.pMultisampleState = UnsafePointer(arena.place(multisample))
        info.pDepthStencilState = c.depthFormat == VK_FORMAT_UNDEFINED ? nil : UnsafePointer(arena.place(depth))
        info.pColorBlendState = UnsafePointer(arena.place(blend))
        info.pDynamicState = UnsafePointer(arena.place(dynamic))
        info.layout = layout

        var pipeline: VkPipeline?
        do {
            try vkCall(.createGraphicsPipelines, device.unretainedFaults) {
                vkCreateGraphicsPipelines(vk, cache.handle, 1, &info, nil, &pipeline)
            }
        } catch {
            vkDestroyPipelineLayout(vk, layout, nil)
            vkDestroyDescriptorSetLayout(vk, setLayout, nil)
            throw error
        }
        withExtendedLifetime(arena) {}
        return PipelineObject(device: device, handle: pipeline!, layout: layout, setLayout: setLayout,
                              bindPoint: VK_PIPELINE_BIND_POINT_GRAPHICS,
                              immutableSamplers: c.bindings.compactMap(\.immutableSampler))
    }
}
