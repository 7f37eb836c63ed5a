import FramePacing

/// Where a `Layer` shows its drawables.
///
/// Only the headless surface exists so far: window surfaces (xcb, Xlib, Wayland) are
/// issue 6's remaining work.
public enum LayerSurface: Sendable {
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
