import FramePacing
import Foundation
import GPU
import Metal

/// MetalKit's `MTKView` on SwiftGPU's headless layer: a ring of drawables shown on a
/// `VirtualDisplay`. `draw()` asks the delegate for a frame.
///
/// A main-actor class, as AppKit's and UIKit's views are, and, as they are to Swift (the
/// annotation of an Objective-C class comes to Swift as `@preconcurrency`), one whose
/// isolation Swift 5 code is not held to: a Metal sample's renderer, a nonisolated class,
/// sets its view's `device`, `delegate` and `clearColor` as it does on Apple platforms.
/// Swift 6 code is held to it.
@preconcurrency @MainActor
open class MTKView {
    /// The display the drawables are shown on.
    public let display: VirtualDisplay
    /// The layer the drawables come from, made with the device.
    private var layer: Layer?
    /// The drawable of the frame being drawn, taken on first use.
    private var drawable: Drawable?

    /// A view of `frame`'s size in pixels on `display`, drawing with `device`.
    public init(frame frameRect: CGRect, device: (any MTLDevice)?, display: VirtualDisplay = VirtualDisplay()) {
        self.display = display
        self.drawableSize = frameRect.size
        self.device = device
        makeLayer()
    }

    /// The device the view's drawables belong to; stops for a device SwiftGPU did not make.
    public var device: (any MTLDevice)? {
        didSet { makeLayer() }
    }
    /// What draws the view's frames.
    public weak var delegate: (any MTKViewDelegate)?
    /// The drawables' pixel format.
    public var colorPixelFormat: MTLPixelFormat = .bgra8Unorm {
        didSet { layer?.pixelFormat = colorPixelFormat }
    }
    /// The rate, in frames per second, the app asks to be drawn at; 60 by default, as
    /// MetalKit's. A headless view is drawn by `draw()`, at the app's pace, so the rate
    /// only informs a renderer that steps its animation by it (`1 / preferredFramesPerSecond`
    /// a frame). Stops for a rate below 1.
    public var preferredFramesPerSecond = 60 {
        didSet {
            guard preferredFramesPerSecond >= 1 else {
                fatalError("SwiftGPU API misuse: MTKView.preferredFramesPerSecond: \(preferredFramesPerSecond) is below 1 frame per second")
            }
        }
    }
    /// The colour `currentRenderPassDescriptor` clears to.
    public var clearColor = MTLClearColorMake(0, 0, 0, 1)
    /// The drawables' size in pixels; the delegate hears of a change before it happens.
    public var drawableSize: CGSize {
        willSet { if newValue != drawableSize { delegate?.mtkView(self, drawableSizeWillChange: newValue) } }
        didSet { layer?.drawableSize = Size2D(width: Int(drawableSize.width), height: Int(drawableSize.height)) }
    }

    /// The drawable to render this frame into, or `nil` when none is free.
    public var currentDrawable: (any MTLDrawable)? {
        if drawable == nil { drawable = layer?.nextDrawable() }
        return drawable
    }

    /// A pass that clears `currentDrawable` to `clearColor`, or `nil` without a drawable.
    public var currentRenderPassDescriptor: MTLRenderPassDescriptor? {
        guard currentDrawable != nil, let drawable else { return nil }
        let pass = MTLRenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        pass.colorAttachments[0].clearColor = clearColor
        return pass
    }

    /// Draws one frame: the delegate's `draw(in:)`, then the next frame takes a new drawable.
    open func draw() {
        delegate?.draw(in: self)
        drawable = nil
    }

    /// The headless layer of the device, if there is one.
    private func makeLayer() {
        drawable = nil
        guard let device else {
            layer = nil
            return
        }
        guard let own = device as? Device else {
            fatalError("SwiftGPU API misuse: MTKView.device: \(type(of: device)) is not a SwiftGPU Device")
        }
        do {
            let layer = try Layer(device: own, surface: .headless(width: Int(drawableSize.width),
                                                                  height: Int(drawableSize.height), display: display))
            layer.pixelFormat = colorPixelFormat
            // The view stands in for the screen: waiting for a drawable, its display's
            // vblanks go on, as a screen's do.
            layer.advancesVirtualDisplayWhileWaiting = true
            self.layer = layer
        } catch {
            fatalError("MTKView: the headless layer could not be made: \(error)")
        }
    }
}
