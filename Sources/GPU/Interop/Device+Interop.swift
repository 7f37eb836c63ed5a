import AppLifecycle

/// The handshake with a host that has Vulkan objects of its own: the instance extensions
/// SwiftGPU needs, a device on the host's instance, and SwiftGPU's own handles.
extension Device {
    /// The Vulkan API version SwiftGPU's devices need (1.3): a host's instance must be made
    /// for it or later.
    public static let vulkanAPIVersion: UInt32 = DeviceBackend.apiVersion

    /// The instance extensions a host's `VkInstance` must enable for layers on windows of
    /// `windowSystems` (none for headless work). Add them to the host's own list, e.g. SDL's
    /// `SDL_Vulkan_GetInstanceExtensions` or GLFW's `glfwGetRequiredInstanceExtensions`;
    /// `VK_EXT_debug_utils` is optional (debug labels, validation messages). A device on an
    /// instance without them cannot present: a window layer on it throws
    /// ``GPUError/presentationUnavailable(_:)``.
    public static func requiredVulkanInstanceExtensions(for windowSystems: Set<WindowSystem>) -> [String] {
        guard !windowSystems.isEmpty else { return [] }
        return ["VK_KHR_surface"] + WindowSystem.allCases.filter(windowSystems.contains).map(\.surfaceExtension)
    }

    /// A device on `host`'s `VkInstance` rather than SwiftGPU's own: its physical device, or
    /// the default choice among the instance's (as ``makeDefault(lifecycle:)`` chooses).
    /// The host keeps the instance and destroys it after every SwiftGPU object made from
    /// this device is gone. Throws `unsuitableHostInstance` for an instance made for a
    /// Vulkan version before ``vulkanAPIVersion`` or a physical device that lacks Vulkan 1.3
    /// or a graphics and compute queue family.
    public static func makeDefault(adopting host: ExternalVulkanInstance,
                                   lifecycle: AppLifecycle = .shared) throws(GPUError) -> Device {
        guard host.apiVersion >= vulkanAPIVersion else {
            throw .unsuitableHostInstance("the host's VkInstance was made for Vulkan \(versionString(host.apiVersion)); "
                + "SwiftGPU needs \(versionString(vulkanAPIVersion)) or later")
        }
        let instance = BackendInstance(adopting: host.instance, extensions: host.enabledExtensions, layers: host.enabledLayers)
        let found = try instance.physicalDevices(choosing: host.physicalDevice)
        if host.physicalDevice != nil && found.isEmpty {
            throw .unsuitableHostInstance("the physical device the host named lacks Vulkan 1.3 or a graphics and compute queue family")
        }
        let chosen = try choose(from: ordered(found), selector: host.physicalDevice == nil ? environment("GPU_DEVICE") : nil)
        return try Device(physical: chosen, lifecycle: lifecycle, usePushDescriptors: true,
                          cacheDirectory: PipelineCacheStore.defaultDirectory)
    }

    /// Waits until nothing SwiftGPU made on the host's instance `instance` is left (devices,
    /// their surfaces and SwiftGPU's validation messenger) or `timeout` passes; whether none
    /// is left. Call it before destroying an instance a device adopted: a device goes when
    /// the app's last reference and SwiftGPU's own (completion threads, the command-buffer
    /// recycler, which lets finished buffers go within about 100 ms) are gone, so not always
    /// at the moment the app lets go of it.
    public static func waitUntilReleased(hostInstance instance: OpaquePointer, timeout: Duration = .seconds(5)) -> Bool {
        BackendInstance.adopted.waitUntilReleased(instance, timeout: timeout)
    }

    /// Whether this device makes textures whose memory another API can import
    /// (`VK_KHR_external_memory_fd`; lavapipe and the GPU drivers offer it).
    public var supportsSharedTextures: Bool { backend.exportsMemory }

    /// A texture as ``makeTexture(descriptor:)`` makes one, with memory that another API on
    /// the same device can import (``Texture/makeSharedTextureHandle()``), as Metal's
    /// `makeSharedTexture(descriptor:)`. Throws `unsupportedTexture` where the device does
    /// not export memory.
    public func makeSharedTexture(descriptor: TextureDescriptor) throws(GPUError) -> Texture {
        guard supportsSharedTextures else {
            throw .unsupportedTexture("\(#function): this device does not export memory (VK_KHR_external_memory_fd)")
        }
        return try makeTexture(descriptor: descriptor, call: #function, shared: true)
    }

    /// The Vulkan objects under this device: an escape hatch for a host library that records
    /// or submits its own Vulkan work (see ``VulkanHandles`` for who destroys what).
    public var vulkanHandles: VulkanHandles { backend.handles }

    /// Runs `body` with the device's `VkQueue` and SwiftGPU's queue lock held, so that a
    /// host's `vkQueueSubmit` or `vkQueuePresentKHR` never overlaps SwiftGPU's on the same
    /// queue. Keep `body` short: every command queue of the device waits meanwhile. It must
    /// not call back into SwiftGPU.
    public func withVulkanQueue<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        try backend.withQueue(body)
    }

    /// "1.3" for a packed Vulkan version.
    static func versionString(_ version: UInt32) -> String { "\((version >> 22) & 0x7f).\((version >> 12) & 0x3ff)" }
}
