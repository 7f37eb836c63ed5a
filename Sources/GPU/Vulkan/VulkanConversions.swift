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

extension PixelFormat {
    /// The Vulkan format.
    var vkFormat: VkFormat {
        switch self {
        case .r8Unorm: VK_FORMAT_R8_UNORM
        case .rgba8Unorm: VK_FORMAT_R8G8B8A8_UNORM
        case .rgba8Unorm_srgb: VK_FORMAT_R8G8B8A8_SRGB
        case .bgra8Unorm: VK_FORMAT_B8G8R8A8_UNORM
        case .bgra8Unorm_srgb: VK_FORMAT_B8G8R8A8_SRGB
        case .r32Float: VK_FORMAT_R32_SFLOAT
        case .rgba16Float: VK_FORMAT_R16G16B16A16_SFLOAT
        case .rgba32Float: VK_FORMAT_R32G32B32A32_SFLOAT
        case .depth32Float: VK_FORMAT_D32_SFLOAT
        case .depth32Float_stencil8: VK_FORMAT_D32_SFLOAT_S8_UINT
        }
    }

    /// The aspects a view or copy of the whole format covers.
    var vkAspects: VkImageAspectFlags {
        switch self {
        case .depth32Float: VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT.rawValue)
        case .depth32Float_stencil8:
            VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT.rawValue | VK_IMAGE_ASPECT_STENCIL_BIT.rawValue)
        default: VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT.rawValue)
        }
    }

    /// The aspect a buffer copy moves (depth only, for depth-stencil).
    var vkCopyAspect: VkImageAspectFlags {
        isDepth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT.rawValue) : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT.rawValue)
    }
}

extension TextureDescriptor {
    /// Image usage: the declared uses plus transfers (copies, `replace`, `getBytes`).
    var vkUsage: VkImageUsageFlags {
        var flags = VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
        if usage.contains(.shaderRead) { flags |= VK_IMAGE_USAGE_SAMPLED_BIT.rawValue }
        if usage.contains(.shaderWrite) { flags |= VK_IMAGE_USAGE_STORAGE_BIT.rawValue }
        if usage.contains(.renderTarget) {
            flags |= pixelFormat.isDepth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue
                                         : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue
        }
        return VkImageUsageFlags(flags)
    }

    /// The view type that shows every layer.
    var vkViewType: VkImageViewType {
        switch textureType {
        case .type2D: VK_IMAGE_VIEW_TYPE_2D
        case .type2DArray: VK_IMAGE_VIEW_TYPE_2D_ARRAY
        case .typeCube: arrayLength > 1 ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE
        }
    }
}

extension SamplerMinMagFilter {
    var vkFilter: VkFilter { self == .nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR }
}

extension SamplerMipFilter {
    var vkMipmapMode: VkSamplerMipmapMode { self == .linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST }
}

extension SamplerAddressMode {
    var vkAddressMode: VkSamplerAddressMode {
        switch self {
        case .clampToEdge: VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        case .mirrorClampToEdge: VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE
        case .repeat: VK_SAMPLER_ADDRESS_MODE_REPEAT
        case .mirrorRepeat: VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT
        case .clampToBorderColor: VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER
        }
    }
}

extension SamplerBorderColor {
    var vkBorderColor: VkBorderColor {
        switch self {
        case .transparentBlack: VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK
        case .opaqueBlack: VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK
        case .opaqueWhite: VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE
        }
    }
}

extension CompareFunction {
    var vkCompareOp: VkCompareOp {
        switch self {
        case .never: VK_COMPARE_OP_NEVER
        case .less: VK_COMPARE_OP_LESS
        case .equal: VK_COMPARE_OP_EQUAL
        case .lessEqual: VK_COMPARE_OP_LESS_OR_EQUAL
        case .greater: VK_COMPARE_OP_GREATER
        case .notEqual: VK_COMPARE_OP_NOT_EQUAL
        case .greaterEqual: VK_COMPARE_OP_GREATER_OR_EQUAL
        case .always: VK_COMPARE_OP_ALWAYS
        }
    }
}
