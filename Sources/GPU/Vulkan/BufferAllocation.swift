import CVulkan

/// A `VkBuffer` with its own memory, mapped for its lifetime when host-visible, or bound
/// at an offset in a heap's memory.
///
/// `@unchecked Sendable`: the handles and the mapping are immutable after `init`; the
/// contents are the caller's to synchronise, as with Metal's `contents()`.
final class BufferAllocation: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkBuffer
    /// The buffer's own memory; nil for a buffer in a heap's.
    let memory: VkDeviceMemory?
    /// The heap whose memory the buffer is bound in, kept alive with it.
    let heap: HeapAllocation?
    let length: Int
    /// The host mapping; nil for device-local (private) buffers.
    let mapped: UnsafeMutableRawPointer?

    static let allUsage = VkBufferUsageFlags(
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
            | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_INDEX_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT.rawValue)

    /// Every use of a buffer on `device`: `allUsage`, and shaders' access through the
    /// buffer's address (`gpuAddress`) where the device has buffer device addresses.
    static func usage(on device: DeviceBackend) -> VkBufferUsageFlags {
        device.bufferDeviceAddresses ? allUsage | VkBufferUsageFlags(VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT.rawValue) : allUsage
    }

    /// Runs `body` with the `pNext` a memory allocation for buffers on `device` needs: memory
    /// for device addresses where buffers have them, as Vulkan requires of a buffer with
    /// that usage; nil elsewhere.
    static func withAllocationChain<T>(on device: DeviceBackend,
                                       _ body: (UnsafeRawPointer?) throws(VulkanError) -> T) throws(VulkanError) -> T {
        guard device.bufferDeviceAddresses else { return try body(nil) }
        var addressFlags = VkMemoryAllocateFlagsInfo()
        addressFlags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO
        addressFlags.flags = VkMemoryAllocateFlags(VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT.rawValue)
        return try withUnsafePointer(to: &addressFlags) { (flags) throws(VulkanError) -> T in try body(UnsafeRawPointer(flags)) }
    }

    /// Makes a buffer of `length` bytes, host-visible and coherent when `hostVisible`, else
    /// device-local.
    init(device: DeviceBackend, length: Int, hostVisible: Bool) throws(VulkanError) {
        self.device = device
        self.length = length
        let vk = device.handle
        let buffer = try Self.makeBuffer(device: device, length: length)

        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(vk, buffer, &requirements)
        let type = Self.memoryType(device: device, typeBits: requirements.memoryTypeBits, hostVisible: hostVisible)
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = type ?? 0
        var memory: VkDeviceMemory?
        do throws(VulkanError) {
            guard type != nil else { throw VulkanError(code: .outOfDeviceMemory, callSite: "vkAllocateMemory") }
            try Self.withAllocationChain(on: device) { (chain) throws(VulkanError) in
                allocation.pNext = chain
                try vkCall(.allocateMemory, device.unretainedFaults) { vkAllocateMemory(vk, &allocation, nil, &memory) }
            }
            try vkCall(.bindBufferMemory, device.unretainedFaults) { vkBindBufferMemory(vk, buffer, memory, 0) }
            var pointer: UnsafeMutableRawPointer?
            if hostVisible {
                try vkCall(.mapMemory, device.unretainedFaults) { vkMapMemory(vk, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer) }
            }
            mapped = pointer
        } catch {
            if let memory { vkFreeMemory(vk, memory, nil) }
            vkDestroyBuffer(vk, buffer, nil)
            throw error
        }
        handle = buffer
        self.memory = memory!
        heap = nil
    }

    /// Makes a buffer of `length` bytes bound at `offset` in `heap`'s memory (an offset its
    /// requirements align, checked by the caller), mapped there when the heap is.
    init(heap: HeapAllocation, offset: Int, length: Int) throws(VulkanError) {
        device = heap.device
        self.length = length
        let vk = device.handle
        let buffer = try Self.makeBuffer(device: device, length: length)
        do throws(VulkanError) {
            try vkCall(.bindBufferMemory, device.unretainedFaults) { vkBindBufferMemory(vk, buffer, heap.memory, VkDeviceSize(offset)) }
        } catch {
            vkDestroyBuffer(vk, buffer, nil)
            throw error
        }
        handle = buffer
        memory = nil
        self.heap = heap
        mapped = heap.mapped.map { $0 + offset }
    }

    /// The create info of a buffer of `length` bytes on `device`, for every use.
    static func createInfo(length: Int, device: DeviceBackend) -> VkBufferCreateInfo {
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(max(length, 4))
        info.usage = usage(on: device)
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        return info
    }

    /// A `VkBuffer` of `length` bytes, with no memory bound.
    private static func makeBuffer(device: DeviceBackend, length: Int) throws(VulkanError) -> VkBuffer {
        var info = createInfo(length: length, device: device)
        var buffer: VkBuffer?
        try vkCall(.createBuffer, device.unretainedFaults) { vkCreateBuffer(device.handle, &info, nil, &buffer) }
        guard let buffer else { throw VulkanError(code: .initializationFailed, callSite: "vkCreateBuffer") }
        return buffer
    }

    /// The memory type of `typeBits` for buffers: host-visible and coherent when
    /// `hostVisible`, else device-local.
    static func memoryType(device: DeviceBackend, typeBits: UInt32, hostVisible: Bool) -> UInt32? {
        let hostFlags = VkMemoryPropertyFlags(
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
        let deviceLocal = VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
        return hostVisible
            ? device.physical.memoryType(typeBits: typeBits, required: hostFlags, preferred: hostFlags)
            : device.physical.memoryType(typeBits: typeBits, required: deviceLocal, preferred: deviceLocal)
    }

    /// The buffer's device address, which shaders reach it through (`GL_EXT_buffer_reference`):
    /// fixed for the buffer's lifetime. Only on a device with buffer device addresses.
    var deviceAddress: UInt64 {
        var info = VkBufferDeviceAddressInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO
        info.buffer = handle
        return vkGetBufferDeviceAddress(device.handle, &info)
    }

    deinit {
        vkDestroyBuffer(device.handle, handle, nil)
        if let memory { vkFreeMemory(device.handle, memory, nil) }
    }
}
