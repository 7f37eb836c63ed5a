import SwiftGPUSupport

/// Real time on `CLOCK_MONOTONIC` with the vblank grid of a display server that reports
/// presented frames but sends no vblank events of its own (Wayland's presentation-time
/// protocol): every report moves the grid onto the reported time.
///
/// The period is what the server's frames show: reports of nearby frames give samples of
/// it (their time apart over their sequence numbers apart, or, from a server that counts no
/// sequence, the time between reports within half a period of one period), averaged,
/// starting from the refresh the server reports. A compositor's frame clock may run slower
/// than its nominal refresh (Weston's headless output does), and pacing follows the frames
/// it really makes.
///
/// Timers run on one thread, started with the first timer, that sleeps until the earliest
/// deadline (timers within each other's leeway share a wakeup): any number of display
/// links cost one wakeup per vblank they need, and an idle clock none.
public final class FeedbackClock: DisplayClock {
    private struct Grid {
        var vblank: Duration
        var period: Duration
        /// The latest report, for the next period sample.
        var latest: (time: Duration, sequence: UInt64?)?
        /// Whether the period has come from the server yet.
        var isMeasured = false
    }

    private let grid: LockedValue<Grid>
    private let core = TimerThread(name: "FramePacing.FeedbackClock")
    /// How far apart two reports may be, in frames, to give a sample of the period (a
    /// compositor's frame clock stops while nothing is drawn).
    static let sampleSpan: ClosedRange<UInt64> = 1...4

    /// A clock on a grid of `refreshRate` from now, until the first report moves it.
    public init(refreshRate: Double = 60) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "FeedbackClock: refreshRate must be positive, got \(refreshRate)")
        grid = LockedValue(Grid(vblank: MonotonicClock.monotonicNow(), period: .wholeNanoseconds(1 / refreshRate)), rank: .leaf("FeedbackClock.grid"))
    }

    deinit { core.stop() }

    /// Moves the grid onto a frame the server reported at `vblank`, with its sequence
    /// number and refresh period when it gave them.
    public func synchronize(vblank: Duration, sequence: UInt64?, refresh: Duration?) {
        grid.withLock { grid in
            if !grid.isMeasured, let refresh, refresh > .zero {
                grid.period = refresh
                grid.isMeasured = true
            }
            if let latest = grid.latest, vblank > latest.time {
                let elapsed = vblank - latest.time
                var sample: Duration?
                if let sequence, let previous = latest.sequence {
                    if sequence > previous, Self.sampleSpan.contains(sequence - previous) {
                        sample = elapsed / Double(sequence - previous)
                    }
                } else if elapsed > grid.period / 2, elapsed < grid.period * 3 / 2 {
                    sample = elapsed
                }
                if let sample {
                    grid.period = grid.isMeasured ? grid.period + (sample - grid.period) / 8 : sample
                    grid.isMeasured = true
                }
            }
            grid.vblank = vblank
            grid.latest = (vblank, sequence)
        }
    }

    /// Frames per second of the server's frame clock, as its reports show it.
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
