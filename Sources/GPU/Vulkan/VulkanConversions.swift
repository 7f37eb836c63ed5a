import CVulkan
import FramePacing
import SwiftGPUSPIRV

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

extension TextureSpec {
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

    /// Image create flags: cube-compatible for a cube, and for a square array of at least
    /// six slices (which a texture view may show as a cube); mutable-format for a texture
    /// whose views may take another format (`.pixelFormatView`).
    var vkCreateFlags: VkImageCreateFlags {
        var flags: UInt32 = 0
        if textureType == .typeCube || (textureType == .type2DArray && width == height && arrayLength >= 6) {
            flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT.rawValue
        }
        if usage.contains(.pixelFormatView) { flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT.rawValue }
        return VkImageCreateFlags(flags)
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

extension VertexFormat {
    var vkFormat: VkFormat {
        switch self {
        case .float: VK_FORMAT_R32_SFLOAT
        case .float2: VK_FORMAT_R32G32_SFLOAT
        case .float3: VK_FORMAT_R32G32B32_SFLOAT
        case .float4: VK_FORMAT_R32G32B32A32_SFLOAT
        case .uchar4Normalized: VK_FORMAT_R8G8B8A8_UNORM
        case .uint: VK_FORMAT_R32_UINT
        case .int: VK_FORMAT_R32_SINT
        case .uchar2: VK_FORMAT_R8G8_UINT
        case .uchar4: VK_FORMAT_R8G8B8A8_UINT
        case .char2: VK_FORMAT_R8G8_SINT
        case .char4: VK_FORMAT_R8G8B8A8_SINT
        case .ushort2: VK_FORMAT_R16G16_UINT
        case .ushort4: VK_FORMAT_R16G16B16A16_UINT
        case .short2: VK_FORMAT_R16G16_SINT
        case .short4: VK_FORMAT_R16G16B16A16_SINT
        }
    }
}

extension BlendFactor {
    var vkBlendFactor: VkBlendFactor {
        switch self {
        case .zero: VK_BLEND_FACTOR_ZERO
        case .one: VK_BLEND_FACTOR_ONE
        case .sourceColor: VK_BLEND_FACTOR_SRC_COLOR
        case .oneMinusSourceColor: VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR
        case .sourceAlpha: VK_BLEND_FACTOR_SRC_ALPHA
        case .oneMinusSourceAlpha: VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
        case .destinationColor: VK_BLEND_FACTOR_DST_COLOR
        case .oneMinusDestinationColor: VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR
        case .destinationAlpha: VK_BLEND_FACTOR_DST_ALPHA
        case .oneMinusDestinationAlpha: VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA
        }
    }
}

extension BlendOperation {
    var vkBlendOp: VkBlendOp {
        switch self {
        case .add: VK_BLEND_OP_ADD
        case .subtract: VK_BLEND_OP_SUBTRACT
        case .reverseSubtract: VK_BLEND_OP_REVERSE_SUBTRACT
        case .min: VK_BLEND_OP_MIN
        case .max: VK_BLEND_OP_MAX
        }
    }
}

extension PrimitiveType {
    var vkTopology: VkPrimitiveTopology {
        switch self {
        case .point: VK_PRIMITIVE_TOPOLOGY_POINT_LIST
        case .line: VK_PRIMITIVE_TOPOLOGY_LINE_LIST
        case .lineStrip: VK_PRIMITIVE_TOPOLOGY_LINE_STRIP
        case .triangle: VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST
        case .triangleStrip: VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
        }
    }

    var topologyClass: PrimitiveTopologyClass {
        switch self {
        case .point: .point
        case .line, .lineStrip: .line
        case .triangle, .triangleStrip: .triangle
        }
    }
}

extension PrimitiveTopologyClass {
    /// A topology of the class, for pipeline creation (the draw sets the exact one).
    var vkTopology: VkPrimitiveTopology {
        switch self {
        case .point: VK_PRIMITIVE_TOPOLOGY_POINT_LIST
        case .line: VK_PRIMITIVE_TOPOLOGY_LINE_LIST
        case .triangle: VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST
        }
    }
}

extension CullMode {
    var vkCullMode: VkCullModeFlags {
        switch self {
        case .none: VkCullModeFlags(VK_CULL_MODE_NONE.rawValue)
        case .front: VkCullModeFlags(VK_CULL_MODE_FRONT_BIT.rawValue)
        case .back: VkCullModeFlags(VK_CULL_MODE_BACK_BIT.rawValue)
        }
    }
}

extension Winding {
    var vkFrontFace: VkFrontFace { self == .clockwise ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE }
}

extension IndexType {
    var vkIndexType: VkIndexType { self == .uint16 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32 }
    var size: Int { self == .uint16 ? 2 : 4 }
}

extension LoadAction {
    var vkLoadOp: VkAttachmentLoadOp {
        switch self {
        case .dontCare: VK_ATTACHMENT_LOAD_OP_DONT_CARE
        case .load: VK_ATTACHMENT_LOAD_OP_LOAD
        case .clear: VK_ATTACHMENT_LOAD_OP_CLEAR
        }
    }
}

extension StoreAction {
    var vkStoreOp: VkAttachmentStoreOp {
        switch self {
        case .dontCare, .multisampleResolve: VK_ATTACHMENT_STORE_OP_DONT_CARE
        case .store, .storeAndMultisampleResolve: VK_ATTACHMENT_STORE_OP_STORE
        }
    }
    var resolves: Bool { self == .multisampleResolve || self == .storeAndMultisampleResolve }
}

extension StencilOperation {
    var vkStencilOp: VkStencilOp {
        switch self {
        case .keep: VK_STENCIL_OP_KEEP
        case .zero: VK_STENCIL_OP_ZERO
        case .replace: VK_STENCIL_OP_REPLACE
        case .incrementClamp: VK_STENCIL_OP_INCREMENT_AND_CLAMP
        case .decrementClamp: VK_STENCIL_OP_DECREMENT_AND_CLAMP
        case .invert: VK_STENCIL_OP_INVERT
        case .incrementWrap: VK_STENCIL_OP_INCREMENT_AND_WRAP
        case .decrementWrap: VK_STENCIL_OP_DECREMENT_AND_WRAP
        }
    }
}

extension PresentMode {
    /// The Vulkan present mode of the same name.
    var vkPresentMode: VkPresentModeKHR {
        switch self {
        case .fifo: VK_PRESENT_MODE_FIFO_KHR
        case .fifoRelaxed: VK_PRESENT_MODE_FIFO_RELAXED_KHR
        case .mailbox: VK_PRESENT_MODE_MAILBOX_KHR
        case .immediate: VK_PRESENT_MODE_IMMEDIATE_KHR
        }
    }

    /// The mode of a Vulkan present mode, nil for one SwiftGPU does not name (shared modes).
    init?(_ mode: VkPresentModeKHR) {
        guard let match = PresentMode.allCases.first(where: { $0.vkPresentMode == mode }) else { return nil }
        self = match
    }
}
