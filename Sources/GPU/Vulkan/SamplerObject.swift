import CVulkan

/// A `VkSampler`.
///
/// `@unchecked Sendable`: the handle is immutable.
final class SamplerObject: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkSampler

    init(device: DeviceBackend, descriptor: SamplerValues) throws(VulkanError) {
        self.device = device
        var info = VkSamplerCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO
        info.magFilter = descriptor.magFilter.vkFilter
        info.minFilter = descriptor.minFilter.vkFilter
        info.mipmapMode = descriptor.mipFilter.vkMipmapMode
        info.addressModeU = descriptor.sAddressMode.vkAddressMode
        info.addressModeV = descriptor.tAddressMode.vkAddressMode
        info.addressModeW = descriptor.rAddressMode.vkAddressMode
        let anisotropy = min(Float(descriptor.maxAnisotropy), device.physical.limits.maxSamplerAnisotropy)
        info.anisotropyEnable = VkBool32(anisotropy > 1 && device.samplerAnisotropy ? VK_TRUE : VK_FALSE)
        info.maxAnisotropy = max(anisotropy, 1)
        info.compareEnable = VkBool32(descriptor.compareFunction == nil ? VK_FALSE : VK_TRUE)
        info.compareOp = descriptor.compareFunction?.vkCompareOp ?? VK_COMPARE_OP_ALWAYS
        // Bounded by VK_LOD_CLAMP_NONE (1000), far past any texture's levels: llvmpipe reads
        // the base level for a minimum of FLT_MAX (Metal's `lod_clamp(MAXFLOAT, MAXFLOAT)`).
        info.minLod = descriptor.mipFilter == .notMipmapped ? 0 : min(descriptor.lodMinClamp, VK_LOD_CLAMP_NONE)
        info.maxLod = descriptor.mipFilter == .notMipmapped ? 0.25 : min(descriptor.lodMaxClamp, VK_LOD_CLAMP_NONE)
        info.borderColor = descriptor.borderColor.vkBorderColor
        info.unnormalizedCoordinates = VkBool32(descriptor.normalizedCoordinates ? VK_FALSE : VK_TRUE)
        var sampler: VkSampler?
        let vk = device.handle
        try vkCall(.createSampler, device.unretainedFaults) { vkCreateSampler(vk, &info, nil, &sampler) }
        handle = sampler!
    }

    deinit { vkDestroySampler(device.handle, handle, nil) }
}
