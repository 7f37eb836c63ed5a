import FramePacing
import Foundation
import GPU

/// The view's draw loop, MetalKit's: a display link on the view's display calls `draw()` at
/// `preferredFramesPerSecond` while the view is not paused, or at the next vblank after
/// `setNeedsDisplay()` when it draws on demand.
extension MTKView {
    /// The rate, in frames per second, the view draws at: its display link fires at this
    /// rate snapped to a divisor of the display's refresh rate. 60 by default, as
    /// MetalKit's. Stops for a rate below 1.
    public var preferredFramesPerSecond: Int {
        get { framesPerSecond }
        set {
            guard newValue >= 1 else {
                fatalError("SwiftGPU API misuse: MTKView.preferredFramesPerSecond: \(newValue) is below 1 frame per second")
            }
            framesPerSecond = newValue
            updateDisplayLink()
        }
    }

    /// Whether the draw loop is stopped (false by default): then the view draws only when
    /// `draw()` is called, or, with `enableSetNeedsDisplay`, after `setNeedsDisplay()`.
    public var isPaused: Bool {
        get { loopPaused }
        set {
            loopPaused = newValue
            updateDisplayLink()
        }
    }

    /// Whether the view draws on demand (false by default): when true, the draw loop stops
    /// and the view draws once at the display's next frame boundary after
    /// `setNeedsDisplay()`, however often it was called; when false, `setNeedsDisplay()`
    /// does nothing.
    public var enableSetNeedsDisplay: Bool {
        get { drawsOnDemand }
        set {
            drawsOnDemand = newValue
            if !newValue { displayRequested = false }
            updateDisplayLink()
        }
    }

    /// Whether the view will draw at the display's next frame boundary because
    /// `setNeedsDisplay()` asked it to (AppKit's `needsDisplay`); setting it true is
    /// `setNeedsDisplay()`.
    public var needsDisplay: Bool {
        get { displayRequested }
        set {
            displayRequested = newValue && drawsOnDemand
            updateDisplayLink()
        }
    }

    /// Asks for a frame at the display's next frame boundary, with `enableSetNeedsDisplay`
    /// (UIKit's `setNeedsDisplay()`); without it, does nothing.
    public func setNeedsDisplay() {
        needsDisplay = true
    }

    /// Starts the display link on the view's clock, paused or not as the view's settings
    /// say, and with the device's lifecycle (it pauses while the app is not active). A
    /// `VirtualDisplay` that its owner advances calls back on the advancing thread, which
    /// for a view's clock is the main actor's (advancing it elsewhere stops at the actor
    /// check); a real-time clock calls back on its own thread, and the frame is drawn on the
    /// main queue.
    func startDisplayLink() {
        let advancedByOwner = (clock as? VirtualDisplay).map { !$0.runsInRealTime } ?? false
        displayLink?.invalidate()
        displayLink = DisplayLink(clock: clock, lifecycle: (device as? Device)?.lifecycle) { [weak self] _ in
            guard let self else { return }
            if advancedByOwner {
                MainActor.assumeIsolated { self.displayRefreshed() }
            } else {
                DispatchQueue.main.async { MainActor.assumeIsolated { self.displayRefreshed() } }
            }
        }
        updateDisplayLink()
    }

    /// The link runs at the view's rate while the loop runs or a frame was asked for.
    func updateDisplayLink() {
        guard let displayLink else { return }
        let rate = Double(framesPerSecond)
        let range = FrameRateRange(minimum: 0, maximum: rate, preferred: rate)
        if displayLink.preferredFrameRateRange != range { displayLink.preferredFrameRateRange = range }
        let paused = !(loopRuns || displayRequested)
        if displayLink.isPaused != paused { displayLink.isPaused = paused }
    }

    /// Whether the draw loop runs: not paused, not drawing on demand.
    private var loopRuns: Bool { !loopPaused && !drawsOnDemand }

    /// A frame boundary: a frame, when the loop runs or one was asked for, unless one is
    /// being drawn (the display advanced while the view waited for a drawable).
    func displayRefreshed() {
        guard !isDrawing else { return }
        if displayRequested {
            displayRequested = false
            updateDisplayLink()
        } else if !loopRuns {
            return
        }
        draw()
    }
}
