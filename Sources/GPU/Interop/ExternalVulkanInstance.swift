/// A `VkInstance` a host made (an SDL or GLFW app, a tool with its own Vulkan renderer),
/// for ``Device/makeDefault(adopting:lifecycle:)`` to make its device on.
///
/// The host keeps ownership: it destroys the instance, and only after the last SwiftGPU
/// object made from the device (device, queues, buffers, textures, layers) is gone.
/// Make it with at least ``Device/vulkanAPIVersion`` and, for windows, the extensions
/// ``Device/requiredVulkanInstanceExtensions(for:)`` lists.
///
/// `@unchecked Sendable`: the handles are opaque values; Vulkan instances and physical
/// devices may be used from any thread.
public struct ExternalVulkanInstance: @unchecked Sendable {
    /// The `VkInstance`.
    public var instance: OpaquePointer
    /// The `apiVersion` the instance was made with (`VkApplicationInfo.apiVersion`).
    public var apiVersion: UInt32
    /// The instance extensions it enabled: surfaces of a window system work only where its
    /// extension is here, and debug labels where `VK_EXT_debug_utils` is.
    public var enabledExtensions: [String]
    /// The layers it enabled. With `VK_LAYER_KHRONOS_validation` and `VK_EXT_debug_utils`
    /// both enabled, the layer's messages reach ``Validation`` as they do on SwiftGPU's own
    /// instance.
    public var enabledLayers: [String]
    /// The `VkPhysicalDevice` to open; nil chooses as ``Device/makeDefault(lifecycle:)`` does.
    public var physicalDevice: OpaquePointer?

    /// An instance the host made with `apiVersion`, `enabledExtensions` and `enabledLayers`.
    public init(instance: OpaquePointer, apiVersion: UInt32, enabledExtensions: [String], enabledLayers: [String] = [],
                physicalDevice: OpaquePointer? = nil) {
        self.instance = instance
        self.apiVersion = apiVersion
        self.enabledExtensions = enabledExtensions
        self.enabledLayers = enabledLayers
        self.physicalDevice = physicalDevice
    }
}
