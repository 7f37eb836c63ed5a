import AppLifecycle
import SwiftGPUSupport

/// Calls back at frame boundaries of a `DisplayClock`: `CADisplayLink`'s role.
///
/// Each callback names the vblank it fired for (`timestamp`) and the one the frame it
/// starts should be shown at (`targetTimestamp`). The link fires every `frameInterval`: the
/// refresh period times a whole number, from `preferredFrameRateRange` snapped to a divisor
/// of the refresh rate. Deadlines are absolute vblanks, so callbacks never drift, and a
/// callback that runs long skips the frames it missed instead of bunching up.
///
/// On a real clock a callback may run up to `tolerance` after its vblank (10% of the frame
/// interval by default), so timers due close together share one wakeup; it never runs
/// early, and `timestamp` is the vblank's time, not the wakeup's.
///
/// With a lifecycle, the link pauses by itself while the app is not active and, in low
/// power mode, runs at 30 Hz at most unless `ignoresLowPowerMode`. A paused link has
/// nothing scheduled on its clock: it costs no wakeups.
///
/// Every property and `invalidate()` may be used from any thread. Callbacks run on the
/// clock's thread (the advancing thread for a `VirtualDisplay`), one at a time.
public final class DisplayLink: Sendable {
    /// The clock the link fires on.
    public let clock: any DisplayClock
    private let callback: @Sendable (DisplayLink) -> Void
    private let state: LockedValue<State>
    private let observations = LockedValue<[LifecycleObservation]>([], rank: .leaf("DisplayLink.observations"))
    private let lifecycle: AppLifecycle?

    private struct State {
        var range = FrameRateRange.default
        var tolerance: Duration?
        var isPaused = false
        var ignoresLowPowerMode = false
        var isInvalid = false
        var isActive = true
        var isLowPower = false
        var timestamp: Duration = .zero
        var targetTimestamp: Duration = .zero
        /// The one live timer, always of the current epoch: remaking the schedule takes it
        /// out, and a timer is installed only while its epoch is current and none is.
        var timer: ClockTimer?
        /// Bumped whenever the schedule is remade, so a timer that was already running
        /// when it was cancelled does not schedule its successor.
        var epoch = 0
        var callbacks = 0
    }

    /// A link on `clock` calling `callback` at every frame boundary, starting at once. With
    /// `lifecycle`, it pauses while the app is not active and follows low power mode.
    public init(clock: any DisplayClock, lifecycle: AppLifecycle? = nil,
                _ callback: @escaping @Sendable (DisplayLink) -> Void) {
        self.clock = clock
        self.callback = callback
        self.lifecycle = lifecycle
        state = LockedValue(State(isActive: lifecycle.map { $0.state == .active } ?? true,
                                  isLowPower: lifecycle?.isLowPowerModeEnabled ?? false),
                            rank: .displayLink)
        if let lifecycle {
            let active = lifecycle.observe { [weak self] transition in
                self?.update { $0.isActive = transition.to == .active }
            }
            let power = lifecycle.observeLowPowerMode { [weak self] enabled in self?.update { $0.isLowPower = enabled } }
            observations.withLock { $0 = [active, power] }
        }
        update { _ in }
    }

    deinit {
        for observation in observations.withLock({ $0 }) { observation.cancel() }
        state.withLock { $0.timer }?.cancel()
    }

    /// The vblank the current callback fired for.
    public var timestamp: Duration { state.withLock { $0.timestamp } }

    /// The vblank the frame started in this callback should be shown at: the vblank
    /// `frameInterval` after `timestamp`. Work for the frame must be done by then.
    public var targetTimestamp: Duration { state.withLock { $0.targetTimestamp } }

    /// The rates the app would like; the link runs at `frameRate`, this snapped to a
    /// divisor of the clock's refresh rate.
    public var preferredFrameRateRange: FrameRateRange {
        get { state.withLock { $0.range } }
        set { update { $0.range = newValue } }
    }

    /// The rate the link fires at: see `FrameRateRange.snapped(toRefreshRate:cap:)`.
    public var frameRate: Double { state.withLock { frameRate($0) } }

    /// The time between callbacks: a whole number of refresh periods.
    public var frameInterval: Duration { state.withLock { interval($0) } }

    /// How late after its vblank a callback may run so wakeups can be shared; nil (the
    /// default) means 10% of `frameInterval`.
    public var tolerance: Duration? {
        get { state.withLock { $0.tolerance } }
        set {
            precondition(newValue.map { $0 >= .zero } ?? true, "DisplayLink.tolerance: must not be negative, got \(newValue!)")
            update { $0.tolerance = newValue }
        }
    }

    /// Stops (true) or resumes (false) the callbacks. The link also pauses by itself while
    /// its lifecycle is not active; then it resumes when the app is active and this is false.
    public var isPaused: Bool {
        get { state.withLock { $0.isPaused } }
        set { update { $0.isPaused = newValue } }
    }

    /// Whether the link runs at full rate in low power mode (false: it is capped at 30 Hz).
    public var ignoresLowPowerMode: Bool {
        get { state.withLock { $0.ignoresLowPowerMode } }
        set { update { $0.ignoresLowPowerMode = newValue } }
    }

    /// Whether callbacks are scheduled now: not paused by the app or the lifecycle, and
    /// not invalidated.
    public var isRunning: Bool { state.withLock { running($0) } }

    /// How many callbacks have run.
    public var callbackCount: Int { state.withLock { $0.callbacks } }

    /// Removes the link from its clock for good: no callback starts after this returns.
    public func invalidate() {
        update { $0.isInvalid = true }
        for observation in observations.withLock({ $0 }) { observation.cancel() }
    }

    private func frameRate(_ state: State) -> Double {
        let cap: Double? = state.isLowPower && !state.ignoresLowPowerMode ? 30 : nil
        return state.range.snapped(toRefreshRate: clock.refreshRate, cap: cap)
    }

    private func refreshes(_ state: State) -> Int { max(Int((clock.refreshRate / frameRate(state)).rounded()), 1) }

    private func interval(_ state: State) -> Duration { clock.refreshPeriod * refreshes(state) }

    private func running(_ state: State) -> Bool { !state.isPaused && !state.isInvalid && state.isActive }

    /// Applies a change and remakes the schedule: the next callback is at the first
    /// frame boundary after now. The schedule is made for the epoch this change produced,
    /// read in the same critical section: when changes from several threads overlap, only
    /// the latest one's schedule is current, and the others' come to nothing.
    private func update(_ change: (inout State) -> Void) {
        let (old, epoch) = state.withLock { state -> (ClockTimer?, Int) in
            change(&state)
            state.epoch += 1
            defer { state.timer = nil }
            return (state.timer, state.epoch)
        }
        old?.cancel()
        schedule(after: clock.now, epoch: epoch)
    }

    /// Schedules the first frame boundary after `time`, unless the schedule changed since
    /// `epoch`, the link is not running, or a timer is already installed. The clock is
    /// called with no lock held, so the checks are made again before the timer is
    /// installed; a timer that lost the race is cancelled, so there is never more than one.
    private func schedule(after time: Duration, epoch: Int) {
        let (deadline, leeway) = state.withLock { state -> (Duration?, Duration) in
            guard running(state), state.epoch == epoch, state.timer == nil else { return (nil, .zero) }
            let period = clock.refreshPeriod
            // A boundary is a vblank a whole number of intervals after the last one fired
            // for; after a pause or change, the next vblank.
            var next = clock.vblank(after: time)
            if state.callbacks > 0 {
                let step = interval(state)
                let missed = time > state.timestamp ? Int64((time - state.timestamp) / step) : 0
                var boundary = clock.vblank(atOrAfter: state.timestamp + step * (missed + 1) - period / 2)
                if boundary <= time { boundary = clock.vblank(atOrAfter: boundary + step - period / 2) }
                next = max(boundary, next)
            }
            return (next, state.tolerance ?? interval(state) / 10)
        }
        guard let deadline else { return }
        let timer = clock.schedule(at: deadline, leeway: leeway) { [weak self] now in
            guard let self else { return }
            // The vblank the callback is for: the latest at or before the wakeup. That is
            // the deadline on a timely wakeup, the reported vblank on a clock that reports
            // them (X Present: `now` is on its grid, up to rounding, hence a microsecond's
            // slack), a later one if the wakeup came a refresh or more late, and never one
            // still ahead.
            fire(vblank: clock.vblank(atOrAfter: now - clock.refreshPeriod + .microseconds(1)), now: now, epoch: epoch)
        }
        let stale = state.withLock { state -> Bool in
            guard state.epoch == epoch, running(state), state.timer == nil else { return true }
            state.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    private func fire(vblank: Duration, now: Duration, epoch: Int) {
        let current = state.withLock { state -> Bool in
            guard state.epoch == epoch, running(state) else { return false }
            state.timestamp = vblank
            state.targetTimestamp = clock.vblank(atOrAfter: vblank + interval(state) - clock.refreshPeriod / 2)
            state.callbacks += 1
            state.timer = nil
            return true
        }
        guard current else { return }
        callback(self)
        schedule(after: max(vblank, clock.now), epoch: epoch)
    }
}
