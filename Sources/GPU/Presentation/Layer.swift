import AppLifecycle
import FramePacing
import SwiftGPUSupport

/// A source of drawables shown on a surface: Metal's `CAMetalLayer`.
///
/// `nextDrawable()` never waits forever: it returns nil after `drawableTimeout` (1 s) when
/// every drawable is in use, at once while the device's lifecycle is not active or the
/// size is zero, and a call blocked without a timeout wakes with nil when the lifecycle
/// leaves the active state. Drawables are released in the background and made again on
/// return.
///
/// On a window surface (xcb, Xlib, Wayland) the drawables are the images of a Vulkan
/// swapchain, remade when a setting changes or the swapchain reports itself out of date
/// or suboptimal (once no drawable is in flight, so the frame in hand is never lost), and
/// presented by the layer's present thread.
///
/// `@unchecked Sendable`: every mutable property is guarded by `lock`.
public final class Layer: @unchecked Sendable {
    /// The device whose textures the drawables are.
    public let device: Device
    /// Where drawables are shown.
    public let surface: LayerSurface
    let lock = ConditionLock()
    /// The virtual display of a headless layer.
    private let display: VirtualDisplay?
    /// The swapchain side of a window layer.
    let presenter: WindowPresenter?
    private var observation: LifecycleObservation?

    // Guarded by lock.
    var format: PixelFormat = .bgra8Unorm
    var size: Size2D
    var count = 3
    var mode: PresentMode = .fifo
    private var timeoutAllowed = true
    var lowLatency = false
    private var textures: [Texture?] = []
    private var free: [Int] = []
    private var generation = 0
    var nextID = 1
    private var framesInFlight = 0
    /// Paces `present(_:atTime:)` and `present(_:afterMinimumDuration:)` on a headless
    /// layer's display.
    private var pacer: Pacer?
    private var latencies: [Duration] = []
    private var statistics: FrameStatistics

    /// How long `nextDrawable()` waits for a free drawable when timeouts are allowed.
    var drawableTimeout: Duration = .seconds(1)

    /// A layer showing its drawables on `surface`.
    /// A layer showing its drawables on `surface`. Throws for a window surface when the
    /// Vulkan loader lacks the window system's surface extension, the device cannot present
    /// to the surface, or the surface cannot be made.
    public init(device: Device, surface: LayerSurface) throws(GPUError) {
        self.device = device
        self.surface = surface
        switch surface {
        case .headless(let width, let height, let display):
            guard width >= 0, height >= 0 else { misuse("Layer(device:surface:): size \(width)×\(height) is negative") }
            self.display = display
            presenter = nil
            size = Size2D(width: width, height: height)
            statistics = FrameStatistics(refreshPeriod: 1 / display.refreshRate)
            pacer = Pacer(clock: display, holdsFrameStarts: false)
        case .xcb(let connection, let window):
            (display, statistics) = (nil, FrameStatistics(refreshPeriod: Self.assumedRefreshPeriod))
            presenter = try WindowPresenter(device: device, window: .xcb(connection: connection, window: window), lock: lock)
            size = presenter?.windowSize() ?? Size2D(width: 0, height: 0)
        case .xlib(let x11Display, let window):
            (display, statistics) = (nil, FrameStatistics(refreshPeriod: Self.assumedRefreshPeriod))
            presenter = try WindowPresenter(device: device, window: .xlib(display: x11Display, window: window), lock: lock)
            size = presenter?.windowSize() ?? Size2D(width: 0, height: 0)
        case .wayland(let waylandDisplay, let waylandSurface):
            (display, statistics) = (nil, FrameStatistics(refreshPeriod: Self.assumedRefreshPeriod))
            presenter = try WindowPresenter(device: device, window: .wayland(display: waylandDisplay, surface: waylandSurface),
                                            lock: lock)
            size = presenter?.windowSize() ?? Size2D(width: 0, height: 0)
        }
        rebuild()
        observation = device.lifecycle.observe { [weak self] transition in self?.lifecycleChanged(transition) }
    }

    /// The refresh period frame statistics assume on window surfaces, whose refresh rate
    /// Vulkan does not report: 60 Hz.
    static let assumedRefreshPeriod = 1.0 / 60

    deinit {
        observation?.cancel()
        presenter?.shutdown()
    }

    /// The drawables' pixel format: `.bgra8Unorm` (the default) or `.bgra8Unorm_srgb`.
    public var pixelFormat: PixelFormat {
        get { lock.withLock { format } }
        set {
            guard newValue == .bgra8Unorm || newValue == .bgra8Unorm_srgb else {
                misuse("Layer.pixelFormat: \(newValue) is not a drawable format; use .bgra8Unorm or .bgra8Unorm_srgb")
            }
            lock.withLock { format = newValue; settingsChanged() }
        }
    }

    /// The drawables' size in pixels; a zero size makes `nextDrawable()` return nil. On a
    /// surface whose size is the window's (xcb, Xlib) the swapchain takes the window's size
    /// when it is remade, and this becomes that size; on Wayland the swapchain takes this
    /// size, which starts at 0×0: set it.
    public var drawableSize: Size2D {
        get { lock.withLock { size } }
        set {
            guard newValue.width >= 0, newValue.height >= 0 else {
                misuse("Layer.drawableSize: \(newValue.width)×\(newValue.height) is negative")
            }
            lock.withLock { size = newValue; settingsChanged() }
        }
    }

    /// How many drawables the layer rotates through: 2 or 3 (the default).
    public var maximumDrawableCount: Int {
        get { lock.withLock { count } }
        set {
            guard newValue == 2 || newValue == 3 else { misuse("Layer.maximumDrawableCount: \(newValue) is not 2 or 3") }
            lock.withLock { count = newValue; settingsChanged() }
        }
    }

    /// How presented drawables replace each other (`.fifo` by default). Low-latency mode
    /// presents with `.mailbox` whatever this says. On a window surface that does not offer
    /// the mode, the swapchain falls back: mailbox → immediate → fifo, immediate → mailbox →
    /// fifo, fifoRelaxed → fifo (fifo is always offered).
    public var presentMode: PresentMode {
        get { lock.withLock { mode } }
        set {
            lock.withLock {
                mode = newValue
                presenter?.wantsRecreation = true
            }
        }
    }

    /// Whether `nextDrawable()` gives up after `drawableTimeout` (true by default). Without
    /// the timeout it still returns nil when the lifecycle leaves the active state.
    public var allowsNextDrawableTimeout: Bool {
        get { lock.withLock { timeoutAllowed } }
        set { lock.withLock { timeoutAllowed = newValue } }
    }

    /// Low-latency mode: at most one frame in flight (`nextDrawable()` waits until the
    /// previous drawable is shown or dropped, or on a window surface until its present
    /// call has returned) and mailbox presentation where the surface offers it.
    public var isLowLatency: Bool {
        get { lock.withLock { lowLatency } }
        set {
            lock.withLock {
                lowLatency = newValue
                presenter?.wantsRecreation = true
                lock.broadcast()
            }
        }
    }

    /// The present mode the window surface's swapchain uses (after fallback); nil for a
    /// headless layer or before the first drawable.
    var activePresentMode: PresentMode? { lock.withLock { presenter?.activeMode } }

    /// Frame start (`nextDrawable()` returning) to display, for every drawable shown so
    /// far, oldest first. On window surfaces "display" is the return of the drawable's
    /// `vkQueuePresentKHR`: Vulkan without present-timing extensions reports no more.
    public var frameLatencies: [Duration] { lock.withLock { latencies } }

    /// A PresentMon-style record of every drawable shown or dropped so far, with its
    /// summaries (see `FrameStatistics`).
    public var frameStatistics: FrameStatistics { lock.withLock { statistics } }

    /// The next drawable to render into, or nil: on timeout, while the lifecycle is not
    /// active, or at zero size.
    public func nextDrawable() -> Drawable? {
        let deadline = lock.withLock { timeoutAllowed } ? HostClock.nanoseconds() + UInt64(drawableTimeout.nanoseconds) : nil
        if let presenter { return nextWindowDrawable(presenter, deadline: deadline) }
        guard let display else { return nil }
        return lock.withLock { () -> Drawable? in
            var slot: Int?
            let ready = lock.wait(until: {
                guard device.lifecycle.state == .active, size.width > 0, size.height > 0 else { return true }
                if lowLatency && framesInFlight > 0 { return false }
                slot = free.popLast()
                return slot != nil
            }, deadline: deadline)
            guard ready, let slot else { return nil }
            guard let texture = texture(at: slot) else {
                free.append(slot)
                return nil
            }
            framesInFlight += 1
            defer { nextID += 1 }
            return Drawable(texture: texture, drawableID: nextID, layer: self, slot: slot, generation: generation,
                            frameStart: display.now)
        }
    }

    /// The texture of `slot`, made when first needed. Called with the lock held.
    private func texture(at slot: Int) -> Texture? {
        if let texture = textures[slot] { return texture }
        let descriptor = TextureDescriptor.texture2D(pixelFormat: format, width: size.width, height: size.height,
                                                     mipmapped: false, usage: [.renderTarget, .shaderRead])
        guard let texture = try? device.makeTexture(descriptor: descriptor) else { return nil }
        textures[slot] = texture
        return texture
    }

    /// A setting the drawables depend on changed: the ring is rebuilt (headless) or the
    /// swapchain remade once no drawable is in flight (window). Called with the lock held.
    private func settingsChanged() {
        if let presenter {
            presenter.wantsRecreation = true
            lock.broadcast()
        } else {
            rebuild()
        }
    }

    /// Drops every drawable texture: drawables handed out keep theirs, and their slots get
    /// new ones when they come back. Called with the lock held.
    private func rebuild() {
        generation += 1
        textures = Array(repeating: nil, count: count)
        free = Array((0..<count).reversed())
        framesInFlight = 0
        lock.broadcast()
    }

    private func lifecycleChanged(_ transition: LifecycleTransition) {
        lock.withLock {
            // Drawables are released in the background; free slots get new textures later.
            if transition.event == .didEnterBackground { for slot in free { textures[slot] = nil } }
            lock.broadcast()
        }
        if transition.event == .didEnterBackground { releaseSwapchainInBackground() }
    }

    /// Destroys a window layer's swapchain while in the background, once no drawable is in
    /// flight; it is made again by the first `nextDrawable()` after the return.
    func releaseSwapchainInBackground() {
        presenter?.releaseIfIdle { device.lifecycle.state == .background }
    }

    /// Hands a presented drawable to the display once its command buffer is done (or, when
    /// the buffer failed, ends it unshown).
    func display(_ drawable: Drawable, timing: PresentTiming, succeeded: Bool) {
        guard let display else { return }
        guard succeeded else {
            finish(drawable, at: nil)
            release(drawable)
            return
        }
        let (presentMode, paced) = lock.withLock { () -> (PresentMode, PacedPresent?) in
            drawable.handedToDisplay = display.now
            let presentMode = lowLatency ? .mailbox : mode
            guard timing != .asSoonAsPossible else { return (presentMode, nil) }
            return (presentMode, pacer?.target(for: timing, arrival: display.now))
        }
        display.present(DisplayPresentRequest(imageIndex: drawable.slot, mode: presentMode, notBefore: paced?.target,
                                              frameStart: drawable.frameStart) { [self] event in
            switch event {
            case .displayed(let time):
                lock.withLock {
                    if let paced {
                        pacer?.frameDisplayed(paced, start: drawable.frameStart, displayed: time)
                    } else {
                        pacer?.unpacedFrameShown(at: time)
                    }
                }
                finish(drawable, at: time)
            case .dropped: finish(drawable, at: nil)
            case .released: release(drawable)
            }
        })
    }

    /// Records that `drawable` was shown at `time` (nil: dropped or never shown) and runs
    /// its presented handlers.
    func finish(_ drawable: Drawable, at time: Duration?) {
        let handlers = lock.withLock { () -> [@Sendable (Drawable) -> Void] in
            if let time {
                drawable.presentedAt = Double(time.nanoseconds) / 1e9
                latencies.append(time - drawable.frameStart)
            }
            if let presented = drawable.handedToDisplay {
                statistics.record(frameID: drawable.drawableID, frameStart: drawable.frameStart.seconds,
                                  presentTime: presented.seconds, displayedTime: time?.seconds)
            }
            if drawable.generation == generation { framesInFlight = max(framesInFlight - 1, 0) }
            drawable.isFinished = true
            lock.broadcast()
            defer { drawable.presentedHandlers.removeAll() }
            return drawable.presentedHandlers
        }
        for handler in handlers { handler(drawable) }
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

    /// A drawable that went away without being presented gives its slot back.
    func reclaim(slot: Int, generation: Int, presented: Bool) {
        guard !presented else { return }
        if let presenter {
            lock.withLock { presenter.giveBack(index: slot, generation: generation) }
            releaseSwapchainInBackground()
            return
        }
        lock.withLock {
            guard generation == self.generation else { return }
            framesInFlight = max(framesInFlight - 1, 0)
            free.append(slot)
            lock.broadcast()
        }
    }
}

extension Duration {
    /// `seconds`, rounded to the nanosecond as the display's vblank times are, so that a
    /// time given in seconds lands on the vblank it names.
    static func wholeNanoseconds(seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }

    /// The duration in seconds.
    var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
