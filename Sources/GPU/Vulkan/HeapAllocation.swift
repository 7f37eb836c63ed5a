import CVulkan

/// A heap's one `VkDeviceMemory`, mapped for its lifetime when host-visible: the buffers
/// and images made from the heap are bound at offsets in it, and each keeps it alive.
///
/// `@unchecked Sendable`: everything is immutable after `init`.
final class HeapAllocation: @unchecked Sendable {
    let device: DeviceBackend
    let memory: VkDeviceMemory
    /// The size of `memory` in bytes.
    let size: Int
    /// The memory type `memory` was allocated from.
    let memoryTypeIndex: UInt32
    /// The host mapping of the whole memory; nil for device-local (private) heaps.
    let mapped: UnsafeMutableRawPointer?

    /// Allocates `size` bytes of the memory type buffers use: host-visible and coherent
    /// when `hostVisible`, else device-local.
    init(device: DeviceBackend, size: Int, hostVisible: Bool) throws(VulkanError) {
        self.device = device
        self.size = size
        let vk = device.handle
        let probe = Self.bufferRequirements(device: device, length: 4)
        guard let type = BufferAllocation.memoryType(device: device, typeBits: probe.typeBits, hostVisible: hostVisible) else { throw VulkanError(code: .outOfDeviceMemory, callSite: "vkAllocateMemory") }
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = VkDeviceSize(size)
        allocation.memoryTypeIndex = type
        var memory: VkDeviceMemory?
        try BufferAllocation.withAllocationChain(on: device) { (chain) throws(VulkanError) in
            allocation.pNext = chain
            try vkCall(.allocateMemory, device.unretainedFaults) { vkAllocateMemory(vk, &allocation, nil, &memory) }
        }
        guard let memory else { throw VulkanError(code: .outOfDeviceMemory, callSite: "vkAllocateMemory") }
        var pointer: UnsafeMutableRawPointer?
        if hostVisible {
            do throws(VulkanError) {
                try vkCall(.mapMemory, device.unretainedFaults) { vkMapMemory(vk, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer) }
            } catch {
                vkFreeMemory(vk, memory, nil)
                throw error
            }
        }
        self.memory = memory
        memoryTypeIndex = type
        mapped = pointer
    }

    /// Whether a resource whose requirements allow `typeBits` may be bound in this memory.
    func accepts(typeBits: UInt32) -> Bool { typeBits & (1 << memoryTypeIndex) != 0 }

    /// The size, alignment and memory types a buffer of `length` bytes needs, without
    /// making it (`vkGetDeviceBufferMemoryRequirements`).
    static func bufferRequirements(device: DeviceBackend, length: Int) -> (size: Int, alignment: Int, typeBits: UInt32) {
        var info = BufferAllocation.createInfo(length: length, device: device)
        return withUnsafePointer(to: &info) { info in
            var query = VkDeviceBufferMemoryRequirements()
            query.sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS
            query.pCreateInfo = info
            return requirements { vkGetDeviceBufferMemoryRequirements(device.handle, &query, $0) }
        }
    }

    /// The size, alignment and memory types an image of `descriptor` needs, without making
    /// it (`vkGetDeviceImageMemoryRequirements`).
    static func imageRequirements(device: DeviceBackend, descriptor: TextureSpec) -> (size: Int, alignment: Int, typeBits: UInt32) {
        var info = ImageAllocation.createInfo(descriptor)
        return withUnsafePointer(to: &info) { info in
            var query = VkDeviceImageMemoryRequirements()
            query.sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS
            query.pCreateInfo = info
            return requirements { vkGetDeviceImageMemoryRequirements(device.handle, &query, $0) }
        }
    }

    private static func requirements(_ query: (UnsafeMutablePointer<VkMemoryRequirements2>) -> Void)
        -> (size: Int, alignment: Int, typeBits: UInt32) {
        var result = VkMemoryRequirements2()
        result.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2
        query(&result)
        let found = result.memoryRequirements
        return (Int(found.size), Int(found.alignment), found.memoryTypeBits)
    }

    deinit {
        vkFreeMemory(device.handle, memory, nil)
    }
}
