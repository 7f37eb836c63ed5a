import AppLifecycle
import Dispatch
import FramePacing
import SwiftGPUSupport

/// The window side of a `Layer`: the Vulkan surface over the host's window, the swapchain
/// made from the layer's settings, image acquisition for `nextDrawable()`, and the present
/// thread that calls `vkQueuePresentKHR` after each presenting command buffer is submitted.
///
/// Counting: `outstanding` is the number of drawables handed out (or being acquired:
/// `acquiring`) whose present has not yet returned, and that were not given back
/// unpresented. The swapchain is only recreated or released when no drawable is handed out
/// (`outstanding == acquiring`), so the frame in hand is always presented on the swapchain
/// it came from.
///
/// The layer sees it through `DrawableSource` only; its counters and the swapchain are its
/// own.
///
/// `@unchecked Sendable`: mutable state is guarded by `lock` (the layer's lock); the
/// swapchain is replaced only under `acquireLock` too, which also serialises acquires.
final class WindowPresenter: DrawableSource, @unchecked Sendable {
    let device: Device
    let surface: PresentationSurface
    let lock: ConditionLock
    /// Serialises acquisition and swapchain recreation (slow Vulkan calls made without `lock`).
    let acquireLock = ConditionLock(rank: .windowAcquire)
    private var thread: ServiceThread?

    // Guarded by lock.
    private(set) var swapchain: SwapchainPresenter?
    private var textures: [Texture] = []
    /// Swapchain images acquired and handed back unpresented: handed out again first.
    private var reusable: [Int] = []
    private var generation = 0
    private var outstanding = 0
    /// `nextDrawable()` calls counted in `outstanding` that are still acquiring.
    private var acquiring = 0
    /// A setting changed or the swapchain reported itself suboptimal: recreate when idle.
    private var wantsRecreation = false
    /// The swapchain is out of date: recreate before the next acquire.
    private var mustRecreate = false
    private var requests = FIFO<PresentRequest>()
    private var isStopping = false
    /// Paces `present(_:atTime:)` and `present(_:afterMinimumDuration:)`: on host monotonic
    /// time at the exact times asked while no server feedback is used (no vblanks are
    /// visible then), on the server's vblanks once it is.
    private var pacer = Pacer(clock: MonotonicClock(refreshRate: 1 / Layer.assumedRefreshPeriod),
                              holdsFrameStarts: false, snapsToVblanks: false)
    /// Where presented times come from: the display server's feedback once the layer uses
    /// it, else the driver's present-timing extensions for the current swapchain where the
    /// device offers them (a `DriverPresentTiming`), else nothing (the host's clock).
    private var feedback: (any PresentationFeedback)?
    /// Whether `feedback` is the app's (the server's), which the driver's never replaces.
    private var usesServerFeedback = false
    /// The route presented times take now. Read with `lock` held.
    private(set) var timingRoute = PresentTimingRoute.hostClock
    /// The number the next presented frame gets for the feedback.
    private var nextFrame: UInt64 = 1
    /// Frames presented and not yet reported by the feedback, by number.
    private var awaiting: [UInt64: AwaitingReport] = [:]
    private var madeCount = 0
    /// The present mode the current swapchain uses. Read with `lock` held.
    var activeMode: PresentMode? { swapchain?.mode }
    /// The present mode the current swapchain uses, read under `lock`.
    var currentMode: PresentMode? { lock.withLock { swapchain?.mode } }
    /// How many swapchains have been made (tests check recreation with it).
    var swapchainsMade: Int { lock.withLock { madeCount } }
    /// Whether a swapchain exists now (it is released in the background).
    var hasSwapchain: Bool { lock.withLock { swapchain != nil } }

    /// A drawable whose command buffer was submitted, waiting for its present call.
    struct PresentRequest {
        let drawable: Drawable
        let swapchain: SwapchainPresenter
        let timing: PresentTiming
    }

    /// A frame whose present call returned, waiting for the server's report.
    struct AwaitingReport {
        let drawable: Drawable
        let paced: PacedPresent?
        /// Host time when the present call returned: the fallback if no report comes.
        let returned: Duration
    }

    /// What a swapchain is made from: the layer's settings when it is (re)made.
    struct Settings {
        var format: PixelFormat
        var size: Size2D
        var count: Int
        var mode: PresentMode
    }

    init(device: Device, window: WindowSystemHandle, lock: ConditionLock) throws(GPUError) {
        self.device = device
        self.lock = lock
        if let reason = device.backend.whyNoPresentation { throw .presentationUnavailable(reason) }
        do {
            surface = try PresentationSurface(window: window, device: device.backend)
        } catch {
            throw .vulkan(error)
        }
        thread = ServiceThread.start(name: "SwiftGPU.present", qos: .userInteractive, running: self) { $0.presentLoop() }
    }

    /// The window's current size, or nil where the swapchain decides it (Wayland).
    func windowSize() -> Size2D? {
        guard let (width, height) = try? surface.currentExtent() else { return nil }
        return Size2D(width: width, height: height)
    }

    // MARK: The layer's drawable source

    func nextDrawable(of layer: Layer, deadline: UInt64?) -> Drawable? {
        let lifecycle = device.lifecycle
        let settings = lock.withLock { () -> Settings? in
            let ready = lock.wait(until: {
                guard lifecycle.state == .active else { return true }
                return outstanding < (layer.lowLatency ? 1 : layer.count)
            }, deadline: deadline)
            guard ready, lifecycle.state == .active, layer.size.width > 0, layer.size.height > 0 else { return nil }
            outstanding += 1
            acquiring += 1
            return Settings(format: layer.format, size: layer.size, count: layer.count,
                            mode: layer.lowLatency ? .mailbox : layer.mode)
        }
        guard let settings else { return nil }
        let acquired = acquire(settings, deadline: deadline, isActive: { lifecycle.state == .active }) { size in
            lock.withLock { layer.size = size }
        }
        return lock.withLock { () -> Drawable? in
            acquiring -= 1
            guard let (index, texture, generation, swapchain) = acquired else {
                outstanding = max(outstanding - 1, 0)
                lock.broadcast()
                return nil
            }
            return Drawable(texture: texture, drawableID: layer.takeDrawableID(), layer: layer, slot: index,
                            generation: generation, frameStart: .nanoseconds(Int64(HostClock.nanoseconds())),
                            swapchain: swapchain)
        }
    }

    func present(_ drawable: Drawable, timing: PresentTiming, by commandBuffer: CommandBuffer) {
        guard let swapchain = drawable.swapchain else { return }
        commandBuffer.notePresented(swapchain, index: drawable.slot)
        commandBuffer.addScheduledHandler { [self] buffer in
            presentScheduled(drawable, swapchain: swapchain, timing: timing, submitted: buffer.status == .scheduled)
        }
    }

    /// The command buffer presenting `drawable` was submitted (`submitted`), or ended
    /// without reaching the GPU: queue the present, or give the image back unshown.
    private func presentScheduled(_ drawable: Drawable, swapchain: SwapchainPresenter, timing: PresentTiming, submitted: Bool) {
        guard submitted else {
            lock.withLock { giveBack(index: drawable.slot, generation: drawable.generation) }
            drawable.layer.finish(drawable, at: nil)
            releaseIfIdleInBackground()
            return
        }
        lock.withLock { drawable.handedToDisplay = .nanoseconds(Int64(HostClock.nanoseconds())) }
        enqueue(PresentRequest(drawable: drawable, swapchain: swapchain, timing: timing))
    }

    func reclaim(slot: Int, generation: Int) {
        lock.withLock { giveBack(index: slot, generation: generation) }
        releaseIfIdleInBackground()
    }

    func settingsChanged(_ layer: Layer) {
        wantsRecreation = true
        lock.broadcast()
    }

    func lifecycleChanged(_ transition: LifecycleTransition) {
        lock.withLock { lock.broadcast() }
        if transition.event == .didEnterBackground { releaseIfIdleInBackground() }
    }

    /// Destroys the swapchain while in the background, once no drawable is in flight; it
    /// is made again by the first `nextDrawable()` after the return.
    private func releaseIfIdleInBackground() {
        let lifecycle = device.lifecycle
        releaseIfIdle { lifecycle.state == .background }
    }

    // MARK: Acquisition

    /// An acquired image of the current swapchain, its texture, and the swapchain's
    /// generation; nil on timeout, zero size, a closed gate, or a failure. The caller has
    /// counted itself in `outstanding` and `acquiring`; `isActive` is read with `lock` held.
    private func acquire(_ settings: Settings, deadline: UInt64?, isActive: () -> Bool,
                 resized: (Size2D) -> Void) -> (index: Int, texture: Texture, generation: Int, swapchain: SwapchainPresenter)? {
        acquireLock.withLock { () -> (Int, Texture, Int, SwapchainPresenter)? in
            var attempts = 0
            while attempts < 3 {
                attempts += 1
                let (current, reuse, recreate) = lock.withLock { () -> (SwapchainPresenter?, Int?, Bool) in
                    // Remake only with no drawable handed out. Out of date: wait for those in
                    // flight. A wanted change waits only when each of them is already queued
                    // for its present (a short wait), else it is made on a later frame.
                    let onlyQueued = outstanding - acquiring == requests.elements.count
                    if !isIdle && (mustRecreate || (wantsRecreation && onlyQueued)) {
                        _ = lock.wait(until: { isIdle || !isActive() }, deadline: deadline)
                    }
                    let recreate = swapchain == nil || mustRecreate || (wantsRecreation && isIdle)
                    let reuse = recreate ? nil : reusable.popLast()
                    return (swapchain, reuse, recreate)
                }
                guard lock.withLock({ isActive() }) else { return nil }
                var chain = current
                if recreate {
                    if !lock.withLock({ isIdle }) { return nil }
                    guard let made = remake(settings, replacing: current, resized: resized) else { return nil }
                    chain = made
                }
                guard let chain else { return nil }
                if let reuse { return handOut(reuse, of: chain) }
                let remaining = deadline.map { $0 > HostClock.nanoseconds() ? $0 - HostClock.nanoseconds() : 0 }
                // Without a timeout, wait in slices so that a closing gate is seen.
                let slice = remaining ?? 50_000_000
                do throws(VulkanError) {
                    switch try chain.acquire(timeoutNanoseconds: slice) {
                    case .image(let index, let suboptimal):
                        if suboptimal { lock.withLock { wantsRecreation = true } }
                        return handOut(index, of: chain)
                    case .timedOut:
                        if deadline != nil { return nil }
                        attempts -= 1
                    }
                } catch where error.code == .outOfDate {
                    lock.withLock { mustRecreate = true }
                } catch {
                    return nil
                }
            }
            return nil
        }
    }

    /// Whether no drawable is handed out (only `nextDrawable()` calls in progress). Read
    /// with `lock` held.
    private var isIdle: Bool { outstanding == acquiring }

    /// Marks image `index` acquired and returns it with its texture.
    private func handOut(_ index: Int, of chain: SwapchainPresenter) -> (Int, Texture, Int, SwapchainPresenter)? {
        chain.images[index].noteAcquired()
        return lock.withLock {
            guard swapchain === chain else { return nil }
            return (index, textures[index], generation, chain)
        }
    }

    /// Makes a swapchain from `settings` and the surface's current state, replacing
    /// `old` once the queue is idle. Nil at zero size or when creation fails. Called
    /// under `acquireLock` with no drawable in flight but the caller's.
    private func remake(_ settings: Settings, replacing old: SwapchainPresenter?,
                        resized: (Size2D) -> Void) -> SwapchainPresenter? {
        // The old swapchain's presents must be done before it is retired and destroyed.
        if old != nil { try? device.backend.waitForQueueIdle() }
        let made: SwapchainPresenter?
        do {
            made = try SwapchainPresenter.make(surface: surface, device: device.backend, format: settings.format,
                                            requestedSize: (settings.size.width, settings.size.height),
                                            count: settings.count, mode: settings.mode, old: old)
        } catch {
            made = nil
        }
        guard let made else {
            // Zero size or a failure: the old swapchain is retired either way.
            if old != nil { lock.withLock { dropSwapchain() } }
            return nil
        }
        let descriptor = made.descriptor
        lock.withLock {
            swapchain = made
            textures = made.images.map { Texture(device: device, spec: descriptor, backing: $0) }
            reusable = []
            generation += 1
            madeCount += 1
            wantsRecreation = false
            mustRecreate = false
        }
        resized(Size2D(width: descriptor.width, height: descriptor.height))
        chooseTiming(for: made)
        return made
    }

    /// Forgets the swapchain and its images. Called with `lock` held.
    private func dropSwapchain() {
        swapchain = nil
        textures = []
        reusable = []
        generation += 1
    }

    /// Gives back image `index` of generation `generation`, acquired but not presented: it
    /// is handed out again. Called with `lock` held.
    private func giveBack(index: Int, generation: Int) {
        outstanding = max(outstanding - 1, 0)
        if generation == self.generation { reusable.append(index) }
        lock.broadcast()
    }

    /// Releases the swapchain (in the background) once no drawable is in flight. Not
    /// called with `lock` held.
    private func releaseIfIdle(when shouldRelease: () -> Bool) {
        // Checked first without `acquireLock`, which a `nextDrawable()` may hold while it
        // waits for this (present) thread.
        guard lock.withLock({ outstanding == 0 && swapchain != nil && shouldRelease() }) else { return }
        acquireLock.withLock {
            let released = lock.withLock { () -> SwapchainPresenter? in
                guard outstanding == 0, shouldRelease(), let swapchain else { return nil }
                dropSwapchain()
                return swapchain
            }
            guard released != nil else { return }
            try? device.backend.waitForQueueIdle()
        }
    }

    // MARK: Presentation

    /// Takes presented times from `feedback` from now on: the pacer moves onto its vblank
    /// grid and frames are finished when the server reports them.
    func use(_ feedback: any PresentationFeedback) {
        install(feedback, route: .serverFeedback)
    }

    /// Makes `feedback` the source of presented times by `route`, stopping the one before.
    private func install(_ feedback: any PresentationFeedback, route: PresentTimingRoute) {
        let previous = lock.withLock { () -> (any PresentationFeedback)? in
            defer {
                self.feedback = feedback
                usesServerFeedback = route == .serverFeedback
                timingRoute = route
                pacer = Pacer(clock: feedback.clock, holdsFrameStarts: false, snapsToVblanks: true)
            }
            return self.feedback
        }
        previous?.stop()
        finishAwaiting()
        feedback.start { [weak self] report in self?.reported(report) }
    }

    /// After a swapchain is made: without the server's feedback, times from the driver's
    /// present-timing extensions for it, where the device offers them.
    private func chooseTiming(for swapchain: SwapchainPresenter) {
        let support = device.backend.presentTiming.support
        guard !lock.withLock({ usesServerFeedback }) else { return }
        let route = PresentTimingRoute.choose(serverFeedback: false, support: support)
        guard route == .displayTiming || route == .presentWait else { return }
        install(DriverPresentTiming(route: route, swapchain: swapchain), route: route)
    }

    /// The server reported a frame: feed the pacer and finish its drawable.
    private func reported(_ report: PresentationReport) {
        guard let entry = lock.withLock({ () -> AwaitingReport? in
            guard let entry = awaiting.removeValue(forKey: report.frame) else { return nil }
            if let paced = entry.paced {
                pacer.frameDisplayed(paced, start: entry.drawable.frameStart, displayed: report.presentedTime)
            } else if let time = report.presentedTime {
                pacer.unpacedFrameShown(at: time)
            }
            return entry
        }) else { return }
        entry.drawable.layer.finish(entry.drawable, at: report.presentedTime, report: report)
    }

    /// Finishes the frames still waiting for a report with the time their present call
    /// returned: the feedback was replaced or the layer is going.
    private func finishAwaiting() {
        let entries = lock.withLock { () -> [AwaitingReport] in
            defer { awaiting = [:] }
            return awaiting.values.sorted { $0.drawable.drawableID < $1.drawable.drawableID }
        }
        for entry in entries { entry.drawable.layer.finish(entry.drawable, at: entry.returned) }
    }

    /// Waits until the present thread has made every present queued so far: a test then
    /// sees on the window whatever was presented, with no wait of its own.
    func waitUntilQueuedPresentsMade() {
        lock.withLock { lock.wait { requests.isEmpty || isStopping } }
    }

    /// Queues `drawable`'s present; the present thread makes it in submission order.
    private func enqueue(_ request: PresentRequest) {
        lock.withLock {
            requests.append(request)
            lock.broadcast()
        }
    }

    /// The present thread: takes requests in order, holds each until its time, presents it
    /// and reports the outcome to its layer.
    private func presentLoop() {
        while let request = lock.withLock({ () -> PresentRequest? in
            lock.wait { !requests.isEmpty || isStopping }
            return requests.first
        }) {
            let paced = holdUntilPresentTime(request.timing)
            let (installed, frame) = lock.withLock { () -> ((any PresentationFeedback)?, UInt64) in
                defer { nextFrame += 1 }
                return (self.feedback, nextFrame)
            }
            // The driver's timing reports only on the swapchain it was made for.
            let driver = installed as? DriverPresentTiming
            let feedback = driver.map { $0.swapchain === request.swapchain } == false ? nil : installed
            var shownAt: UInt64?
            feedback?.willPresent(frame: frame)
            do {
                let suboptimal = try request.swapchain.present(index: request.drawable.slot, id: frame,
                                                               route: feedback == nil ? .hostClock : driver?.route ?? .serverFeedback)
                shownAt = HostClock.nanoseconds()
                if suboptimal { lock.withLock { wantsRecreation = true } }
            } catch {
                // Out of date (or lost): the image was not shown; remake before the next acquire.
                lock.withLock { mustRecreate = true }
            }
            feedback?.didPresent(frame: frame, shown: shownAt != nil)
            let awaitsReport = lock.withLock { () -> Bool in
                // One step: a drawable is queued or in flight until both are done.
                _ = requests.removeFirst()
                outstanding = max(outstanding - 1, 0)
                lock.broadcast()
                guard let shownAt else { return false }
                let time = Duration.nanoseconds(Int64(shownAt))
                // With server feedback the frame is finished when the server reports it.
                if self.feedback != nil, self.feedback === feedback {
                    awaiting[frame] = AwaitingReport(drawable: request.drawable, paced: paced, returned: time)
                    return true
                }
                if let paced {
                    pacer.frameDisplayed(paced, start: request.drawable.frameStart, displayed: time)
                } else {
                    pacer.unpacedFrameShown(at: time)
                }
                return false
            }
            if !awaitsReport { request.drawable.layer.finish(request.drawable, at: shownAt.map { .nanoseconds(Int64($0)) }) }
            releaseIfIdleInBackground()
        }
    }

    /// Holds a present until the time its pacer gives it, never earlier: the one place
    /// where `present(_:atTime:)` and `present(_:afterMinimumDuration:)` wait on window
    /// surfaces (host monotonic time). Returns the pacer's decision; nil for `present(_:)`.
    private func holdUntilPresentTime(_ timing: PresentTiming) -> PacedPresent? {
        guard timing != .asSoonAsPossible else { return nil }
        let (paced, lead) = lock.withLock { () -> (PacedPresent, Duration) in
            let paced = pacer.target(for: timing, arrival: .nanoseconds(Int64(HostClock.nanoseconds())))
            // On the server's grid the target is a vblank: present three quarters of a
            // refresh before it, so that the frame is in place when the server shows it at
            // that vblank. (A real CRTC shows a frame presented in the refresh before the
            // vblank; Xvfb's fake one counts vblanks from half a refresh earlier.)
            return (paced, pacer.snapsToVblanks ? pacer.clock.refreshPeriod * 3 / 4 : .zero)
        }
        let deadline = UInt64(max((paced.target - lead).nanoseconds, 0))
        lock.withLock { _ = lock.wait(until: { isStopping }, deadline: deadline) }
        return paced
    }

    /// Stops the present thread and releases the swapchain; called when the layer goes.
    func shutdown() {
        lock.withLock {
            isStopping = true
            lock.broadcast()
        }
        thread?.join()
        lock.withLock { feedback }?.stop()
        finishAwaiting()
        let released = lock.withLock { () -> SwapchainPresenter? in
            defer { dropSwapchain() }
            return swapchain
        }
        if released != nil { try? device.backend.waitForQueueIdle() }
    }
}
