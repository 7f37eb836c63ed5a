import CWaylandPresentation
import Dispatch
import FramePacing
import Glibc
import SwiftGPUSupport

/// Why a `WaylandPresentationFeedback` could not be made.
public enum WaylandPresentationError: Error, Sendable, CustomStringConvertible {
    /// The compositor offers no `wp_presentation` global (presentation-time protocol).
    case presentationUnavailable
    /// The pipe that wakes the feedback's thread could not be made.
    case resources

    /// A readable message.
    public var description: String {
        switch self {
        case .presentationUnavailable: "the Wayland compositor offers no wp_presentation (presentation-time protocol)"
        case .resources: "the presentation feedback's wake pipe could not be made"
        }
    }
}

/// When a Wayland surface's frames were shown, as the compositor reports it through the
/// presentation-time protocol (`wp_presentation`): hand it to the surface's layer with
/// `Layer.usePresentationFeedback(_:)`.
///
/// Before each present the layer asks for `wp_presentation_feedback` on the surface; the
/// Vulkan driver's commit in `vkQueuePresentKHR` is the commit it reports on: `presented`
/// (time, refresh, sequence; zero-copy shown as `.flip`) or `discarded` (`.skip`). Its
/// objects live on an event queue of their own, dispatched by one thread that sleeps in
/// `poll` until the compositor answers. `clock` is a `FeedbackClock` that each report moves
/// onto the compositor's time and refresh.
///
/// The host keeps the connection and surface alive for as long as the feedback lives; its
/// own dispatching must use `wl_display_prepare_read` (as `wl_display_dispatch` does), so
/// that both threads read the connection.
///
/// `@unchecked Sendable`: `report` and `stopped` are guarded by `lock`; the C state is used
/// by the requesting thread and the dispatching thread under its own lock.
public final class WaylandPresentationFeedback: PresentationFeedback, @unchecked Sendable {
    private let presentation: OpaquePointer
    /// Offset from the compositor's clock to `CLOCK_MONOTONIC`, when it uses another one.
    private let clockOffset: Duration
    private let wake: (read: Int32, write: Int32)
    private let lock = ConditionLock(rank: .leaf("WaylandPresentationFeedback.lock"))
    private var report: (@Sendable (PresentationReport) -> Void)?
    private var stopped = false
    private var thread: ServiceThread?
    private let feedbackClock = FeedbackClock()

    /// Feedback for `surface` (a `wl_surface *`) on `display` (its `wl_display *`). Throws
    /// when the compositor offers no `wp_presentation`.
    public init(display: OpaquePointer, surface: OpaquePointer) throws(WaylandPresentationError) {
        var clock: UInt32 = 0
        guard let presentation = swiftgpu_presentation_create(display, surface, &clock) else {
            throw .presentationUnavailable
        }
        guard let wake = closeOnExecPipe() else {
            swiftgpu_presentation_destroy(presentation)
            throw .resources
        }
        self.presentation = presentation
        self.wake = wake
        clockOffset = Self.offset(toMonotonicFrom: clockid_t(clock))
    }

    deinit {
        stop()
        swiftgpu_presentation_destroy(presentation)
        close(wake.read)
        close(wake.write)
    }

    /// The compositor's vblank grid, as its reports give it.
    public var clock: any DisplayClock { feedbackClock }

    /// Starts the dispatching thread, reporting to `report`.
    public func start(_ report: @escaping @Sendable (PresentationReport) -> Void) {
        let begin = lock.withLock { () -> Bool in
            guard !stopped, self.thread == nil else { return false }
            self.report = report
            return true
        }
        guard begin else { return }
        let started = ServiceThread.start(name: "GPUWayland.presentation", qos: .userInteractive, running: self) { $0.run() }
        lock.withLock { thread = started }
    }

    /// Asks for feedback on the commit that presents `frame`.
    public func willPresent(frame: UInt64) {
        guard lock.withLock({ report != nil && !stopped }) else { return }
        _ = swiftgpu_presentation_request(presentation, frame)
    }

    /// Nothing to do after a Wayland present: a failed one made no commit, and its request
    /// reports with the next commit under a number the layer no longer waits for.
    public func didPresent(frame: UInt64, shown: Bool) {}

    /// Stops the thread; no report is made after it returns.
    public func stop() {
        let thread = lock.withLock { () -> ServiceThread? in
            stopped = true
            report = nil
            return self.thread
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        thread?.join()
    }

    /// The dispatching thread: waits for the compositor's answers and reports them.
    private func run() {
        while !lock.withLock({ stopped }) {
            guard swiftgpu_presentation_dispatch(presentation, wake.read) > 0 else { return }
            var result = SwiftGPUPresentationResult()
            while swiftgpu_presentation_next(presentation, &result) == 1 {
                let made = Self.report(from: result, offset: clockOffset)
                if let time = made.presentedTime {
                    feedbackClock.synchronize(vblank: time, sequence: made.msc, refresh: made.refresh)
                }
                lock.withLock { report }?(made)
            }
        }
    }

    /// The report of one result, its time moved onto `CLOCK_MONOTONIC` by `offset`.
    static func report(from result: SwiftGPUPresentationResult, offset: Duration) -> PresentationReport {
        guard result.presented == 1 else { return PresentationReport(frame: result.frame, presentedTime: nil, mode: .skip) }
        let time = Duration.seconds(Int64(result.seconds)) + .nanoseconds(Int64(result.nanoseconds)) + offset
        let zeroCopy: UInt32 = 8
        return PresentationReport(frame: result.frame, presentedTime: time,
                                  msc: result.sequence == 0 ? nil : result.sequence,
                                  refresh: result.refresh == 0 ? nil : .nanoseconds(Int64(result.refresh)),
                                  mode: result.flags & zeroCopy != 0 ? .flip : .copy)
    }

    /// What to add to a time on `clock` to have it on `CLOCK_MONOTONIC` (zero for it).
    static func offset(toMonotonicFrom clock: clockid_t) -> Duration {
        guard clock != CLOCK_MONOTONIC else { return .zero }
        var other = timespec(), monotonic = timespec()
        clock_gettime(clock, &other)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        return (.seconds(monotonic.tv_sec) + .nanoseconds(monotonic.tv_nsec)) - (.seconds(other.tv_sec) + .nanoseconds(other.tv_nsec))
    }
}
