import CVulkan
import SwiftGPUSPIRV
import Synchronization

/// A pipeline with the layout derived from its shaders' reflected bindings: one
/// descriptor set (set 0), made a push-descriptor set when the device offers them.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`.
final class PipelineObject: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkPipeline
    let layout: VkPipelineLayout
    let setLayout: VkDescriptorSetLayout
    let bindPoint: VkPipelineBindPoint
    /// The samplers fixed in the set layout, which must outlive it.
    let immutableSamplers: [SamplerObject]
    /// A number no other pipeline of the process has: a recording context keeps the
    /// descriptor writes it built for a pipeline across command buffers by this number,
    /// which (unlike the object's identifier) no later pipeline can take over.
    let serial = PipelineObject.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    /// Makes a compute pipeline from `words` with entry point `entryPoint`, through `cache`.
    /// `specialization` gives specialization constants their values (the function's
    /// constants, a local size chosen at dispatch), by `SpecId`.
    init(computeWith device: DeviceBackend, words: [UInt32], entryPoint: String, bindings: [LayoutBinding],
         pushConstantRanges: [PushConstantRange] = [], specialization: [SpecializationConstant] = [],
         cache: PipelineCacheObject) throws(VulkanError) {
        self.device = device
        bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE
        immutableSamplers = bindings.compactMap(\.immutableSampler)
        let vk = device.handle
        (setLayout, layout) = try Self.makeLayout(device: device, bindings: bindings, pushConstantRanges: pushConstantRanges)
        let module: VkShaderModule
        do {
            module = try Self.makeShaderModule(device: device, words: words)
        } catch {
            vkDestroyPipelineLayout(vk, layout, nil)
            vkDestroyDescriptorSetLayout(vk, setLayout, nil)
            throw error
        }
        defer { vkDestroyShaderModule(vk, module, nil) }
        var pipeline: VkPipeline?
        let layout = layout
        do {
            let (entries, values) = Self.specializationData(specialization)
            try vkCall(.createComputePipelines, device.unretainedFaults) {
                entryPoint.withCString { name in
                entries.withUnsafeBufferPointer { entries in
                values.withUnsafeBytes { data in
                var specializationInfo = VkSpecializationInfo(
                    mapEntryCount: UInt32(entries.count), pMapEntries: entries.baseAddress,
                    dataSize: data.count, pData: data.baseAddress)
                return withUnsafePointer(to: &specializationInfo) { specializationInfo in
                var info = VkComputePipelineCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
                // Dispatches over the device's group-count limit are split with
                // vkCmdDispatchBase, which needs this flag (core since Vulkan 1.1).
                info.flags = VkPipelineCreateFlags(VK_PIPELINE_CREATE_DISPATCH_BASE_BIT.rawValue)
                info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT
                info.stage.module = module
                info.stage.pName = name
                info.stage.pSpecializationInfo = entries.isEmpty ? nil : specializationInfo
                info.layout = layout
                return vkCreateComputePipelines(vk, cache.handle, 1, &info, nil, &pipeline)
            }
            }
            }
            }
            }
        } catch {
            vkDestroyPipelineLayout(vk, layout, nil)
            vkDestroyDescriptorSetLayout(vk, setLayout, nil)
            throw error
        }
        handle = pipeline!
    }

    init(device: DeviceBackend, handle: VkPipeline, layout: VkPipelineLayout, setLayout: VkDescriptorSetLayout,
         bindPoint: VkPipelineBindPoint, immutableSamplers: [SamplerObject]) {
        self.device = device
        self.handle = handle
        self.layout = layout
        self.setLayout = setLayout
        self.bindPoint = bindPoint
        self.immutableSamplers = immutableSamplers
    }

    deinit {
        let vk = device.handle
        vkDestroyPipeline(vk, handle, nil)
        vkDestroyPipelineLayout(vk, layout, nil)
        vkDestroyDescriptorSetLayout(vk, setLayout, nil)
    }

    /// The map entries and data of a specialization info that gives each constant of
    /// `constants` its bytes, one after another.
    static func specializationData(_ constants: [SpecializationConstant]) -> ([VkSpecializationMapEntry], [UInt8]) {
        var entries: [VkSpecializationMapEntry] = [], data: [UInt8] = []
        for constant in constants {
            entries.append(VkSpecializationMapEntry(constantID: constant.id, offset: UInt32(data.count),
                                                    size: constant.bytes.count))
            data += constant.bytes
        }
        return (entries, data)
    }

    static func makeShaderModule(device: DeviceBackend, words: [UInt32]) throws(VulkanError) -> VkShaderModule {
        var module: VkShaderModule?
        let vk = device.handle
        try vkCall(.createShaderModule, device.unretainedFaults) {
            words.withUnsafeBufferPointer { code in
                var info = VkShaderModuleCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
                info.codeSize = code.count * 4
                info.pCode = code.baseAddress
                return vkCreateShaderModule(vk, &info, nil, &module)
            }
        }
        return module!
    }

    /// One binding of the pipeline's descriptor set.
    struct LayoutBinding {
        var binding: UInt32
        var type: VkDescriptorType
        var stages: VkShaderStageFlags
        /// The sampler fixed at the binding (a constant sampler), if any.
        var immutableSampler: SamplerObject?
    }

    static func makeLayout(device: DeviceBackend, bindings: [LayoutBinding],
                           pushConstantRanges: [PushConstantRange] = []) throws(VulkanError) -> (VkDescriptorSetLayout, VkPipelineLayout) {
        let vk = device.handle
        // Each binding's immutable sampler, where it has one, at its position here: the
        // layout bindings point into this array during the create call.
        let samplers: [VkSampler?] = bindings.map { $0.immutableSampler?.handle }
        var setLayout: VkDescriptorSetLayout?
        try vkCall(.createDescriptorSetLayout, device.unretainedFaults) {
            samplers.withUnsafeBufferPointer { samplers in
            let layoutBindings = bindings.enumerated().map { index, binding in
                var layoutBinding = VkDescriptorSetLayoutBinding()
                layoutBinding.binding = binding.binding
                layoutBinding.descriptorType = binding.type
                layoutBinding.descriptorCount = 1
                layoutBinding.stageFlags = binding.stages
                if binding.immutableSampler != nil { layoutBinding.pImmutableSamplers = samplers.baseAddress! + index }
                return layoutBinding
            }
            return layoutBindings.withUnsafeBufferPointer { pointer in
                var info = VkDescriptorSetLayoutCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
                if device.pushDescriptorSet != nil {
                    info.flags = VkDescriptorSetLayoutCreateFlags(VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR.rawValue)
                }
                info.bindingCount = UInt32(pointer.count)
                info.pBindings = pointer.baseAddress
                return vkCreateDescriptorSetLayout(vk, &info, nil, &setLayout)
            }
            }
        }
        var pipelineLayout: VkPipelineLayout?
        var info = VkPipelineLayoutCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        info.setLayoutCount = 1
        let ranges = pushConstantRanges.map { range in
            VkPushConstantRange(stageFlags: VkShaderStageFlags(range.stage.vkStage.rawValue), offset: range.offset, size: range.size)
        }
        info.pushConstantRangeCount = UInt32(ranges.count)
        do {
            try vkCall(.createPipelineLayout, device.unretainedFaults) {
                withUnsafePointer(to: &setLayout) { pointer in
                ranges.withUnsafeBufferPointer { ranges in
                    info.pSetLayouts = pointer
                    info.pPushConstantRanges = ranges.baseAddress
                    return vkCreatePipelineLayout(vk, &info, nil, &pipelineLayout)
                }
            }
            }
        } catch {
            vkDestroyDescriptorSetLayout(vk, setLayout, nil)
            throw error
        }
        return (setLayout!, pipelineLayout!)
    }
}

extension ResourceSlot {
    /// The slot's binding in a pipeline's descriptor-set layout.
    var layoutBinding: PipelineObject.LayoutBinding {
        PipelineObject.LayoutBinding(binding: binding.value, type: descriptor.vkDescriptorType,
                                     stages: VkShaderStageFlags(stage.vkStage.rawValue),
                                     immutableSampler: constantSampler?.backend)
    }
}
