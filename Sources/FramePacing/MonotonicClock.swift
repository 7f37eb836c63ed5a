import Foundation
import Glibc

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
        core = TimerThread()
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
/// `mutex`; the pthread objects are allocated once and never move.
final class TimerThread: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue = TimerQueue()
    private var stopped = false
    private var started = false
    private var wakeupCount = 0

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    var wakeups: Int { locked { wakeupCount } }

    func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        let (id, start) = locked { () -> (UInt64, Bool) in
            let id = queue.add(deadline: deadline, leeway: leeway, action)
            pthread_cond_signal(condition)
            defer { started = true }
            return (id, !started && !stopped)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "FramePacing.MonotonicClock"
            thread.qualityOfService = .userInteractive
            thread.start()
        }
        return ClockTimer { [weak self] in
            guard let self else { return }
            locked { _ = queue.remove(id) }
        }
    }

    func stop() {
        locked {
            stopped = true
            pthread_cond_signal(condition)
        }
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while !stopped {
            guard let wake = queue.wakeTime else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            let now = MonotonicClock.monotonicNow()
            if now < wake {
                var time = timespec(tv_sec: Int(wake.components.seconds), tv_nsec: Int(wake.components.attoseconds / 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &time)
                continue
            }
            wakeupCount += 1
            let due = queue.takeDue(at: now)
            pthread_mutex_unlock(mutex)
            for entry in due { entry.action(MonotonicClock.monotonicNow()) }
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }
}
