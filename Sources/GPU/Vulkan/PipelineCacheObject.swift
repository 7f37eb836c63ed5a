import CVulkan

/// A `VkPipelineCache`, seeded with data a previous run saved. Vulkan synchronises access
/// to a pipeline cache internally.
///
/// `@unchecked Sendable`: the handle is immutable and the object is internally synchronised.
final class PipelineCacheObject: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkPipelineCache

    /// Makes a cache from `initialData` (empty for a new cache). The caller has checked
    /// the data's header against the device.
    init(device: DeviceBackend, initialData: [UInt8]) throws(VulkanError) {
        self.device = device
        var cache: VkPipelineCache?
        let vk = device.handle
        try vkCall(.createPipelineCache, device.unretainedFaults) {
            initialData.withUnsafeBytes { bytes in
                var info = VkPipelineCacheCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO
                info.initialDataSize = bytes.count
                info.pInitialData = bytes.baseAddress
                return vkCreatePipelineCache(vk, &info, nil, &cache)
            }
        }
        handle = cache!
    }

    deinit { vkDestroyPipelineCache(device.handle, handle, nil) }

    /// The cache's current contents.
    func data() throws(VulkanError) -> [UInt8] {
        var size = 0
        let vk = device.handle
        let handle = handle
        try vkCall(.getPipelineCacheData, device.unretainedFaults) { vkGetPipelineCacheData(vk, handle, &size, nil) }
        var bytes = [UInt8](repeating: 0, count: size)
        try vkCall(.getPipelineCacheData, device.unretainedFaults) {
            bytes.withUnsafeMutableBytes { vkGetPipelineCacheData(vk, handle, &size, $0.baseAddress) }
        }
        return Array(bytes.prefix(size))
    }

    /// The 32-byte header (`VkPipelineCacheHeaderVersionOne`) a cache for `physical` starts
    /// with: length, version 1, vendor, device, pipeline-cache UUID.
    static func expectedHeader(for physical: PhysicalDevice) -> [UInt8] {
        func bytes(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        return bytes(32) + bytes(1) + bytes(physical.vendorID) + bytes(physical.deviceID) + physical.pipelineCacheUUID
    }
}
