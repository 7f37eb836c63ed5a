import FramePacing
import Foundation
import GPU
import Metal

/// MetalKit's `MTKView` on a SwiftGPU layer: headless, a ring of drawables shown on a
/// `VirtualDisplay`, or on a window, its swapchain. `draw()` asks the delegate for a frame;
/// a display link on the view's clock calls it at `preferredFramesPerSecond` unless the view
/// is paused or drawn on demand (`enableSetNeedsDisplay`), and pauses while the device's
/// lifecycle is not active.
///
/// A main-actor class, as AppKit's and UIKit's views are, and, as they are to Swift (the
/// annotation of an Objective-C class comes to Swift as `@preconcurrency`), one whose
/// isolation Swift 5 code is not held to: a Metal sample's renderer, a nonisolated class,
/// sets its view's `device`, `delegate` and `clearColor` as it does on Apple platforms.
/// Swift 6 code is held to it.
@preconcurrency @MainActor
open class MTKView {
    /// Where the drawables are shown.
    private enum Screen {
        /// Headless, on a virtual display.
        case display(VirtualDisplay)
        /// A window's surface.
        case window(LayerSurface)
    }
    /// Where this view's drawables are shown.
    private let screen: Screen
    /// The display a headless view's drawables are shown on, whose vblanks drive its draw
    /// loop; `nil` for a view on a window.
    public var display: VirtualDisplay? {
        if case .display(let display) = screen { display } else { nil }
    }
    /// The window surface of a view on a window; `nil` for a headless view.
    public var windowSurface: LayerSurface? {
        if case .window(let surface) = screen { surface } else { nil }
    }
    /// The clock whose frame boundaries drive the draw loop: a headless view's display, or
    /// the clock a view on a window was given.
    public let clock: any DisplayClock
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
        self.screen = .display(display)
        self.clock = display
        self.drawableSize = frameRect.size
        self.device = device
        makeLayer()
    }

    /// A view on a window: its drawables are the swapchain images of `surface` (an xcb,
    /// Xlib or Wayland window, or a Vulkan surface the host made), of the window's size,
    /// which `drawableSize` follows (the delegate hears of each change); its draw loop runs
    /// on `clock` (the window server's, such as GPUXCB's `XPresentClock`, a
    /// `MonotonicClock`, or a `VirtualDisplay` the app advances). `frame`'s size is the
    /// drawables' first size (a Wayland surface takes it). Stops for a headless surface.
    public init(frame frameRect: CGRect, device: (any MTLDevice)?, surface: LayerSurface, clock: any DisplayClock) {
        if case .headless = surface {
            fatalError("SwiftGPU API misuse: MTKView(frame:device:surface:clock:): a headless surface; use init(frame:device:display:)")
        }
        self.screen = .window(surface)
        self.clock = clock
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
    /// The colour `currentRenderPassDescriptor` clears to.
    public var clearColor = MTLClearColorMake(0, 0, 0, 1)
    /// The drawables' size in pixels; the delegate hears of a change before it happens.
    public var drawableSize: CGSize {
        willSet { if newValue != drawableSize { delegate?.mtkView(self, drawableSizeWillChange: newValue) } }
        didSet {
            let size = Size2D(width: Int(drawableSize.width), height: Int(drawableSize.height))
            if let layer, layer.drawableSize != size { layer.drawableSize = size }
        }
    }

    /// The drawable to render this frame into, or `nil` when none is free. While every
    /// drawable is in flight, this waits for one, letting a headless display's time pass
    /// as a screen's would (see `Layer.advancesVirtualDisplayWhileWaiting`). On a window,
    /// a drawable of a new window size updates `drawableSize` first.
    public var currentDrawable: (any MTLDrawable)? {
        if drawable == nil {
            drawable = layer?.nextDrawable()
            if windowSurface != nil, let texture = drawable?.texture {
                let size = CGSize(width: texture.width, height: texture.height)
                if size != drawableSize { drawableSize = size }
            }
        }
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

    /// The layer of the device on the view's display or window, if there is a device, and
    /// the display link, which follows the device's lifecycle.
    private func makeLayer() {
        drawable = nil
        attachmentTextures.key = nil
        guard let device else {
            layer = nil
            startDisplayLink()
            return
        }
        guard let own = device as? Device else {
            fatalError("SwiftGPU API misuse: MTKView.device: \(type(of: device)) is not a SwiftGPU Device")
        }
        let size = Size2D(width: Int(drawableSize.width), height: Int(drawableSize.height))
        do {
            let layer: Layer
            switch screen {
            case .display(let display):
                layer = try Layer(device: own, surface: .headless(width: size.width, height: size.height, display: display))
                // The view stands in for the screen: waiting for a drawable, its display's
                // vblanks go on, as a screen's do.
                layer.advancesVirtualDisplayWhileWaiting = true
            case .window(let surface):
                layer = try Layer(device: own, surface: surface)
                // A Wayland surface starts at 0×0 and takes this size; an X window's
                // swapchain takes the window's.
                if layer.drawableSize.width == 0 || layer.drawableSize.height == 0 { layer.drawableSize = size }
            }
            layer.pixelFormat = colorPixelFormat
            self.layer = layer
        } catch {
            fatalError("MTKView: the layer could not be made: \(error)")
        }
        startDisplayLink()
    }
}
