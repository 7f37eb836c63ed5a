import AppLifecycle
import FramePacing
import Logging
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
    /// Guards the settings and the frame records here, and the source's state.
    let lock = ConditionLock(rank: .layer)
    /// Where the drawables come from: a headless ring or a window's swapchain.
    let source: any DrawableSource
    private var observation: LifecycleObservation?

    // Guarded by lock; the source reads them with the lock held.
    var format: PixelFormat = .bgra8Unorm
    var size: Size2D
    var count = 3
    var mode: PresentMode = .fifo
    var lowLatency = false
    var advancesDisplay = false
    private var timeoutAllowed = true
    private var nextID = 1
    private var latencies: RingBuffer<Duration>
    private var statistics: FrameStatistics

    /// How many frame latencies `frameLatencies` keeps.
    public static let latencyWindow = 1_024

    /// How long `nextDrawable()` waits for a free drawable when timeouts are allowed.
    var drawableTimeout: Duration = .seconds(1)

    /// A layer showing its drawables on `surface`. Throws for a window surface when the
    /// Vulkan loader lacks the window system's surface extension, the device cannot present
    /// to the surface, or the surface cannot be made.
    public init(device: Device, surface: LayerSurface) throws(GPUError) {
        self.device = device
        self.surface = surface
        latencies = RingBuffer(capacity: Self.latencyWindow)
        let window: WindowSystemHandle
        switch surface {
        case .headless(let width, let height, let display):
            guard width >= 0, height >= 0 else { misuse("Layer(device:surface:): size \(width)×\(height) is negative") }
            size = Size2D(width: width, height: height)
            statistics = FrameStatistics(refreshPeriod: 1 / display.refreshRate)
            let headless = HeadlessDrawables(display: display, device: device, lock: lock)
            headless.rebuild(count: count)
            source = headless
            observation = device.lifecycle.observe { [weak self] transition in self?.source.lifecycleChanged(transition) }
            return
        case .xcb(let connection, let window_): window = .xcb(connection: connection, window: window_)
        case .xlib(let display, let window_): window = .xlib(display: display, window: window_)
        case .wayland(let display, let surface): window = .wayland(display: display, surface: surface)
        case .vulkan(let surface): window = .hostSurface(surface)
        }
        statistics = FrameStatistics(refreshPeriod: Self.assumedRefreshPeriod)
        let presenter = try WindowPresenter(device: device, window: window, lock: lock)
        size = presenter.windowSize() ?? Size2D(width: 0, height: 0)
        source = presenter
        observation = device.lifecycle.observe { [weak self] transition in self?.source.lifecycleChanged(transition) }
    }

    /// Waits until no layer uses the host's `VkSurfaceKHR` `surface` any more (its swapchains
    /// are destroyed) or `timeout` passes; whether none does. A layer goes when the app's
    /// last reference and SwiftGPU's own (drawables in flight, command buffers the recycler
    /// lets go within about 100 ms) are gone, so call this before destroying the surface or
    /// giving it to another layer.
    public static func waitUntilReleased(hostSurface surface: OpaquePointer, timeout: Duration = .seconds(5)) -> Bool {
        PresentationSurface.hostSurfaces.waitUntilReleased(surface, timeout: timeout)
    }

    /// The refresh period frame statistics assume on window surfaces, whose refresh rate
    /// Vulkan does not report: 60 Hz.
    static let assumedRefreshPeriod = 1.0 / 60

    deinit {
        observation?.cancel()
        source.shutdown()
    }

    /// The window side, for a layer on a window surface.
    var presenter: WindowPresenter? { source as? WindowPresenter }

    /// The drawables' pixel format: `.bgra8Unorm` (the default) or `.bgra8Unorm_srgb`.
    public var pixelFormat: PixelFormat {
        get { lock.withLock { format } }
        set {
            guard newValue == .bgra8Unorm || newValue == .bgra8Unorm_srgb else {
                misuse("Layer.pixelFormat: \(newValue) is not a drawable format; use .bgra8Unorm or .bgra8Unorm_srgb")
            }
            lock.withLock { format = newValue; source.settingsChanged(self) }
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
            lock.withLock { size = newValue; source.settingsChanged(self) }
        }
    }

    /// How many drawables the layer rotates through: 2 or 3 (the default).
    public var maximumDrawableCount: Int {
        get { lock.withLock { count } }
        set {
            guard newValue == 2 || newValue == 3 else { misuse("Layer.maximumDrawableCount: \(newValue) is not 2 or 3") }
            lock.withLock { count = newValue; source.settingsChanged(self) }
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
                presenter?.settingsChanged(self)
            }
        }
    }

    /// Whether `nextDrawable()` gives up after `drawableTimeout` (true by default). Without
    /// the timeout it still returns nil when the lifecycle leaves the active state.
    public var allowsNextDrawableTimeout: Bool {
        get { lock.withLock { timeoutAllowed } }
        set { lock.withLock { timeoutAllowed = newValue } }
    }

    /// Whether `nextDrawable()` on a headless layer lets its `VirtualDisplay`'s time pass
    /// while it waits, as a screen's time passes while an app waits for a drawable: when
    /// every drawable is taken and a presented frame waits on the display for a vblank, the
    /// display is advanced to its next vblank, on the calling thread (running the timers
    /// due by then, a `DisplayLink`'s too), until that releases a drawable; a frame whose
    /// command buffer has not completed is waited for. False by default: a display made
    /// without `realTime:` then moves only when its owner advances it, and a call that
    /// finds every drawable taken waits for them until its timeout. No effect on a window
    /// layer or a display that runs in real time. `MTKView`, which stands in for the
    /// screen, sets it.
    public var advancesVirtualDisplayWhileWaiting: Bool {
        get { lock.withLock { advancesDisplay } }
        set {
            lock.withLock {
                advancesDisplay = newValue
                lock.broadcast()
            }
        }
    }

    /// Low-latency mode: at most one frame in flight (`nextDrawable()` waits until the
    /// previous drawable is shown or dropped, or on a window surface until its present
    /// call has returned) and mailbox presentation where the surface offers it.
    public var isLowLatency: Bool {
        get { lock.withLock { lowLatency } }
        set {
            lock.withLock {
                lowLatency = newValue
                presenter?.settingsChanged(self)
                lock.broadcast()
            }
        }
    }

    /// The present mode the window surface's swapchain uses (after fallback); nil for a
    /// headless layer or before the first drawable.
    var activePresentMode: PresentMode? { lock.withLock { source.activeMode } }

    /// Frame start (`nextDrawable()` returning) to display, for the last `latencyWindow`
    /// drawables shown, oldest first. On window surfaces "display" is when the server
    /// showed the frame with `usePresentationFeedback(_:)`, else the return of the
    /// drawable's `vkQueuePresentKHR`.
    public var frameLatencies: [Duration] { lock.withLock { Array(latencies) } }

    /// A PresentMon-style record of every drawable shown or dropped so far, with its
    /// summaries (see `FrameStatistics`).
    public var frameStatistics: FrameStatistics { lock.withLock { statistics } }

    /// The next drawable to render into, or nil: on timeout, while the lifecycle is not
    /// active, or at zero size.
    public func nextDrawable() -> Drawable? {
        let deadline = lock.withLock { timeoutAllowed } ? HostClock.nanoseconds() + UInt64(drawableTimeout.nanoseconds) : nil
        return source.nextDrawable(of: self, deadline: deadline)
    }

    /// The next drawable's ID. Called with the lock held.
    func takeDrawableID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Takes the presented times of this window layer's frames from the display server:
    /// `Drawable.presentedTime`, the presented handlers, `frameLatencies` and
    /// `frameStatistics` report when the server showed each frame (or that it skipped it),
    /// and `present(_:atTime:)` / `present(_:afterMinimumDuration:)` are paced on the
    /// server's vblanks (`feedback.clock`). Without it, a window layer reports when
    /// `vkQueuePresentKHR` returned. Make the feedback with `XPresentFeedback` (GPUXCB) or
    /// `WaylandPresentationFeedback` (GPUWayland) for the layer's window, before the first
    /// drawable; the layer stops it when it goes.
    public func usePresentationFeedback(_ feedback: any PresentationFeedback) {
        guard let presenter else {
            misuse("Layer.usePresentationFeedback(_:): a headless layer's virtual display reports its own times")
        }
        lock.withLock { statistics = FrameStatistics(refreshPeriod: 1 / feedback.clock.refreshRate) }
        presenter.use(feedback)
    }

    /// `usePresentationFeedback(_:)` with the feedback `make` makes, or, when it throws (the
    /// server lacks the extension or protocol), presented times from the host as before,
    /// with one log line (label `SwiftGPU`) saying why. Returns whether feedback is used.
    @discardableResult
    public func usePresentationFeedback(_ make: () throws -> any PresentationFeedback) -> Bool {
        do {
            usePresentationFeedback(try make())
            return true
        } catch {
            Self.logger.warning("no presentation feedback: \(error); presented times are when vkQueuePresentKHR returned")
            return false
        }
    }

    private static let logger = Logger(label: "SwiftGPU")

    /// Records that `drawable` was shown at `time` (nil: dropped or never shown), with the
    /// server's `report` when one was made, and runs its presented handlers.
    func finish(_ drawable: Drawable, at time: Duration?, report: PresentationReport? = nil) {
        let handlers = lock.withLock { () -> [@Sendable (Drawable) -> Void] in
            drawable.report = report
            if let time {
                drawable.presentedAt = Double(time.nanoseconds) / 1e9
                latencies.append(time - drawable.frameStart)
            }
            if let presented = drawable.handedToDisplay {
                statistics.record(frameID: drawable.drawableID, frameStart: drawable.frameStart.seconds,
                                  presentTime: presented.seconds, displayedTime: time?.seconds)
            }
            drawable.isFinished = true
            lock.broadcast()
            defer { drawable.presentedHandlers.removeAll() }
            return drawable.presentedHandlers
        }
        for handler in handlers { handler(drawable) }
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
