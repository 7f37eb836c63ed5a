import CXCBPresent
import Dispatch
import FramePacing
import Glibc
import SwiftGPUSupport

/// Why an `XPresentClock` could not be made.
public enum XPresentClockError: Error, Sendable, CustomStringConvertible {
    /// The X server does not offer the Present extension (1.0 or later).
    case presentUnavailable
    /// Present events could not be selected on the window (is it a window of this
    /// connection?).
    case registrationFailed(window: UInt32)
    /// The server sent no MSC notification for the window: its CRTC is not running.
    case noVblank

    /// A readable message.
    public var description: String {
        switch self {
        case .presentUnavailable: "the X server does not offer the Present extension"
        case .registrationFailed(let window): "could not select Present events on window \(window)"
        case .noVblank: "the X server reported no vblank for the window"
        }
    }
}

/// The vblanks of the CRTC an X11 window is on, through the Present extension's MSC
/// notifications: the clock a display link or pacer on an X11 window runs on. Xvfb has no
/// CRTC but ticks a fake one, at 60 Hz or `-fakescreenfps N`.
///
/// - `now` is `CLOCK_MONOTONIC` (Present's UST is that clock, in microseconds).
/// - `refreshRate` is measured: MSC and UST of the first and latest notifications.
/// - `vblank(atOrAfter:)` predicts from the latest vblank and the measured period.
/// - Timers run on the clock's event thread at vblanks: a timer runs at the first vblank
///   at or after its deadline less half a refresh (measured vblanks jitter around their
///   predictions, and a timer for a predicted vblank must run at that vblank), with that
///   vblank's time on the measured grid (the latest notification that arrived at its
///   target vblank, plus whole periods). The clock asks the server for the notification of the vblank the
///   earliest timer needs, not every vblank; with no timer it asks for nothing, and its
///   thread sleeps.
///
/// Invalidate the clock (or release it) before destroying its window: a notification
/// request for a destroyed window never completes.
public final class XPresentClock: DisplayClock {
    let core: XPresentCore

    /// A clock on the CRTC `window` (on `connection`) is shown on. Waits for two vblanks
    /// to measure the refresh period (refined by every later notification).
    public init(connection: OpaquePointer, window: UInt32) throws(XPresentClockError) {
        core = try XPresentCore(connection: UnsafeMutableRawPointer(connection), window: window)
    }

    deinit { core.stop() }

    /// Vblanks per second, as measured.
    public var refreshRate: Double { .seconds(1) / core.period }

    /// `CLOCK_MONOTONIC` now.
    public var now: Duration { .nanoseconds(Int64(HostClock.nanoseconds())) }

    /// The predicted time of the first vblank at or after `time`.
    public func vblank(atOrAfter time: Duration) -> Duration { core.vblank(atOrAfter: time) }

    /// Runs `action` on the clock's thread at the vblank for `deadline` (see the type's
    /// notes); `leeway` has no further effect, since timers already share vblanks.
    public func schedule(at deadline: Duration, leeway: Duration,
                         _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        core.schedule(at: deadline, action)
    }

    /// How many notifications the clock's thread has woken for.
    public var wakeups: Int { core.wakeups }

    /// The latest vblank the server reported: its MSC and time.
    public var latestVblank: (msc: UInt64, time: Duration) { core.latest }

    /// Stops the clock's thread; no timer runs afterwards.
    public func invalidate() { core.stop() }
}

/// The state and event thread behind `XPresentClock`.
///
/// `@unchecked Sendable`: every mutable property is guarded by `lock`; the connection and
/// the event registration are used by the event thread (waiting) and through xcb's own
/// locking (requests).
final class XPresentCore: @unchecked Sendable {
    private let connection: UnsafeMutableRawPointer
    private let window: UInt32
    private let events: OpaquePointer
    private let lock = ConditionLock(rank: .leaf("XPresentClock.lock"))
    // Guarded by lock.
    private var timers = TimerQueue()
    private var first: (msc: UInt64, ust: UInt64)
    private var last: (msc: UInt64, ust: UInt64)
    private var requested: UInt64?
    /// The target MSC of each notification asked for, by serial.
    private var targets: [UInt32: UInt64] = [:]
    private var serial: UInt32 = 0
    private var stopping = false
    private var finished = false
    private var wakeupCount = 0
    private var eventThread: pthread_t?
    /// Where presented frames are reported, while a feedback uses this clock.
    private var feedbackReport: (@Sendable (PresentationReport) -> Void)?
    private var matcher = XPresentFrameMatcher()

    init(connection: UnsafeMutableRawPointer, window: UInt32) throws(XPresentClockError) {
        guard swiftgpu_present_supported(connection) == 1 else { throw .presentUnavailable }
        guard let events = swiftgpu_present_register(connection, window) else { throw .registrationFailed(window: window) }
        self.connection = connection
        self.window = window
        self.events = events
        // The current MSC (target 0 completes at once, with the time of the reply rather
        // than of that vblank), then the next two vblanks: the period is measured between
        // real vblank notifications only.
        var samples: [(msc: UInt64, ust: UInt64)] = []
        swiftgpu_present_notify_msc(connection, window, 0, 0)
        while samples.count < 3 {
            var completion = SwiftGPUPresentCompletion()
            guard swiftgpu_present_next(connection, events, 1, &completion) == 1 else {
                swiftgpu_present_unregister(connection, events)
                throw .noVblank
            }
            guard completion.kind == 1, completion.serial == 0 else { continue }
            samples.append((completion.msc, completion.ust))
            if samples.count < 3 { swiftgpu_present_notify_msc(connection, window, 0, completion.msc + 1) }
        }
        first = samples[1]
        last = samples[2]
        guard last.msc > first.msc else {
            swiftgpu_present_unregister(connection, events)
            throw .noVblank
        }
        // Not real-time: timers run the app's display-link callbacks, of any cost.
        startThread { [self] in
            nameCurrentThread("GPUXCB.XPresentClock")
            ThreadScheduling.apply(.userInitiated)
            run()
        }
    }

    /// The measured refresh period. Call with the lock held or through `period`.
    private func measuredPeriod() -> Duration {
        .nanoseconds(Int64((last.ust - first.ust) * 1000 / (last.msc - first.msc)))
    }

    var period: Duration { lock.withLock { measuredPeriod() } }

    /// The time of vblank `msc` from the latest timed vblank and the measured period. Call
    /// with the lock held.
    private func predictedTime(msc: UInt64) -> Duration {
        .microseconds(Int64(last.ust)) + measuredPeriod() * (Double(msc) - Double(last.msc))
    }

    var wakeups: Int { lock.withLock { wakeupCount } }

    var latest: (msc: UInt64, time: Duration) { lock.withLock { (last.msc, .microseconds(Int64(last.ust))) } }

    func vblank(atOrAfter time: Duration) -> Duration {
        lock.withLock {
            let period = measuredPeriod()
            let base = Duration.microseconds(Int64(last.ust))
            let steps = ((time - base) / period).rounded(.up)
            return base + period * steps
        }
    }

    func schedule(at deadline: Duration, _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        lock.withLock {
            let id = timers.add(deadline: deadline, leeway: .zero, action)
            requestNotification()
            return ClockTimer { [weak self] in
                guard let self else { return }
                lock.withLock { _ = timers.remove(id) }
            }
        }
    }

    func stop() {
        let wake = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping && !finished
        }
        // A notification for an MSC already passed completes at once and wakes the thread.
        if wake { swiftgpu_present_notify_msc(connection, window, 0, 0) }
        // From a timer's action (the event thread itself) the thread ends after it returns.
        lock.withLock {
            if let eventThread, pthread_equal(eventThread, pthread_self()) != 0 { return }
            lock.wait { finished }
        }
    }

    /// Asks for the notification of the vblank the earliest timer runs at, unless one at
    /// or before it is already asked for. Call with the lock held.
    private func requestNotification() {
        guard !stopping, let deadline = timers.earliestDeadline else { return }
        let period = measuredPeriod()
        let base = Duration.microseconds(Int64(last.ust))
        let ahead = max(((deadline - period / 2 - base) / period).rounded(.up), 1)
        let target = last.msc + UInt64(ahead)
        if let requested, requested <= target { return }
        requested = target
        serial = serial == 0x7FFF_FFFF ? 1 : serial + 1
        targets[serial] = target
        swiftgpu_present_notify_msc(connection, window, serial, target)
    }

    // MARK: Presentation feedback

    /// Reports presented frames to `report` from now on.
    func startFeedback(_ report: @escaping @Sendable (PresentationReport) -> Void) {
        lock.withLock { feedbackReport = report }
    }

    /// No more reports; frames not yet reported are forgotten.
    func stopFeedback() {
        lock.withLock {
            feedbackReport = nil
            matcher = XPresentFrameMatcher()
        }
    }

    /// The present call for `frame` returned having shown it: asks the server for the
    /// vblank that shows it, unless the driver's own completions report it.
    func presented(frame: UInt64) {
        let now = Duration.nanoseconds(Int64(HostClock.nanoseconds()))
        let serial = lock.withLock { () -> UInt32? in
            guard feedbackReport != nil, !stopping else { return nil }
            return matcher.presented(frame: frame, at: now)
        }
        if let serial { swiftgpu_present_notify_next_msc(connection, window, serial) }
    }

    // MARK: The event thread

    /// What the connection had for the event thread.
    private enum Event {
        /// A CompleteNotify.
        case completion(XPresentCompletion)
        /// Another Present event.
        case other
        /// Nothing queued (only when not waiting).
        case none
    }

    /// The next Present event, waiting for one when `block`. Throws when the connection
    /// has failed.
    private func nextEvent(block: Bool) throws(XPresentClockError) -> Event {
        var completion = SwiftGPUPresentCompletion()
        switch swiftgpu_present_next(connection, events, block ? 1 : 0, &completion) {
        case 1: break
        case 0: return .none
        default: throw .noVblank
        }
        switch completion.kind {
        case 1:
            return .completion(XPresentCompletion(kind: .notifyMSC, serial: completion.serial, ust: completion.ust,
                                                  msc: completion.msc))
        case 2:
            let mode: PresentCompletionMode = switch completion.mode {
            case 0, 3: .copy
            case 1: .flip
            case 2: .skip
            default: .unknown
            }
            return .completion(XPresentCompletion(kind: .pixmap(mode), serial: completion.serial, ust: completion.ust,
                                                  msc: completion.msc))
        default: return .other
        }
    }

    /// The event thread: each batch of completions (those the server sent together) updates
    /// the vblank estimate, reports presented frames, runs the timers due at the latest
    /// vblank and asks for the next one needed.
    private func run() {
        lock.withLock { eventThread = pthread_self() }
        while true {
            // One event, waited for, then whatever else has come with it.
            var batch: [XPresentCompletion] = []
            do {
                var event = try nextEvent(block: true)
                while true {
                    switch event {
                    case .completion(let completion): batch.append(completion)
                    case .other: break
                    case .none: break
                    }
                    if case .none = event { break }
                    event = try nextEvent(block: false)
                }
            } catch {
                break
            }
            if batch.isEmpty { continue }
            let work = lock.withLock { () -> (due: [TimerQueue.Entry], vblank: Duration, reports: [PresentationReport],
                                              report: (@Sendable (PresentationReport) -> Void)?)? in
                guard !stopping else { return nil }
                wakeupCount += 1
                for completion in batch where completion.msc > last.msc {
                    switch completion.kind {
                    case .notifyMSC:
                        // A clock notification for an MSC the server had already passed when
                        // the request came completes at once, with the time of the reply:
                        // only one that arrived at its target vblank times that vblank. The
                        // feedback's ask for the next vblank, so they always do.
                        let target = targets.removeValue(forKey: completion.serial)
                        if target == completion.msc || XPresentFrameMatcher.isFeedback(serial: completion.serial) {
                            last = (completion.msc, completion.ust)
                        }
                    case .pixmap(let mode):
                        if mode != .skip { last = (completion.msc, completion.ust) }
                    }
                }
                for completion in batch { _ = targets.removeValue(forKey: completion.serial) }
                let msc = batch.map(\.msc).max() ?? last.msc
                if let requested, requested <= msc { self.requested = nil }
                var reports: [PresentationReport] = []
                if feedbackReport != nil {
                    let taken = matcher.take(batch, latestMSC: max(msc, last.msc))
                    reports = taken.reports
                    // A frame waits for the server to report a later vblank: ask for it.
                    if let waiting = taken.waitsForVblankAfter, !targets.values.contains(where: { $0 > waiting }) {
                        serial = serial == 0x7FFF_FFFF ? 1 : serial + 1
                        targets[serial] = waiting + 1
                        swiftgpu_present_notify_msc(connection, window, serial, waiting + 1)
                    }
                }
                let vblank = predictedTime(msc: msc)
                let due = timers.takeDue(at: vblank + measuredPeriod() / 2)
                requestNotification()
                return (due, vblank, reports, feedbackReport)
            }
            guard let work else { break }
            if let report = work.report { work.reports.forEach(report) }
            for entry in work.due { entry.action(work.vblank) }
        }
        swiftgpu_present_unregister(connection, events)
        lock.withLock {
            finished = true
            lock.broadcast()
        }
    }
}
