import Foundation

/// MetalKit's `MTKViewDelegate`: what draws a view's frames.
///
/// Declared as Apple declares it: the protocol is not isolated to the main actor, its
/// requirements are (the view calls them on the main thread). So a renderer class that
/// conforms, as Metal's samples write one (`class Renderer: NSObject, MTKViewDelegate`), is
/// not made a main-actor class by conforming, and its completion handlers may touch its
/// own state, as they do on Apple platforms.
public protocol MTKViewDelegate: NSObjectProtocol {
    /// The view's drawable size is about to become `size`, in pixels.
    @MainActor func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize)
    /// Draws the view's frame: render into `view.currentDrawable` and present it.
    @MainActor func draw(in view: MTKView)
}
