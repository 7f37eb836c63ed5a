import GPU
import GPUTestSupport
import MetalKit
import Testing

/// A delegate that only counts its frames and the display times they were drawn at.
@MainActor
final class CountingDelegate: NSObject, MTKViewDelegate {
    var frames: [Duration] = []

    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize) {}

    func draw(in view: MTKView) {
        frames.append(view.display!.now)
    }
}

@Suite("MetalKit's view: its draw loop on the virtual display's clock", .validated)
@MainActor
struct MTKViewDrawLoopTests {
    /// A view on a 60 Hz virtual display, its delegate counting.
    static func view() -> (MTKView, CountingDelegate, VirtualDisplay) {
        let display = VirtualDisplay(refreshRate: 60)
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: MTLCreateSystemDefaultDevice()!,
                           display: display)
        let delegate = CountingDelegate()
        view.delegate = delegate
        return (view, delegate, display)
    }

    @Test("the display link calls draw() at preferredFramesPerSecond on the display's vblanks: 60 a second, then 30, then 20")
    func displayLink() {
        let (view, delegate, display) = Self.view()
        #expect(!view.isPaused && !view.enableSetNeedsDisplay, "MetalKit's defaults")
        display.advance(by: .seconds(1))
        #expect(delegate.frames.count == 60)
        #expect(delegate.frames == (1...60).map(display.vblankTime))
        view.preferredFramesPerSecond = 30
        delegate.frames = []
        display.advance(by: .seconds(1))
        #expect(delegate.frames.count == 30)
        view.preferredFramesPerSecond = 24   // snapped to 20, a divisor of 60
        delegate.frames = []
        display.advance(by: .seconds(1))
        #expect(delegate.frames.count == 20)
    }

    @Test("isPaused: the loop stops and resumes; draw() still draws a paused view")
    func paused() {
        let (view, delegate, display) = Self.view()
        view.isPaused = true
        display.advance(by: .seconds(1))
        #expect(delegate.frames.isEmpty)
        #expect(display.scheduledTimerCount == 0, "a paused view costs its display no timer")
        view.draw()
        #expect(delegate.frames.count == 1)
        view.isPaused = false
        display.advance(by: .milliseconds(100))
        #expect(delegate.frames.count == 1 + 6)
    }

    @Test("enableSetNeedsDisplay: the loop stops; setNeedsDisplay() draws once at the next vblank however often it was called; without it, setNeedsDisplay() does nothing")
    func setNeedsDisplay() {
        let (view, delegate, display) = Self.view()
        view.enableSetNeedsDisplay = true
        display.advance(by: .milliseconds(500))
        #expect(delegate.frames.isEmpty)
        view.setNeedsDisplay()
        view.setNeedsDisplay()
        view.needsDisplay = true
        #expect(view.needsDisplay)
        display.advance(by: .seconds(1))
        #expect(delegate.frames == [display.vblankTime(31)])
        #expect(!view.needsDisplay)
        view.setNeedsDisplay()
        display.advance(by: .milliseconds(20))
        #expect(delegate.frames.count == 2)

        view.enableSetNeedsDisplay = false
        view.isPaused = true
        view.setNeedsDisplay()
        #expect(!view.needsDisplay)
        display.advance(by: .seconds(1))
        #expect(delegate.frames.count == 2)
    }
}
