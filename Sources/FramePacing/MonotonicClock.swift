import Dispatch
import Glibc
import SwiftGPUSupport

/// Real time: `CLOCK_MONOTONIC` in the same seconds as `Drawable.presentedTime`, with a
/// fixed vblank grid at `refreshRate` starting when the clock is made.
///
/// Timers run on one thread the clock starts with its first timer. The thread sleeps on
/// an absolute deadline (the earliest timer's deadline plus its leeway), so timers due
/// within each other's leeway share one wakeup, and with no timer it sleeps until one is
/// scheduled: an idle clock costs no CPU.
public final class MonotonicClock: DisplayClock {
    /// Vblanks per second of the grid.
    public let refreshRate: Double
    /// Monotonic time of vblank 0.
    public let origin: Duration
    private let core: TimerThread

    /// A clock whose vblank grid runs at `refreshRate` from now.
    public init(refreshRate: Double = 60) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "MonotonicClock: refreshRate must be positive, got \(refreshRate)")
        self.refreshRate = refreshRate
        origin = Self.monotonicNow()
        core = TimerThread(name: "FramePacing.MonotonicClock")
    }

    deinit { core.stop() }

    /// `CLOCK_MONOTONIC` now.
    public var now: Duration { Self.monotonicNow() }

    /// The first grid vblank at or after `time`.
    public func vblank(atOrAfter time: Duration) -> Duration {
        origin + gridVblank(atOrAfter: max(time - origin, .zero), rate: refreshRate)
    }

    /// Runs `action` on the clock's thread at `deadline`, or up to `leeway` later when that
    /// lets it share a wakeup.
    public func schedule(at deadline: Duration, leeway: Duration,
                         _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        core.schedule(at: deadline, leeway: leeway, action)
    }

    /// How many times the timer thread has woken to run timers: a measure of the CPU an
    /// idle or paused client costs.
    public var wakeups: Int { core.wakeups }

    /// `CLOCK_MONOTONIC` as a duration.
    static func monotonicNow() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

/// The thread behind `MonotonicClock`'s timers.
///
/// `@unchecked Sendable`: `queue`, `stopped`, `started` and `wakeupCount` are guarded by
/// `lock`.
final class TimerThread: @unchecked Sendable {
    /// The thread's name (what `/proc` shows of it: its first 15 characters).
    private let name: String
    private let lock = ConditionLock(rank: .leaf("MonotonicClock.lock"))
    private var queue = TimerQueue()
    private var stopped = false
    private var started = false
    private var wakeupCount = 0

    var wakeups: Int { lock.withLock { wakeupCount } }

    /// A timer thread named `name`, started with its first timer.
    init(name: String) { self.name = name }

    func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        let (id, start) = lock.withLock { () -> (UInt64, Bool) in
            let id = queue.add(deadline: deadline, leeway: leeway, action)
            lock.broadcast()
            defer { started = true }
            return (id, !started && !stopped)
        }
        if start {
            // Not real-time: timers run the app's display-link callbacks, of any cost.
            startThread { [self] in
                nameCurrentThread(name)
                ThreadScheduling.apply(.userInitiated)
                run()
            }
        }
        return ClockTimer { [weak self] in
            guard let self else { return }
            lock.withLock { _ = queue.remove(id) }
        }
    }

    func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
    }

    /// Sleeps until the earliest wake time (or a change), runs what is due, and again.
    private func run() {
        while true {
            let due = lock.withLock { () -> [TimerQueue.Entry]? in
                while !stopped {
                    let wake = queue.wakeTime
                    let now = MonotonicClock.monotonicNow()
                    if let wake, wake <= now {
                        wakeupCount += 1
                        return queue.takeDue(at: now)
                    }
                    let deadline = wake.map { UInt64($0.nanoseconds) }
                    _ = lock.wait(until: { stopped || queue.wakeTime != wake }, deadline: deadline)
                }
                return nil
            }
            guard let due else { return }
            for entry in due { entry.action(MonotonicClock.monotonicNow()) }
        }
    }
}
