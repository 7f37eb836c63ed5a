import AppLifecycle
import FramePacing
import SwiftGPUSupport

/// A headless layer's drawables: a ring of offscreen textures, handed to a
/// `VirtualDisplay` when the command buffer presenting each completes, and paced on the
/// display's vblanks.
///
/// The display's clock is read, and textures are made, with the layer's lock let go: a
/// real-time display advances on the reading thread and delivers present events there,
/// whose handlers take the layer's lock.
///
/// `@unchecked Sendable`: mutable state is guarded by the layer's lock (`lock`); `display`
/// and `device` are immutable.
final class HeadlessDrawables: DrawableSource, @unchecked Sendable {
    let display: VirtualDisplay
    private let device: Device
    private let lock: ConditionLock

    // Guarded by lock.
    private var textures: [Texture?] = []
    private var free: [Int] = []
    private var generation = 0
    private var framesInFlight = 0
    /// Frames the display holds and has not yet shown or dropped, of any generation: added
    /// after `present` queued a frame, taken off at its `displayed` or `dropped` event,
    /// which may come first (the count is then briefly -1, and never counts a frame the
    /// display does not hold).
    private var framesOnDisplayQueue = 0
    /// Paces `present(_:atTime:)` and `present(_:afterMinimumDuration:)` on the display.
    private var pacer: Pacer

    init(display: VirtualDisplay, device: Device, lock: ConditionLock) {
        self.display = display
        self.device = device
        self.lock = lock
        pacer = Pacer(clock: display, holdsFrameStarts: false)
    }

    var activeMode: PresentMode? { nil }

    func nextDrawable(of layer: Layer, deadline: UInt64?) -> Drawable? {
        while true {
            switch claim(of: layer, deadline: deadline) {
            case .none: return nil
            case .advanceDisplay: advanceToNextVblank()
            case .claimed(let claimed): return drawable(claimed, of: layer)
            }
        }
    }

    /// What one wait for a drawable came to.
    private enum Claim {
        /// None: the timeout, or a lifecycle or size that gives none.
        case none
        /// Every drawable is taken and one waits on the display for a vblank that only the
        /// caller can bring (`Layer.advancesVirtualDisplayWhileWaiting`).
        case advanceDisplay
        /// A slot, with what its drawable is made of.
        case claimed((slot: Int, texture: Texture?, generation: Int, id: Int, format: PixelFormat, size: Size2D))
    }

    /// Waits, with the lock held, for a free slot and takes it; or for a presented frame to
    /// reach the display, when the display is the caller's to advance.
    private func claim(of layer: Layer, deadline: UInt64?) -> Claim {
        lock.withLock {
            var slot: Int?
            var advance = false
            let ready = lock.wait(until: {
                guard device.lifecycle.state == .active, layer.size.width > 0, layer.size.height > 0 else { return true }
                if !(layer.lowLatency && framesInFlight > 0) { slot = free.popLast() }
                guard slot == nil else { return true }
                advance = layer.advancesDisplay && !display.runsInRealTime && framesOnDisplayQueue > 0
                return advance
            }, deadline: deadline)
            if advance { return .advanceDisplay }
            guard ready, let slot else { return .none }
            framesInFlight += 1
            return .claimed((slot, textures[slot], generation, layer.takeDrawableID(), layer.format, layer.size))
        }
    }

    /// Lets display time pass to the next vblank, as a screen's passes while an app waits
    /// for a drawable: the vblank latches the next queued frame and releases the one it
    /// replaces. Runs with the lock let go (the display's events take it).
    private func advanceToNextVblank() {
        let now = display.now
        display.advance(by: display.vblank(atOrAfter: now + .nanoseconds(1)) - now)
    }

    /// The drawable of a claimed slot, its texture made if the slot has none yet; nil, the
    /// slot given back, when the texture cannot be made.
    private func drawable(_ claimed: (slot: Int, texture: Texture?, generation: Int, id: Int, format: PixelFormat,
                                      size: Size2D), of layer: Layer) -> Drawable? {
        guard let texture = claimed.texture
            ?? makeTexture(slot: claimed.slot, generation: claimed.generation, format: claimed.format, size: claimed.size)
        else {
            lock.withLock {
                framesInFlight = max(framesInFlight - 1, 0)
                if claimed.generation == generation { free.append(claimed.slot) }
                lock.broadcast()
            }
            return nil
        }
        return Drawable(texture: texture, drawableID: claimed.id, layer: layer, slot: claimed.slot,
                        generation: claimed.generation, frameStart: display.now)
    }

    /// Makes the texture of `slot`, outside the lock (it runs GPU work), and keeps it in
    /// the ring unless the ring was rebuilt meanwhile.
    private func makeTexture(slot: Int, generation: Int, format: PixelFormat, size: Size2D) -> Texture? {
        let descriptor = TextureDescriptor.texture2D(pixelFormat: format, width: size.width, height: size.height,
                                                     mipmapped: false, usage: [.renderTarget, .shaderRead])
        guard let texture = try? device.makeTexture(descriptor: descriptor) else { return nil }
        lock.withLock { if generation == self.generation { textures[slot] = texture } }
        return texture
    }

    func present(_ drawable: Drawable, timing: PresentTiming, by commandBuffer: CommandBuffer) {
        commandBuffer.addCompletedHandler { [self] buffer in
            display(drawable, timing: timing, succeeded: buffer.status == .completed)
        }
    }

    /// Hands a presented drawable to the display once its command buffer is done (or, when
    /// the buffer failed, ends it unshown).
    private func display(_ drawable: Drawable, timing: PresentTiming, succeeded: Bool) {
        let layer = drawable.layer
        guard succeeded else {
            layer.finish(drawable, at: nil)
            release(drawable)
            return
        }
        let now = display.now
        let (presentMode, paced) = lock.withLock { () -> (PresentMode, PacedPresent?) in
            drawable.handedToDisplay = now
            let presentMode = layer.lowLatency ? .mailbox : layer.mode
            guard timing != .asSoonAsPossible else { return (presentMode, nil) }
            return (presentMode, pacer.target(for: timing, arrival: now))
        }
        display.present(DisplayPresentRequest(imageIndex: drawable.slot, mode: presentMode, notBefore: paced?.target,
                                              frameStart: drawable.frameStart) { [self] event in
            switch event {
            case .displayed(let time):
                lock.withLock {
                    if let paced {
                        pacer.frameDisplayed(paced, start: drawable.frameStart, displayed: time)
                    } else {
                        pacer.unpacedFrameShown(at: time)
                    }
                }
                finish(drawable, at: time)
            case .dropped: finish(drawable, at: nil)
            case .released: release(drawable)
            }
        })
        // Counted once the display holds it: a nextDrawable() that waits may now advance
        // the display to show it. (Its events may have come already, and counted it off.)
        lock.withLock {
            framesOnDisplayQueue += 1
            lock.broadcast()
        }
    }

    /// The drawable was shown or dropped: one frame fewer in flight, and the layer records it.
    private func finish(_ drawable: Drawable, at time: Duration?) {
        lock.withLock {
            framesOnDisplayQueue -= 1
            if drawable.generation == generation { framesInFlight = max(framesInFlight - 1, 0) }
        }
        drawable.layer.finish(drawable, at: time)
    }

    /// Gives `drawable`'s slot back once the display no longer shows or holds it.
    private func release(_ drawable: Drawable) {
        lock.withLock {
            guard drawable.generation == generation else { return }
            if device.lifecycle.state == .background { textures[drawable.slot] = nil }
            free.append(drawable.slot)
            lock.broadcast()
        }
    }

    func reclaim(slot: Int, generation: Int) {
        lock.withLock {
            guard generation == self.generation else { return }
            framesInFlight = max(framesInFlight - 1, 0)
            free.append(slot)
            lock.broadcast()
        }
    }

    /// Drops every texture: drawables handed out keep theirs, and their slots get new
    /// ones when they come back. Called with the lock held.
    func settingsChanged(_ layer: Layer) {
        rebuild(count: layer.count)
    }

    /// Starts a new ring of `count` slots. Called with the lock held.
    func rebuild(count: Int) {
        generation += 1
        textures = Array(repeating: nil, count: count)
        free = Array((0..<count).reversed())
        framesInFlight = 0
        lock.broadcast()
    }

    func lifecycleChanged(_ transition: LifecycleTransition) {
        lock.withLock {
            // Drawables are released in the background; free slots get new textures later.
            if transition.event == .didEnterBackground { for slot in free { textures[slot] = nil } }
            lock.broadcast()
        }
    }

    func shutdown() {}
}
