import CVulkan

extension PhysicalDevice {
    /// What the device can make for `descriptor`'s format, type and usage
    /// (`vkGetPhysicalDeviceImageFormatProperties`); nil when it cannot make such a
    /// texture at all.
    func imageCapabilities(for descriptor: TextureSpec) -> TextureCapabilities? {
        var properties = VkImageFormatProperties()
        let flags = descriptor.textureType == .typeCube ? VkImageCreateFlags(VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT.rawValue) : 0
        let result = vkGetPhysicalDeviceImageFormatProperties(handle, descriptor.pixelFormat.vkFormat, VK_IMAGE_TYPE_2D,
                                                              VK_IMAGE_TILING_OPTIMAL, descriptor.vkUsage, flags, &properties)
        guard result == VK_SUCCESS else { return nil }
        return TextureCapabilities(
            maxWidth: Int(properties.maxExtent.width), maxHeight: Int(properties.maxExtent.height),
            maxMipmapLevelCount: Int(properties.maxMipLevels), maxLayerCount: Int(properties.maxArrayLayers),
            sampleCounts: Set([1, 2, 4, 8, 16, 32, 64].filter { properties.sampleCounts & UInt32($0) != 0 }))
    }
}
