import Dispatch
import FramePacing
import SwiftGPUSupport

/// Presented times from the Vulkan driver's present-timing extensions, for a window layer
/// whose app gave it no server feedback: one per swapchain, made with it when the device
/// offers `VK_GOOGLE_display_timing` (each image's actual present time, read after each
/// present) or `VK_KHR_present_wait` (a thread waits for each present in turn and reports
/// the host's time when the wait returns).
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the swapchain and route
/// are immutable.
final class DriverPresentTiming: PresentationFeedback, @unchecked Sendable {
    let route: PresentTimingRoute
    let swapchain: SwapchainPresenter
    private let feedbackClock: FeedbackClock
    private let lock = ConditionLock(rank: .leaf("DriverPresentTiming.lock"))
    private var report: (@Sendable (PresentationReport) -> Void)?
    /// Display timing's 32-bit present IDs, to the frames they stand for.
    private var frames: [UInt32: UInt64] = [:]
    /// Present waits: the frames presented and not yet waited for, in order.
    private var waits = FIFO<UInt64>()
    private var stopping = false
    private var thread: ServiceThread?

    /// How long one `vkWaitForPresentKHR` call waits before the thread looks for a stop.
    static let waitSlice: UInt64 = 50_000_000

    /// Timing for `swapchain` by `route` (`.displayTiming` or `.presentWait`).
    init(route: PresentTimingRoute, swapchain: SwapchainPresenter) {
        self.route = route
        self.swapchain = swapchain
        let refresh = route == .displayTiming ? swapchain.refreshCycle() : nil
        feedbackClock = FeedbackClock(refreshRate: refresh.map { 1e9 / Double($0) } ?? 1 / Layer.assumedRefreshPeriod)
    }

    /// The display's vblanks, as the presents' times give them.
    var clock: any DisplayClock { feedbackClock }

    func start(_ report: @escaping @Sendable (PresentationReport) -> Void) {
        lock.withLock { self.report = report }
        guard route == .presentWait else { return }
        let started = ServiceThread.start(name: "SwiftGPU.presentWait", qos: .userInteractive, running: self) { $0.waitLoop() }
        lock.withLock { thread = started }
    }

    func willPresent(frame: UInt64) {
        if route == .displayTiming { lock.withLock { frames[UInt32(truncatingIfNeeded: frame)] = frame } }
    }

    func didPresent(frame: UInt64, shown: Bool) {
        switch route {
        case .displayTiming:
            if !shown { lock.withLock { _ = frames.removeValue(forKey: UInt32(truncatingIfNeeded: frame)) } }
            let refresh = swapchain.refreshCycle().map { Duration.nanoseconds(Int64($0)) }
            for past in swapchain.pastPresentations() {
                guard let (made, send) = lock.withLock({ () -> (PresentationReport, (@Sendable (PresentationReport) -> Void)?)? in
                    guard let frame = frames.removeValue(forKey: past.id) else { return nil }
                    return (PresentationReport(frame: frame, presentedTime: .nanoseconds(Int64(past.shownAt)), refresh: refresh,
                                               mode: .unknown), report)
                }) else { continue }
                feedbackClock.synchronize(vblank: made.presentedTime!, sequence: nil, refresh: refresh)
                send?(made)
            }
        case .presentWait:
            guard shown else { return }
            lock.withLock {
                waits.append(frame)
                lock.broadcast()
            }
        case .serverFeedback, .hostClock:
            break
        }
    }

    /// Present waits: waits for each present in order and reports it when it was shown.
    private func waitLoop() {
        while let frame = lock.withLock({ () -> UInt64? in
            lock.wait { !waits.isEmpty || stopping }
            return stopping ? nil : waits.first
        }) {
            var shown = false
            while !shown, !lock.withLock({ stopping }) {
                // Each slice ends by itself within `waitSlice`, so the exit needs no wake.
                guard let seen = ServiceActivity.blocking({ swapchain.waitForPresent(id: frame, timeout: Self.waitSlice) })
                else { return }
                shown = seen
            }
            guard shown else { return }
            let time = Duration.nanoseconds(Int64(HostClock.nanoseconds()))
            feedbackClock.synchronize(vblank: time, sequence: nil, refresh: nil)
            let send = lock.withLock { () -> (@Sendable (PresentationReport) -> Void)? in
                _ = waits.removeFirst()
                return report
            }
            send?(PresentationReport(frame: frame, presentedTime: time, mode: .unknown))
        }
    }

    func stop() {
        let running = lock.withLock { () -> ServiceThread? in
            stopping = true
            report = nil
            lock.broadcast()
            return thread
        }
        running?.join()
    }
}
