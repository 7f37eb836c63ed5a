import CVulkan

/// The backend's side of the handshake with a host that has Vulkan objects of its own.
extension BackendInstance {
    /// Whether the loader offers `name` as an instance extension.
    static func isAvailable(_ name: String) -> Bool { availableExtensions().contains(name) }

    /// The physical devices of an adopted instance that qualify, or only `chosen` where the
    /// host names one (empty when it does not qualify).
    func physicalDevices(choosing chosen: OpaquePointer?) throws(GPUError) -> [PhysicalDevice] {
        guard let chosen else { return try physicalDevices() }
        return PhysicalDevice(instance: self, handle: chosen).map { [$0] } ?? []
    }
}

extension DeviceBackend {
    /// The device's Vulkan objects, for ``VulkanHandles``.
    var handles: VulkanHandles {
        VulkanHandles(instance: physical.instance.handle, physicalDevice: physical.handle, device: handle,
                      queueFamilyIndex: physical.queueFamily, queue: withQueue { $0 }, apiVersion: Self.apiVersion,
                      instanceExtensions: physical.instance.enabledExtensions, deviceExtensions: enabledExtensions)
    }
}

extension ImageAllocation {
    /// The `VkImageLayout` the image rests in, as its raw value.
    var restingLayoutValue: UInt32 { restingLayout.rawValue }

    /// A new file descriptor for the image's exportable memory, with the device's and
    /// driver's UUIDs; nil for an image whose memory was not made exportable.
    func exportMemory() throws(VulkanError) -> (fileDescriptor: Int32, deviceUUID: [UInt8], driverUUID: [UInt8])? {
        guard isExportable, let memory else { return nil }
        let descriptor = try device.exportFileDescriptor(of: memory)
        let uuids = device.physical.uuids
        return (descriptor, uuids.device, uuids.driver)
    }
}

/// The raw `VkFormat` of a pixel format.
func vulkanFormatValue(of format: PixelFormat) -> UInt32 { format.vkFormat.rawValue }

extension DeviceBackend {
    /// Whether textures can be made with exportable memory.
    var exportsMemory: Bool { enabledExtensions.contains("VK_KHR_external_memory_fd") }

    /// A new file descriptor for `memory`, made exportable.
    func exportFileDescriptor(of memory: VkDeviceMemory) throws(VulkanError) -> Int32 {
        guard let get = unsafeBitCast(vkGetDeviceProcAddr(handle, "vkGetMemoryFdKHR"), to: PFN_vkGetMemoryFdKHR?.self) else {
            throw VulkanError(code: .extensionNotPresent, callSite: VulkanCallSite.getMemoryFd.rawValue)
        }
        var info = VkMemoryGetFdInfoKHR()
        info.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR
        info.memory = memory
        info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
        var descriptor: Int32 = -1
        let device = handle
        try vkCall(.getMemoryFd, unretainedFaults) { get(device, &info, &descriptor) }
        return descriptor
    }
}

extension PhysicalDevice {
    /// The device's and driver's UUIDs, which an importing API compares with its own.
    var uuids: (device: [UInt8], driver: [UInt8]) {
        var ids = VkPhysicalDeviceIDProperties()
        ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES
        var properties = VkPhysicalDeviceProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
        withUnsafeMutablePointer(to: &ids) { ids in
            properties.pNext = UnsafeMutableRawPointer(ids)
            vkGetPhysicalDeviceProperties2(handle, &properties)
        }
        return (withUnsafeBytes(of: ids.deviceUUID) { Array($0) }, withUnsafeBytes(of: ids.driverUUID) { Array($0) })
    }
}

extension DeviceBackend {
    /// The device's and driver's UUIDs (16 bytes each).
    var sharedTextureUUIDs: (device: [UInt8], driver: [UInt8]) { physical.uuids }
}
