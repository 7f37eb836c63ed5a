import CVulkan

/// The backend's side of the handshake with a host that has Vulkan objects of its own.
extension VulkanInstance {
    /// Whether the loader offers `name` as an instance extension.
    static func isAvailable(_ name: String) -> Bool { availableExtensions().contains(name) }

    /// The physical devices of an adopted instance that qualify, or only `chosen` where the
    /// host names one (empty when it does not qualify).
    func physicalDevices(choosing chosen: OpaquePointer?) throws(GPUError) -> [VulkanPhysicalDevice] {
        guard let chosen else { return try physicalDevices() }
        return VulkanPhysicalDevice(instance: self, handle: chosen).map { [$0] } ?? []
    }
}

extension VulkanDevice {
    /// The device's Vulkan objects, for ``VulkanHandles``.
    var handles: VulkanHandles {
        VulkanHandles(instance: physical.instance.handle, physicalDevice: physical.handle, device: handle,
                      queueFamilyIndex: physical.queueFamily, queue: withQueue { $0 }, apiVersion: Self.apiVersion,
                      instanceExtensions: physical.instance.enabledExtensions, deviceExtensions: enabledExtensions)
    }
}

extension Buffer {
    /// The `VkBuffer` under the buffer, for a host's own commands (declare them with an
    /// encoder's `useResource(_:usage:)`). SwiftGPU destroys it with the buffer.
    public var vulkanBuffer: OpaquePointer { backing.handle }
}

extension Texture {
    /// The `VkImage` under the texture, for a host's own commands (declare them with an
    /// encoder's `useResource(_:usage:)`). SwiftGPU destroys it with the texture, or once its
    /// contents are discarded (purgeable state empty) and the command buffers using it
    /// complete; a texture given memory again has a new `VkImage`. Stops for an empty texture.
    public var vulkanImage: OpaquePointer { backing.handle }

    /// The `VkImageLayout` the image rests in between commands, which a host's commands
    /// find it in and must leave it in: general for `.shaderWrite` textures, shader-read
    /// for sampled ones, the attachment layout for render targets.
    public var vulkanImageLayout: UInt32 { backing.restingLayout.rawValue }
}

extension PixelFormat {
    /// The `VkFormat` of the format, for a host pipeline that draws into SwiftGPU's passes.
    public var vulkanFormat: UInt32 { vkFormat.rawValue }
}

extension VulkanDevice {
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
        try vkCall(.getMemoryFd, faults) { get(device, &info, &descriptor) }
        return descriptor
    }
}

extension VulkanPhysicalDevice {
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

extension Texture {
    /// Whether the texture's memory can be exported (made by `makeSharedTexture(descriptor:)`),
    /// Metal's `isShareable`.
    public var isShareable: Bool { isExportable }

    /// Exports the memory of a texture made by `makeSharedTexture(descriptor:)`: a new file
    /// descriptor each call (see ``SharedTextureHandle`` for the importer's rules). Stops
    /// with a misuse message for a texture made otherwise.
    public func makeSharedTextureHandle() throws(GPUError) -> SharedTextureHandle {
        guard isShareable, let memory = backing.memory else {
            misuse("makeSharedTextureHandle(): the texture was not made by makeSharedTexture(descriptor:)")
        }
        let descriptor: Int32
        do {
            descriptor = try backing.device.exportFileDescriptor(of: memory)
        } catch {
            throw .vulkan(error)
        }
        let uuids = backing.device.physical.uuids
        return SharedTextureHandle(fileDescriptor: descriptor, allocationSize: backing.allocationSize, width: width,
                                   height: height, pixelFormat: pixelFormat, deviceUUID: uuids.device, driverUUID: uuids.driver)
    }
}

extension Device {
    /// The device's and driver's UUIDs (16 bytes each), which an API importing a shared
    /// texture compares with its own (see ``SharedTextureHandle``).
    public var sharedTextureUUIDs: (device: [UInt8], driver: [UInt8]) { backend.physical.uuids }
}
