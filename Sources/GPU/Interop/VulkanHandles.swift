/// The Vulkan objects under a `Device`, for a host library that records or submits its own
/// Vulkan work beside SwiftGPU's (an escape hatch: nothing here is checked).
///
/// Ownership: SwiftGPU made the device and queue and destroys them when the `Device` goes;
/// the instance is SwiftGPU's own (alive as long as the process) unless the device was made
/// on a host's instance. Destroy nothing here. The queue is shared: Vulkan requires that no
/// two threads submit or present on it at once, so a host submits only inside
/// ``Device/withVulkanQueue(_:)``, which holds SwiftGPU's queue lock.
///
/// `@unchecked Sendable`: the handles are opaque values.
public struct VulkanHandles: @unchecked Sendable {
    /// The `VkInstance`.
    public var instance: OpaquePointer
    /// The `VkPhysicalDevice`.
    public var physicalDevice: OpaquePointer
    /// The `VkDevice`.
    public var device: OpaquePointer
    /// The queue family of ``queue``: graphics and compute.
    public var queueFamilyIndex: UInt32
    /// The `VkQueue` every command queue of the device submits to.
    public var queue: OpaquePointer
    /// The Vulkan API version the device was made for.
    public var apiVersion: UInt32
    /// The instance extensions enabled.
    public var instanceExtensions: Set<String>
    /// The device extensions enabled.
    public var deviceExtensions: Set<String>
}
