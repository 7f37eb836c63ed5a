import FramePacing
import Foundation
import GPU
import Metal

/// MetalKit's `MTKView` on SwiftGPU's headless layer: a ring of drawables shown on a
/// `VirtualDisplay`. `draw()` asks the delegate for a frame; a display link on the display
/// calls it at `preferredFramesPerSecond` unless the view is paused or drawn on demand
/// (`enableSetNeedsDisplay`).
///
/// A main-actor class, as AppKit's and UIKit's views are, and, as they are to Swift (the
/// annotation of an Objective-C class comes to Swift as `@preconcurrency`), one whose
/// isolation Swift 5 code is not held to: a Metal sample's renderer, a nonisolated class,
/// sets its view's `device`, `delegate` and `clearColor` as it does on Apple platforms.
/// Swift 6 code is held to it.
@preconcurrency @MainActor
open class MTKView {
    /// The display the drawables are shown on, whose vblanks drive the view's draw loop.
    public let display: VirtualDisplay
    /// The layer the drawables come from, made with the device.
    private var layer: Layer?
    /// The drawable of the frame being drawn, taken on first use.
    private var drawable: Drawable?
    /// The view's own depth-stencil and multisample colour textures.
    var attachmentTextures = AttachmentTextures()
    /// Calls `draw()` on the display's vblanks while the view's loop runs or it needs display.
    var displayLink: DisplayLink?
    /// Whether `draw()` is running: a display-link callback then (the display advanced while
    /// the view waited for a drawable) draws nothing.
    var isDrawing = false
    /// Whether `setNeedsDisplay()` asked for a frame not drawn yet.
    var displayRequested = false
    /// `preferredFramesPerSecond`.
    var framesPerSecond = 60
    /// `isPaused`.
    var loopPaused = false
    /// `enableSetNeedsDisplay`.
    var drawsOnDemand = false

    /// A view of `frame`'s size in pixels on `display`, drawing with `device`. Its draw
    /// loop runs on `display`: each time the display is advanced past a frame boundary at
    /// `preferredFramesPerSecond`, the view draws.
    public init(frame frameRect: CGRect, device: (any MTLDevice)?, display: VirtualDisplay = VirtualDisplay()) {
        self.display = display
        self.drawableSize = frameRect.size
        self.device = device
        makeLayer()
        startDisplayLink()
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
    /// The colour `currentRenderPassDescriptor` clears to.
    public var clearColor = MTLClearColorMake(0, 0, 0, 1)
    /// The drawables' size in pixels; the delegate hears of a change before it happens.
    public var drawableSize: CGSize {
        willSet { if newValue != drawableSize { delegate?.mtkView(self, drawableSizeWillChange: newValue) } }
        didSet { layer?.drawableSize = Size2D(width: Int(drawableSize.width), height: Int(drawableSize.height)) }
    }

    /// The drawable to render this frame into, or `nil` when none is free. While every
    /// drawable is in flight, this waits for one, letting the display's time pass as a
    /// screen's would (see `Layer.advancesVirtualDisplayWhileWaiting`).
    public var currentDrawable: (any MTLDrawable)? {
        if drawable == nil { drawable = layer?.nextDrawable() }
        return drawable
    }

    /// A pass for this frame, set up as MetalKit's: colour attachment 0 cleared to
    /// `clearColor` and stored into `currentDrawable`'s texture, or, with a `sampleCount`
    /// above 1, rendered into `multisampleColorTexture` and resolved into the drawable;
    /// with a `depthStencilPixelFormat`, `depthStencilTexture` as the depth attachment
    /// cleared to `clearDepth` (and, for a format with stencil, the stencil attachment
    /// cleared to `clearStencil`), neither stored. `nil` without a drawable.
    public var currentRenderPassDescriptor: MTLRenderPassDescriptor? {
        guard currentDrawable != nil, let drawable else { return nil }
        let textures = attachments(width: drawable.texture.width, height: drawable.texture.height)
        let pass = MTLRenderPassDescriptor()
        let color = pass.colorAttachments[0]!
        color.loadAction = .clear
        color.clearColor = clearColor
        if let multisample = textures.multisampleColor {
            color.texture = multisample
            color.resolveTexture = drawable.texture
            color.storeAction = .multisampleResolve
        } else {
            color.texture = drawable.texture
            color.storeAction = .store
        }
        if let depthStencil = textures.depthStencil {
            pass.depthAttachment.texture = depthStencil
            pass.depthAttachment.loadAction = .clear
            pass.depthAttachment.storeAction = .dontCare
            pass.depthAttachment.clearDepth = clearDepth
            if depthStencil.pixelFormat.hasStencil {
                pass.stencilAttachment.texture = depthStencil
                pass.stencilAttachment.loadAction = .clear
                pass.stencilAttachment.storeAction = .dontCare
                pass.stencilAttachment.clearStencil = clearStencil
            }
        }
        return pass
    }

    /// Draws one frame: the delegate's `draw(in:)`, then the next frame takes a new
    /// drawable. A call made while a frame is being drawn (from the delegate) does nothing.
    open func draw() {
        guard !isDrawing else { return }
        isDrawing = true
        defer {
            isDrawing = false
            drawable = nil
        }
        delegate?.draw(in: self)
    }

    /// The headless layer of the device, if there is one.
    private func makeLayer() {
        drawable = nil
        attachmentTextures.key = nil
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
