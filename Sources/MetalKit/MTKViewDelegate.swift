import Foundation

/// MetalKit's `MTKViewDelegate`: what draws a view's frames.
@MainActor
public protocol MTKViewDelegate: AnyObject {
    /// The view's drawable size is about to become `size`, in pixels.
    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize)
    /// Draws the view's frame: render into `view.currentDrawable` and present it.
    func draw(in view: MTKView)
}
