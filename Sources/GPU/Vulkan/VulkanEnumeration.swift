import CVulkan

/// Reads a Vulkan list in one call when `initialCapacity` holds it, rather than the usual
/// pair of calls (the count, then the items).
///
/// The loader and its layers redo the whole enumeration on every call: on lavapipe each
/// `vkEnumeratePhysicalDevices` or `vkEnumerateDeviceExtensionProperties` costs about
/// 1.2 M instructions and a megabyte of zeroed scratch memory, so the second call of the
/// pair was a measurable part of a launch. A list longer than the guess comes back
/// `VK_INCOMPLETE` and is read again into twice the room.
func enumerated<Element>(
    initialCapacity: Int, filler: Element,
    _ read: (inout UInt32, UnsafeMutablePointer<Element>) throws(VulkanError) -> VkResult
) throws(VulkanError) -> [Element] {
    var capacity = max(initialCapacity, 1)
    while true {
        var items = [Element](repeating: filler, count: capacity)
        var count = UInt32(capacity)
        let result = try read(&count, &items)
        if result != VK_INCOMPLETE { return Array(items.prefix(Int(count))) }
        capacity *= 2
    }
}
