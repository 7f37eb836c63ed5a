import CVulkan
import SwiftGPUSPIRV

extension PhysicalDevice {
    /// What the device can make for `descriptor`'s format, type and usage
    /// (`vkGetPhysicalDeviceImageFormatProperties`); nil when it cannot make such a
    /// texture at all.
    func imageCapabilities(for descriptor: TextureSpec) -> TextureCapabilities? {
        var properties = VkImageFormatProperties()
        let result = vkGetPhysicalDeviceImageFormatProperties(handle, descriptor.pixelFormat.vkFormat, VK_IMAGE_TYPE_2D,
                                                              VK_IMAGE_TILING_OPTIMAL, descriptor.vkUsage,
                                                              descriptor.vkCreateFlags, &properties)
        guard result == VK_SUCCESS else { return nil }
        return TextureCapabilities(
            maxWidth: Int(properties.maxExtent.width), maxHeight: Int(properties.maxExtent.height),
            maxMipmapLevelCount: Int(properties.maxMipLevels), maxLayerCount: Int(properties.maxArrayLayers),
            sampleCounts: Set([1, 2, 4, 8, 16, 32, 64].filter { properties.sampleCounts & UInt32($0) != 0 }))
    }

    /// The uses of an image's `usage` that a view of `format` supports (optimal tiling):
    /// a view of another format than its image's may take only those.
    func viewUsage(_ usage: VkImageUsageFlags, format: VkFormat) -> VkImageUsageFlags {
        var properties = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(handle, format, &properties)
        let features = properties.optimalTilingFeatures
        var kept = usage & VkImageUsageFlags(VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue)
        let pairs: [(VkImageUsageFlagBits, VkFormatFeatureFlagBits)] = [
            (VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT),
            (VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT),
            (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT),
            (VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT),
        ]
        for (use, feature) in pairs where usage & VkImageUsageFlags(use.rawValue) != 0
            && features & VkFormatFeatureFlags(feature.rawValue) != 0 {
            kept |= VkImageUsageFlags(use.rawValue)
        }
        return kept
    }

    /// Whether a storage image declared without a format may read and write a view of
    /// `format` (optimal tiling): Vulkan 1.3 grants the capabilities but leaves the
    /// support to each format's `STORAGE_READ_WITHOUT_FORMAT` and `…WRITE…` features.
    func storageAccessWithoutFormat(_ format: VkFormat) -> SPIRVFormatlessAccess {
        var features3 = VkFormatProperties3()
        features3.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3
        var properties = VkFormatProperties2()
        properties.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2
        withUnsafeMutablePointer(to: &features3) { features3 in
            properties.pNext = UnsafeMutableRawPointer(features3)
            vkGetPhysicalDeviceFormatProperties2(handle, format, &properties)
        }
        let features = features3.optimalTilingFeatures
        var access: SPIRVFormatlessAccess = []
        if features & VkFormatFeatureFlags2(VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT) != 0 { access.insert(.read) }
        if features & VkFormatFeatureFlags2(VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT) != 0 { access.insert(.write) }
        return access
    }
}
