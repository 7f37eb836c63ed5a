import CVulkan

// Enum translation between SwiftGPU's types and Vulkan's, in one place.

extension SPIRVDescriptorKind {
    /// The descriptor type a binding of this kind takes.
    var vkDescriptorType: VkDescriptorType {
        switch self {
        case .uniformBuffer: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
        case .storageBuffer: VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
        case .sampledImage: VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
        case .storageImage: VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
        case .sampler: VK_DESCRIPTOR_TYPE_SAMPLER
        case .combinedImageSampler: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
        }
    }
}

extension ShaderStage {
    /// The stage flag of a shader of this stage.
    var vkStage: VkShaderStageFlagBits {
        switch self {
        case .vertex: VK_SHADER_STAGE_VERTEX_BIT
        case .fragment: VK_SHADER_STAGE_FRAGMENT_BIT
        case .compute: VK_SHADER_STAGE_COMPUTE_BIT
        }
    }
}
