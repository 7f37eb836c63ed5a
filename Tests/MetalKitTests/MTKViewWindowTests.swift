import GPU
import GPUTestSupport
import MetalKit
import Testing

@Suite("MetalKit's view on a window (Xvfb) and the lifecycle", .validated)
@MainActor
struct MTKViewWindowTests {
    /// Advances `clock` to its next vblank, where the view's display link draws.
    static func nextVblank(_ clock: VirtualDisplay) {
        let now = clock.now
        clock.advance(by: clock.vblank(atOrAfter: now + .nanoseconds(1)) - now)
    }

    @Test("an X11 window: frames the display link draws reach the window; drawableSize follows the window's size, the delegate told")
    func xcbWindow() throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let window = x.makeWindow(width: 64, height: 32)
        let clock = VirtualDisplay(refreshRate: 60)
        let device = MTLCreateSystemDefaultDevice()!
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: 64, height: 32), device: device,
                           surface: .xcb(connection: x.connection, window: window), clock: clock)
        #expect(view.display == nil && view.windowSurface != nil)
        view.clearColor = MTLClearColorMake(1, 0.5, 0, 1)
        let renderer = ClearingRenderer(device: device)
        view.delegate = renderer

        // Frames until the window shows the clear colour (BGR): presents reach the server
        // on the layer's present thread, after the frame's command buffer.
        var frames = 0
        while frames < 60, try x.pixel(of: window, width: 64, height: 32, x: 40, y: 20) != [0, 128, 255] {
            Self.nextVblank(clock)
            frames += 1
        }
        #expect(frames < 60, "the window shows the view's frames")
        #expect(renderer.presented.count == frames)
        #expect((renderer.presented.last as? Drawable)?.texture.width == 64)

        x.resize(window, width: 32, height: 16)
        frames = 0
        while frames < 60, view.drawableSize != CGSize(width: 32, height: 16) {
            Self.nextVblank(clock)
            frames += 1
        }
        #expect(view.drawableSize == CGSize(width: 32, height: 16))
        #expect(renderer.sizes == [CGSize(width: 32, height: 16)])
        Self.nextVblank(clock)
        #expect((renderer.presented.last as? Drawable)?.texture.width == 32)
    }

    @Test("a Wayland toplevel on Weston: frames the display link draws are presented to the compositor")
    func waylandWindow() throws {
        let server = try XvfbServer()
        let weston = try WestonServer(xDisplay: server.display)
        let window = try WaylandToplevel(socketPath: weston.socketPath, adapter: nil)
        let clock = VirtualDisplay(refreshRate: 60)
        let device = MTLCreateSystemDefaultDevice()!
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: 64, height: 32), device: device,
                           surface: .wayland(display: window.display, surface: try #require(window.surface)), clock: clock)
        #expect(view.display == nil && view.windowSurface != nil)
        let renderer = PresentCountingRenderer(device: device)
        view.delegate = renderer
        for _ in 0..<3 { Self.nextVblank(clock) }
        #expect(renderer.drawn == 3)
        #expect(renderer.waiter.wait(for: 3), "three frames presented to the compositor")
        #expect(renderer.sizes.allSatisfy { $0 == CGSize(width: 64, height: 32) })
    }

    @Test("the draw loop follows the device's lifecycle: no frames while the app is not active, frames again when it is")
    func lifecycle() throws {
        let lifecycle = AppLifecycle()
        let gpu = try TestGPU(lifecycle: lifecycle)
        let display = VirtualDisplay(refreshRate: 60)
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: gpu.device, display: display)
        let delegate = CountingDelegate()
        view.delegate = delegate
        display.advance(by: .milliseconds(100))
        #expect(delegate.frames.count == 6)
        lifecycle.willResignActive()
        display.advance(by: .milliseconds(100))
        #expect(delegate.frames.count == 6)
        lifecycle.didBecomeActive()
        display.advance(by: .milliseconds(100))
        #expect(delegate.frames.count == 12)
    }
}

@Suite("MetalKit's view on a window: misuse")
struct MTKViewWindowMisuseTests {
    @Test("misuse: a headless surface given to the window initializer stops, naming the other")
    func headlessSurface() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: nil,
                            surface: .headless(width: 4, height: 4, display: VirtualDisplay()), clock: VirtualDisplay())
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: MTKView(frame:device:surface:clock:): a headless surface; use init(frame:device:display:)"))
    }
}

/// Clears each frame and counts the drawables the compositor was handed.
private final class PresentCountingRenderer: NSObject, MTKViewDelegate {
    let commandQueue: MTLCommandQueue
    let waiter = PresentWaiter()
    var drawn = 0
    var sizes: [CGSize] = []

    init(device: MTLDevice) {
        commandQueue = device.makeCommandQueue()!
    }

    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize) {}

    func draw(in view: MTKView) {
        guard let pass = view.currentRenderPassDescriptor, let drawable = view.currentDrawable as? Drawable else { return }
        sizes.append(CGSize(width: drawable.texture.width, height: drawable.texture.height))
        waiter.watch(drawable)
        let commandBuffer = commandQueue.makeCommandBuffer()!
        commandBuffer.makeRenderCommandEncoder(descriptor: pass)!.endEncoding()
        commandBuffer.present(drawable)
        commandBuffer.commit()
        drawn += 1
    }
}
