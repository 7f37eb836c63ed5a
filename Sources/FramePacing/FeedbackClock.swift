import SwiftGPUSupport

/// Real time on `CLOCK_MONOTONIC` with the vblank grid of a display server that reports
/// presented frames but sends no vblank events of its own (Wayland's presentation-time
/// protocol): every report moves the grid onto the reported time and refresh.
///
/// Timers run on one thread, started with the first timer, that sleeps until the earliest
/// deadline (timers within each other's leeway share a wakeup): any number of display
/// links cost one wakeup per vblank they need, and an idle clock none.
public final class FeedbackClock: DisplayClock {
    private let grid: LockedValue<(vblank: Duration, period: Duration)>
    private let core = TimerThread()

    /// A clock on a grid of `refreshRate` from now, until the first report moves it.
    public init(refreshRate: Double = 60) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "FeedbackClock: refreshRate must be positive, got \(refreshRate)")
        grid = LockedValue((MonotonicClock.monotonicNow(), .wholeNanoseconds(1 / refreshRate)))
    }

    deinit { core.stop() }

    /// Moves the grid onto a vblank the server reported at `vblank`, with its refresh
    /// period when it gave one (a zero or missing period keeps the current one).
    public func synchronize(vblank: Duration, period: Duration?) {
        grid.withLock { grid in
            grid.vblank = vblank
            if let period, period > .zero { grid.period = period }
        }
    }

    /// Vblanks per second, as the server last reported.
    public var refreshRate: Double { 1 / grid.withLock { $0.period }.inSeconds }

    /// `CLOCK_MONOTONIC` now.
    public var now: Duration { MonotonicClock.monotonicNow() }

    /// The first vblank of the server's grid at or after `time`.
    public func vblank(atOrAfter time: Duration) -> Duration {
        let (base, period) = grid.withLock { ($0.vblank, $0.period) }
        let steps = ((time - base) / period).rounded(.up)
        return base + period * steps
    }

    /// Runs `action` on the clock's thread at `deadline`, or up to `leeway` later when that
    /// lets it share a wakeup.
    public func schedule(at deadline: Duration, leeway: Duration,
                         _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        core.schedule(at: deadline, leeway: leeway, action)
    }

    /// How many times the timer thread has woken to run timers.
    public var wakeups: Int { core.wakeups }
}
