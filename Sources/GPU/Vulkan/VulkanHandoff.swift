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
    /// encoder's `useResource(_:usage:)`). SwiftGPU destroys it with the texture.
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
