import CVulkan

/// A `VkBuffer` with its own memory, mapped for its lifetime when host-visible.
///
/// `@unchecked Sendable`: the handles and the mapping are immutable after `init`; the
/// contents are the caller's to synchronise, as with Metal's `contents()`.
final class BufferAllocation: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkBuffer
    let memory: VkDeviceMemory
    let length: Int
    /// The host mapping; nil for device-local (private) buffers.
    let mapped: UnsafeMutableRawPointer?

    static let allUsage = VkBufferUsageFlags(
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
            | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_INDEX_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT.rawValue)

    /// Makes a buffer of `length` bytes, host-visible and coherent when `hostVisible`, else
    /// device-local.
    init(device: DeviceBackend, length: Int, hostVisible: Bool) throws(VulkanError) {
        self.device = device
        self.length = length
        let vk = device.handle
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(max(length, 4))
        info.usage = device.bufferDeviceAddresses
            ? Self.allUsage : Self.allUsage & ~VkBufferUsageFlags(VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT.rawValue)
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try vkCall(.createBuffer, device.faults) { vkCreateBuffer(vk, &info, nil, &buffer) }
        guard let buffer else { throw VulkanError(code: .initializationFailed, callSite: "vkCreateBuffer") }

        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(vk, buffer, &requirements)
        let hostFlags = VkMemoryPropertyFlags(
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
        let deviceLocal = VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
        let type = hostVisible
            ? device.physical.memoryType(typeBits: requirements.memoryTypeBits, required: hostFlags, preferred: hostFlags)
            : device.physical.memoryType(typeBits: requirements.memoryTypeBits, required: deviceLocal, preferred: deviceLocal)
        // Memory a shader reaches through the buffer's address (`gpuAddress`) is allocated
        // for device addresses, as Vulkan requires of a buffer with that usage.
        var addressFlags = VkMemoryAllocateFlagsInfo()
        addressFlags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO
        addressFlags.flags = device.bufferDeviceAddresses ? VkMemoryAllocateFlags(VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT.rawValue) : 0
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = type ?? 0
        var memory: VkDeviceMemory?
        do throws(VulkanError) {
            guard type != nil else { throw VulkanError(code: .outOfDeviceMemory, callSite: "vkAllocateMemory") }
            try withUnsafePointer(to: &addressFlags) { (flags) throws(VulkanError) in
                allocation.pNext = UnsafeRawPointer(flags)
                try vkCall(.allocateMemory, device.faults) { vkAllocateMemory(vk, &allocation, nil, &memory) }
            }
            try vkCall(.bindBufferMemory, device.faults) { vkBindBufferMemory(vk, buffer, memory, 0) }
            var pointer: UnsafeMutableRawPointer?
            if hostVisible {
                try vkCall(.mapMemory, device.faults) { vkMapMemory(vk, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer) }
            }
            mapped = pointer
        } catch {
            if let memory { vkFreeMemory(vk, memory, nil) }
            vkDestroyBuffer(vk, buffer, nil)
            throw error
        }
        handle = buffer
        self.memory = memory!
    }

    /// The buffer's device address, which shaders reach it through (`GL_EXT_buffer_reference`):
    /// fixed for the buffer's lifetime.
    var deviceAddress: UInt64 {
        var info = VkBufferDeviceAddressInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO
        info.buffer = handle
        return vkGetBufferDeviceAddress(device.handle, &info)
    }

    deinit {
        vkDestroyBuffer(device.handle, handle, nil)
        vkFreeMemory(device.handle, memory, nil)
    }
}
