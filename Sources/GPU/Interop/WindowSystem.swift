/// A window system whose windows a `Layer` can show drawables in: what a host's own
/// `VkInstance` must enable surfaces for (``Device/requiredVulkanInstanceExtensions(for:)``).
public enum WindowSystem: Sendable, Hashable, CaseIterable {
    /// X11 windows through xcb (`VK_KHR_xcb_surface`).
    case xcb
    /// X11 windows through Xlib (`VK_KHR_xlib_surface`); SDL and GLFW on X11 use it.
    case xlib
    /// Wayland surfaces (`VK_KHR_wayland_surface`).
    case wayland

    /// The instance extension that makes surfaces of this window system.
    public var surfaceExtension: String {
        switch self {
        case .xcb: "VK_KHR_xcb_surface"
        case .xlib: "VK_KHR_xlib_surface"
        case .wayland: "VK_KHR_wayland_surface"
        }
    }
}
