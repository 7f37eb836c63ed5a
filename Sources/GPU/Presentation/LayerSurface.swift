import FramePacing

/// Where a `Layer` shows its drawables.
///
/// Window surfaces take the handles of a window the host made (with its own xcb, Xlib or
/// Wayland connection, so that a tool can render into a window it owns). SwiftGPU creates
/// the Vulkan surface through the loader and does not link the window-system libraries;
/// the host keeps the connection and the window alive for as long as the layer lives.
///
/// `@unchecked Sendable`: the handles are opaque values that SwiftGPU only hands to the
/// Vulkan surface-create call in `Layer(device:surface:)`; the host owns what they point to.
public enum LayerSurface: @unchecked Sendable {
    /// An X11 window through xcb: `connection` is the `xcb_connection_t *` from
    /// `xcb_connect`, `window` the `xcb_window_t`.
    case xcb(connection: OpaquePointer, window: UInt32)
    /// An X11 window through Xlib: `display` is the `Display *` from `XOpenDisplay`,
    /// `window` the `Window`.
    case xlib(display: OpaquePointer, window: UInt)
    /// A Wayland surface: `display` is the `wl_display *`, `surface` the `wl_surface *`
    /// (for example of an xdg_toplevel the host made).
    case wayland(display: OpaquePointer, surface: OpaquePointer)
    /// A `VkSurfaceKHR` the host made on the device's instance (``Device/vulkanHandles``, or
    /// the host's own instance the device adopted), e.g. with SDL's `SDL_Vulkan_CreateSurface`
    /// or GLFW's `glfwCreateWindowSurface`. The host keeps it: SwiftGPU never destroys it.
    /// Before destroying it, or making another layer on it, the host lets go of the layer
    /// and waits for ``Layer/waitUntilReleased(hostSurface:timeout:)``.
    case vulkan(surface: OpaquePointer)
    /// A ring of offscreen textures presented to `display`, which latches them at its own
    /// vblanks with the semantics of the layer's present mode.
    case headless(width: Int, height: Int, display: VirtualDisplay)
}

/// A drawable size in pixels.
public struct Size2D: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
