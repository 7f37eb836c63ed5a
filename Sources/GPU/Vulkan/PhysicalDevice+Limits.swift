import CVulkan

extension PhysicalDevice {
    /// The limits SwiftGPU checks arguments against, from the device's properties.
    func deviceLimits() -> DeviceLimits {
        var maintenance3 = VkPhysicalDeviceMaintenance3Properties()
        maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES
        var subgroup = VkPhysicalDeviceSubgroupProperties()
        subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES
        var properties = VkPhysicalDeviceProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
        withUnsafeMutablePointer(to: &subgroup) { subgroup in
            maintenance3.pNext = UnsafeMutableRawPointer(subgroup)
            withUnsafeMutablePointer(to: &maintenance3) { maintenance3 in
                properties.pNext = UnsafeMutableRawPointer(maintenance3)
                vkGetPhysicalDeviceProperties2(handle, &properties)
            }
        }
        let l = limits
        let size = l.maxComputeWorkGroupSize, count = l.maxComputeWorkGroupCount
        return DeviceLimits(
            maxImageDimension1D: Int(l.maxImageDimension1D),
            maxImageDimension2D: Int(l.maxImageDimension2D),
            maxImageDimension3D: Int(l.maxImageDimension3D),
            maxImageDimensionCube: Int(l.maxImageDimensionCube),
            maxImageArrayLayers: Int(l.maxImageArrayLayers),
            maxThreadsPerThreadgroup: Size(width: Int(size.0), height: Int(size.1), depth: Int(size.2)),
            maxTotalThreadsPerThreadgroup: Int(l.maxComputeWorkGroupInvocations),
            threadExecutionWidth: max(1, Int(subgroup.subgroupSize)),
            maxThreadgroupsPerGrid: Size(width: Int(count.0), height: Int(count.1), depth: Int(count.2)),
            maxViewportWidth: Int(l.maxViewportDimensions.0),
            maxViewportHeight: Int(l.maxViewportDimensions.1),
            viewportBounds: Double(l.viewportBoundsRange.0)...Double(l.viewportBoundsRange.1),
            maxSamplerLodBias: l.maxSamplerLodBias,
            maxSamplerAnisotropy: l.maxSamplerAnisotropy,
            storageBufferOffsetAlignment: Int(l.minStorageBufferOffsetAlignment),
            uniformBufferOffsetAlignment: Int(l.minUniformBufferOffsetAlignment),
            maxFramebufferWidth: Int(l.maxFramebufferWidth),
            maxFramebufferHeight: Int(l.maxFramebufferHeight),
            maxColorAttachments: Int(l.maxColorAttachments),
            maxBufferLength: Int(clamping: maintenance3.maxMemoryAllocationSize),
            maxVertexAttributeOffset: Int(l.maxVertexInputAttributeOffset),
            maxVertexBufferStride: Int(l.maxVertexInputBindingStride),
            maxVertexOutputComponents: Int(l.maxVertexOutputComponents),
            maxFragmentInputComponents: Int(l.maxFragmentInputComponents),
            maxPushConstantBytes: Int(l.maxPushConstantsSize),
            maxThreadgroupMemoryLength: Int(l.maxComputeSharedMemorySize))
    }
}
