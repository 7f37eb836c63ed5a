import Logging
import FramePacing
import SwiftGPUSupport

/// A texture to render one frame into, handed out by `Layer.nextDrawable()` and presented
/// with `CommandBuffer.present(_:)`: Metal's `CAMetalDrawable`.
///
/// `@unchecked Sendable`: `texture`, `drawableID`, `layer` and the slot are immutable; the
/// presentation state is guarded by the layer's lock.
public final class Drawable: @unchecked Sendable {
    /// The texture to render into.
    public let texture: Texture
    /// A number unique within the layer, increasing in the order drawables are handed out.
    public let drawableID: Int
    /// The layer this drawable belongs to.
    public let layer: Layer
    /// The ring slot (headless) or swapchain image index (window surfaces).
    let slot: Int
    let generation: Int
    /// The swapchain the image belongs to, for window surfaces.
    let swapchain: SwapchainPresenter?
    /// When the layer handed the drawable out, the frame's start: display time (headless)
    /// or host monotonic time (window surfaces).
    let frameStart: Duration

    // Guarded by layer.lock.
    var presentedAt: Double = 0
    /// Display time when the drawable was handed to the display.
    var handedToDisplay: Duration?
    var presentedHandlers: [@Sendable (Drawable) -> Void] = []
    /// The display server's report, for a window layer that uses presentation feedback.
    var report: PresentationReport?
    var isPresentScheduled = false
    var isFinished = false

    init(texture: Texture, drawableID: Int, layer: Layer, slot: Int, generation: Int, frameStart: Duration,
         swapchain: SwapchainPresenter? = nil) {
        self.texture = texture
        self.drawableID = drawableID
        self.layer = layer
        self.slot = slot
        self.generation = generation
        self.frameStart = frameStart
        self.swapchain = swapchain
    }

    /// A drawable that never reached its display goes back to its layer: one never
    /// presented, or presented by a command buffer that was dropped without a commit.
    deinit {
        let reachedDisplay = isPresentScheduled && (handedToDisplay != nil || isFinished)
        if !reachedDisplay { layer.source.reclaim(slot: slot, generation: generation) }
    }

    /// When the drawable became visible, in seconds: of the virtual display's time for a
    /// headless layer; for a window surface, host monotonic time (Metal's
    /// `CACurrentMediaTime`) when the display server showed it, with
    /// `Layer.usePresentationFeedback(_:)`, or else when `vkQueuePresentKHR` returned. 0
    /// until then, and 0 for good if it was dropped (replaced before it was shown, skipped
    /// by the server, or its present failed) or never presented, as in Metal.
    public var presentedTime: Double { layer.lock.withLock { presentedAt } }

    /// What the display server reported for this drawable (its time, vblank counter and
    /// how it was shown, or that it was skipped), for a window layer that uses
    /// presentation feedback; nil until then, and for other layers.
    public var presentationReport: PresentationReport? { layer.lock.withLock { report } }

    /// Runs `handler` once the drawable is shown or dropped (`presentedTime` tells which),
    /// on the thread that advances the display (headless) or the layer's present thread
    /// (window surfaces).
    public func addPresentedHandler(_ handler: @escaping @Sendable (Drawable) -> Void) {
        let runNow = layer.lock.withLock { () -> Bool in
            if isFinished { return true }
            presentedHandlers.append(handler)
            return false
        }
        if runNow { handler(self) }
    }

    /// Presents the drawable as soon as possible, after the GPU work that renders into it:
    /// Metal's `present()`. SwiftGPU presents it with an empty command buffer of its own
    /// (which the lifecycle gate judges like any other) after the work already committed;
    /// called while command buffers that render into it are not committed yet (a commit
    /// in a `defer`), it waits for them: the last of them to commit presents it.
    public func present() {
        present(#function, timing: .asSoonAsPossible)
    }

    /// Presents the drawable no earlier than `presentationTime` (seconds; see
    /// `CommandBuffer.present(_:atTime:)`): Metal's `present(at:)`, after the work that
    /// renders into it, as ``present()``.
    public func present(at presentationTime: Double) {
        present(#function, timing: .atTime(.wholeNanoseconds(seconds: presentationTime)))
    }

    /// Presents the drawable once the layer's previous drawable has been shown for at least
    /// `duration` seconds: Metal's `present(afterMinimumDuration:)`, after the work that
    /// renders into it, as ``present()``.
    public func present(afterMinimumDuration duration: Double) {
        present(#function, timing: .afterMinimumDuration(.wholeNanoseconds(seconds: duration)))
    }

    private func present(_ call: StaticString, timing: PresentTiming) {
        let request = DeferredPresent(drawable: self, timing: timing, call: call)
        if !texture.deferPresent(request) { request.presentByItself() }
    }

    private static let logger = Logger(label: "SwiftGPU")
}

/// A drawable's own present (`Drawable.present()`), waiting while command buffers that
/// render into the drawable are not committed yet.
struct DeferredPresent {
    let drawable: Drawable
    let timing: PresentTiming
    let call: StaticString

    /// Commits an empty command buffer on the device's own queue that presents the
    /// drawable, after the work committed so far. A failure to make it ends the drawable
    /// unshown, as a dropped frame.
    func presentByItself() {
        do {
            let commandBuffer = try drawable.texture.device.internalQueue().makeCommandBuffer()
            commandBuffer.schedulePresent(drawable, call: "\(call)", timing: timing)
            commandBuffer.commit()
        } catch {
            // Its slot goes back when the app drops it (it was never presented).
            Self.logger.error("Drawable.\(call) could not make its command buffer; the drawable is dropped: \(error)")
            drawable.layer.finish(drawable, at: nil)
        }
    }

    private static let logger = Logger(label: "SwiftGPU")
}

extension CommandBuffer {
    /// Presents a drawable whose own present waited for this buffer, the last to render
    /// into it, as if `present(_:)` had been called on this buffer.
    func presentDeferred(_ request: DeferredPresent) {
        schedulePresent(request.drawable, call: "\(request.call)", timing: request.timing)
    }
}

extension CommandBuffer {
    /// Notes a swapchain image this buffer presents: its end moves the image to the present
    /// layout and its submission signals the image's present semaphore.
    func notePresented(_ swapchain: SwapchainPresenter, index: Int) {
        withEngineLock { record.addPresentedImage(swapchain, index: index, call: "present(_:)") }
    }

    /// Presents `drawable` once this command buffer's work is complete, without blocking
    /// the calling thread. Call before `commit()`. On a window surface the buffer ends by
    /// moving the image to the present layout and signalling its present semaphore; the
    /// layer's present thread calls `vkQueuePresentKHR` once the buffer is submitted.
    public func present(_ drawable: Drawable) {
        schedulePresent(drawable, call: #function, timing: .asSoonAsPossible)
    }

    /// Presents `drawable` no earlier than `presentationTime`, in seconds of the display's
    /// time (headless) or of host monotonic time (window surfaces).
    public func present(_ drawable: Drawable, atTime presentationTime: Double) {
        schedulePresent(drawable, call: #function, timing: .atTime(.wholeNanoseconds(seconds: presentationTime)))
    }

    /// Presents `drawable` once the layer's previous drawable has been shown for at least
    /// `duration` seconds.
    public func present(_ drawable: Drawable, afterMinimumDuration duration: Double) {
        schedulePresent(drawable, call: #function, timing: .afterMinimumDuration(.wholeNanoseconds(seconds: duration)))
    }

    func schedulePresent(_ drawable: Drawable, call: String, timing: PresentTiming) {
        withEngineLock {
            if !record.isOpenForRecording { misuse("\(call) called after commit()") }
        }
        let alreadyScheduled = drawable.layer.lock.withLock { () -> Bool in
            defer { drawable.isPresentScheduled = true }
            return drawable.isPresentScheduled
        }
        if alreadyScheduled { misuse("\(call): drawable \(drawable.drawableID) is already presented") }
        drawable.layer.source.present(drawable, timing: timing, by: self)
    }
}
