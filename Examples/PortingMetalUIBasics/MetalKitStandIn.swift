// Not part of the ported sample: MetalKit's MTKView, which SwiftGPU does not offer, as far
// as the sample uses it, over a headless `Layer` (a virtual display at 60 Hz) so that the
// sample's view-controller code runs unchanged. `draw()` is what MetalKit calls each frame.

import FramePacing
import Foundation
import GPU

/// The methods MetalKit calls on a view's delegate.
protocol MTKViewDelegate: AnyObject {
    /// The drawable size changed.
    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize)
    /// Draw one frame into `view`.
    func draw(in view: MTKView)
}

/// A view that draws into the drawables of a headless layer.
final class MTKView {
    var device: Device?
    weak var delegate: (any MTKViewDelegate)?
    var clearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 1)
    var colorPixelFormat = PixelFormat.bgra8Unorm
    var enableSetNeedsDisplay = false
    var isPaused = false
    /// The size of the layer's drawables, in pixels.
    var drawableSize: CGSize
    /// The layer the view draws into.
    let layer: Layer
    /// The drawable of the frame being drawn; taken by `currentDrawable`.
    private var drawable: Drawable?
    /// The drawable the last frame drew into.
    private(set) var lastDrawable: Drawable?

    init(frame: CGRect, device: Device?) {
        self.device = device
        drawableSize = frame.size
        layer = try! Layer(device: device!, surface: .headless(width: Int(frame.width), height: Int(frame.height),
                                                                display: VirtualDisplay(refreshRate: 60)))
    }

    /// The drawable of the frame being drawn.
    var currentDrawable: Drawable? {
        if drawable == nil { drawable = layer.nextDrawable() }
        return drawable
    }

    /// A pass that clears the current drawable to `clearColor` and stores it.
    var currentRenderPassDescriptor: RenderPassDescriptor? {
        guard let drawable = currentDrawable else { return nil }
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        pass.colorAttachments[0].clearColor = clearColor
        return pass
    }

    /// Draws one frame through the delegate.
    func draw() {
        delegate?.draw(in: self)
        lastDrawable = drawable
        drawable = nil
    }
}
