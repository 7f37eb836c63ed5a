/// A source of display time with a vblank grid: what display links and pacers run on.
///
/// Three clocks conform: `VirtualDisplay` (virtual time, advanced by the caller; timers run
/// on the thread that advances it), `MonotonicClock` (real time on `CLOCK_MONOTONIC`, with
/// vblanks on a fixed grid from its start) and, in the `GPUXCB` product, `XPresentClock`
/// (vblanks the X server reports through the Present extension).
public protocol DisplayClock: AnyObject, Sendable {
    /// Vblanks per second.
    var refreshRate: Double { get }
    /// Time now on this clock.
    var now: Duration { get }
    /// The time of the first vblank at or after `time`.
    func vblank(atOrAfter time: Duration) -> Duration
    /// Runs `action` once, with the clock's time then, when the clock reaches `deadline`.
    /// A real clock may run it up to `leeway` later so that timers due close together
    /// share one wakeup; it never runs early. The returned timer cancels it.
    func schedule(at deadline: Duration, leeway: Duration,
                  _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer
}

extension DisplayClock {
    /// The nominal time between vblanks, rounded to the nanosecond.
    public var refreshPeriod: Duration { .nanoseconds(Int64((1e9 / refreshRate).rounded())) }

    /// The time of the first vblank strictly after `time`.
    public func vblank(after time: Duration) -> Duration { vblank(atOrAfter: time + .nanoseconds(1)) }
}

/// A scheduled action on a `DisplayClock`; `cancel()` makes sure it does not run (unless
/// it is already running).
public final class ClockTimer: Sendable {
    private let cancelAction: @Sendable () -> Void

    /// A timer that `cancelAction` cancels.
    public init(cancel cancelAction: @escaping @Sendable () -> Void) { self.cancelAction = cancelAction }

    /// Cancels the action; harmless after it ran or was cancelled.
    public func cancel() { cancelAction() }
}

/// Vblank `index` of a grid at `rate` per second from time 0, rounded to the nanosecond
/// (computed from the index, so no error accumulates).
func vblankTime(_ index: Int64, rate: Double) -> Duration {
    .nanoseconds(Int64((Double(index) * 1e9 / rate).rounded()))
}

/// The first vblank of a grid at `rate` from time 0 at or after `time`.
func gridVblank(atOrAfter time: Duration, rate: Double) -> Duration {
    let ns = Double(time.nanoseconds)
    var index = Int64((ns * rate / 1e9).rounded(.down))
    while vblankTime(index, rate: rate) < time { index += 1 }
    while index > 0, vblankTime(index - 1, rate: rate) >= time { index -= 1 }
    return vblankTime(index, rate: rate)
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds.
    var inSeconds: Double { Double(nanoseconds) / 1e9 }

    /// `seconds`, rounded to the nanosecond.
    static func wholeNanoseconds(_ seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
