import CVulkan

/// A window the host made, as the handles Vulkan's surface-create functions take.
enum WindowSystemHandle {
    case xcb(connection: OpaquePointer, window: UInt32)
    case xlib(display: OpaquePointer, window: UInt)
    case wayland(display: OpaquePointer, surface: OpaquePointer)
    /// A `VkSurfaceKHR` the host made and keeps.
    case hostSurface(OpaquePointer)

    /// The instance extension that surfaces of this kind need.
    var extensionName: String {
        switch self {
        case .xcb: WindowSystem.xcb.surfaceExtension
        case .xlib: WindowSystem.xlib.surfaceExtension
        case .wayland: WindowSystem.wayland.surfaceExtension
        case .hostSurface: "VK_KHR_surface"
        }
    }
}

/// A `VkSurfaceKHR` over a host's window, with the queries a swapchain is built from.
///
/// The platform create function is looked up with `vkGetInstanceProcAddr` and called with
/// the create-info layouts declared in CVulkan's shim, so libGPU neither includes the
/// window-system headers nor links libxcb, libX11 or libwayland-client: the host, which
/// made the window, already has them.
///
/// `@unchecked Sendable`: every stored property is immutable; the surface is used by one
/// layer, under its locks.
final class PresentationSurface: @unchecked Sendable {
    let instance: BackendInstance
    let physical: PhysicalDevice
    let handle: VkSurfaceKHR
    /// Whether SwiftGPU made the surface (and destroys it); a host's surface stays the host's.
    private let isOwn: Bool
    private let faults: FaultInjector

    /// A surface over `window` for presenting from `device`'s queue family. Throws
    /// `extensionNotPresent` when the loader does not offer the window system's extension
    /// and `featureNotPresent` when the device's queue cannot present to it.
    init(window: WindowSystemHandle, device: DeviceBackend) throws(VulkanError) {
        let instance = device.physical.instance
        self.instance = instance
        physical = device.physical
        faults = device.faults
        guard instance.enabledExtensions.contains(window.extensionName),
              device.enabledExtensions.contains("VK_KHR_swapchain") else {
            throw VulkanError(code: .extensionNotPresent, callSite: VulkanCallSite.createSurface.rawValue)
        }
        let vk = instance.handle
        let surface: VkSurfaceKHR
        if case .hostSurface(let hostSurface) = window {
            surface = hostSurface
            isOwn = false
            Self.hostSurfaces.retain(hostSurface)
        } else {
            surface = try Self.create(window, on: vk, faults: faults)
            isOwn = true
        }
        handle = surface
        var supported: VkBool32 = 0
        let physicalHandle = physical.handle
        let family = physical.queueFamily
        do {
            try vkCall(.getSurfaceSupport, .passUnretained(faults)) {
                vkGetPhysicalDeviceSurfaceSupportKHR(physicalHandle, family, surface, &supported)
            }
        } catch {
            Self.letGo(surface, on: vk, isOwn: isOwn)
            throw error
        }
        guard supported != 0 else {
            Self.letGo(surface, on: vk, isOwn: isOwn)
            throw VulkanError(code: .featureNotPresent, callSite: VulkanCallSite.getSurfaceSupport.rawValue)
        }
    }

    /// A new surface over the host's `window` on `vk`, made with the window system's
    /// create function.
    private static func create(_ window: WindowSystemHandle, on vk: VkInstance, faults: FaultInjector) throws(VulkanError) -> VkSurfaceKHR {
        var surface: VkSurfaceKHR?
        try vkCall(.createSurface, .passUnretained(faults)) {
            switch window {
            case .xcb(let connection, let window):
                var info = SwiftGPUXcbSurfaceCreateInfo(
                    sType: VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR, pNext: nil, flags: 0,
                    connection: UnsafeMutableRawPointer(connection), window: window)
                let create = unsafeBitCast(vkGetInstanceProcAddr(vk, "vkCreateXcbSurfaceKHR"), to: SwiftGPUCreateXcbSurface?.self)
                return create?(vk, &info, nil, &surface) ?? VK_ERROR_EXTENSION_NOT_PRESENT
            case .xlib(let display, let window):
                var info = SwiftGPUXlibSurfaceCreateInfo(
                    sType: VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR, pNext: nil, flags: 0,
                    display: UnsafeMutableRawPointer(display), window: window)
                let create = unsafeBitCast(vkGetInstanceProcAddr(vk, "vkCreateXlibSurfaceKHR"), to: SwiftGPUCreateXlibSurface?.self)
                return create?(vk, &info, nil, &surface) ?? VK_ERROR_EXTENSION_NOT_PRESENT
            case .wayland(let display, let waylandSurface):
                var info = SwiftGPUWaylandSurfaceCreateInfo(
                    sType: VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR, pNext: nil, flags: 0,
                    display: UnsafeMutableRawPointer(display), surface: UnsafeMutableRawPointer(waylandSurface))
                let create = unsafeBitCast(vkGetInstanceProcAddr(vk, "vkCreateWaylandSurfaceKHR"),
                                           to: SwiftGPUCreateWaylandSurface?.self)
                return create?(vk, &info, nil, &surface) ?? VK_ERROR_EXTENSION_NOT_PRESENT
            case .hostSurface(let hostSurface):
                surface = hostSurface
                return VK_SUCCESS
            }
        }
        return surface!
    }

    deinit { Self.letGo(handle, on: instance.handle, isOwn: isOwn) }

    /// The wrappers of host surfaces that are alive; each goes after its swapchains.
    static let hostSurfaces = ReleaseRegistry()

    /// Destroys `surface` when SwiftGPU made it; a host's surface is only let go of.
    private static func letGo(_ surface: VkSurfaceKHR, on instance: VkInstance, isOwn: Bool) {
        if isOwn { vkDestroySurfaceKHR(instance, surface, nil) } else { hostSurfaces.release(surface) }
    }

    /// The surface's current extent (0×0 for a minimised or zero-size window; `UInt32.max`
    /// where the swapchain decides), image counts and usages.
    func capabilities() throws(VulkanError) -> VkSurfaceCapabilitiesKHR {
        var capabilities = VkSurfaceCapabilitiesKHR()
        let (physical, surface) = (physical.handle, handle)
        try vkCall(.getSurfaceCapabilities, .passUnretained(faults)) {
            vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &capabilities)
        }
        return capabilities
    }

    /// The window's size in pixels, or nil where the swapchain decides it (Wayland).
    func currentExtent() throws(VulkanError) -> (Int, Int)? {
        let extent = try capabilities().currentExtent
        return extent.width == .max ? nil : (Int(extent.width), Int(extent.height))
    }

    /// The formats and colour spaces the surface takes.
    func formats() throws(VulkanError) -> [VkSurfaceFormatKHR] {
        var count: UInt32 = 0
        let (physical, surface) = (physical.handle, handle)
        try vkCall(.getSurfaceFormats, .passUnretained(faults)) { vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, nil) }
        var formats = [VkSurfaceFormatKHR](repeating: .init(), count: Int(count))
        try vkCall(.getSurfaceFormats, .passUnretained(faults)) { vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, &formats) }
        return Array(formats.prefix(Int(count)))
    }

    /// The present modes the surface offers.
    func presentModes() throws(VulkanError) -> [VkPresentModeKHR] {
        var count: UInt32 = 0
        let (physical, surface) = (physical.handle, handle)
        try vkCall(.getSurfacePresentModes, .passUnretained(faults)) {
            vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, nil)
        }
        var modes = [VkPresentModeKHR](repeating: VK_PRESENT_MODE_FIFO_KHR, count: Int(count))
        try vkCall(.getSurfacePresentModes, .passUnretained(faults)) {
            vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, &modes)
        }
        return Array(modes.prefix(Int(count)))
    }
}
