import SwiftGPUSupport

/// A display with no screen: it latches presented images at its own vblanks with the exact
/// semantics of the four present modes, on virtual time that moves only when the caller
/// advances it. Tests check present modes, pacing and latency with it, deterministically.
///
/// Vblank k falls at k / refreshRate seconds, rounded to the nanosecond (so at 60 Hz the
/// intervals are 16,666,667 or 16,666,666 ns and vblank 36,000 is exactly 600 s). The first
/// is at 0, when nothing is shown yet.
///
/// It is also a `DisplayClock`: timers scheduled on it (a `DisplayLink`'s) run on the
/// thread that advances it, in time order with the latches, after the latch of a vblank
/// they share.
///
/// Made with `realTime:`, it runs itself on a `MonotonicClock` instead (for examples and
/// tools with no screen): display time is the time since it was made, and it wakes only
/// when something is queued or scheduled.
public final class VirtualDisplay: DisplayClock {
    /// Vblanks per second.
    public let refreshRate: Double
    private let state = LockedValue(State(), rank: .leaf("VirtualDisplay.state"))
    private let driver: RealTimeDriver?

    private struct Pending {
        var request: DisplayPresentRequest
        var arrival: Duration
    }

    private struct State {
        var now: Duration = .zero
        var lastVblank = 0
        var queue: [Pending] = []
        /// Immediate-mode images waiting for their `notBefore`.
        var timed: [Pending] = []
        var shown: DisplayPresentRequest?
        var shownSince: Duration = .zero
        var timers = TimerQueue()
    }

    /// What one step of time does: images' events, or timers to run.
    private enum Step {
        case images([(DisplayPresentRequest, DisplayPresentEvent)])
        case timers([TimerQueue.Entry])
    }

    /// A display refreshing `refreshRate` times a second; its time starts at 0. With
    /// `realTime`, it advances itself on that clock; otherwise only `advance(by:)` moves it.
    public init(refreshRate: Double = 60, realTime: MonotonicClock? = nil) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "VirtualDisplay: refreshRate must be positive, got \(refreshRate)")
        self.refreshRate = refreshRate
        driver = realTime.map { RealTimeDriver(clock: $0) }
    }

    /// Whether the display advances itself on a real clock (made with `realTime:`); when
    /// false, only `advance(by:)` moves it.
    public var runsInRealTime: Bool { driver != nil }

    /// Display time now.
    public var now: Duration {
        if let driver { catchUp(driver) }
        return state.withLock { $0.now }
    }

    /// The time of vblank `index`.
    public func vblankTime(_ index: Int) -> Duration { FramePacing.vblankTime(Int64(index), rate: refreshRate) }

    /// The first vblank at or after `time`.
    public func vblank(atOrAfter time: Duration) -> Duration { gridVblank(atOrAfter: time, rate: refreshRate) }

    /// Runs `action` when display time reaches `deadline`, on the thread advancing the
    /// display; `leeway` does not apply to virtual time.
    public func schedule(at deadline: Duration, leeway: Duration,
                         _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        let id = state.withLock { $0.timers.add(deadline: deadline, leeway: .zero, action) }
        rearm()
        return ClockTimer { [weak self] in
            self?.state.withLock { _ = $0.timers.remove(id) }
        }
    }

    /// How many timers wait for display time to reach them: 0 means nothing will run
    /// until something is scheduled (a paused display link schedules nothing).
    public var scheduledTimerCount: Int { state.withLock { $0.timers.count } }

    /// Moves time forward by `duration`, running every latch, timed display and timer due
    /// in that span in time order on the calling thread (image events are delivered as
    /// they happen). A timer's action may advance the display further itself; time never
    /// goes back when it returns. A display running in real time advances itself: calling
    /// this is misuse.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "VirtualDisplay.advance(by:): duration must not be negative, got \(duration)")
        precondition(driver == nil, "VirtualDisplay.advance(by:): this display runs in real time and advances itself")
        advance(to: state.withLock { $0.now } + duration)
    }

    private func advance(to target: Duration) {
        while let step = state.withLock({ step(&$0, until: target) }) {
            switch step {
            case .images(let events): deliver(events)
            case .timers(let entries): for entry in entries { entry.action(entry.deadline) }
            }
        }
    }

    /// Queues one image for display at the current display time. Callable from any
    /// thread; the image's events go to `request.handler`, synchronously here where the
    /// mode shows the image at once.
    public func present(_ request: DisplayPresentRequest) {
        if let driver { catchUp(driver) }
        defer { rearm() }
        let events = state.withLock { state -> [(DisplayPresentRequest, DisplayPresentEvent)] in
            let pending = Pending(request: request, arrival: state.now)
            let due = (request.notBefore ?? .zero) <= state.now
            switch request.mode {
            case .immediate:
                if due { return show(&state, request, at: state.now) }
                state.timed.append(pending)
                state.timed.sort { ($0.request.notBefore ?? .zero) < ($1.request.notBefore ?? .zero) }
                return []
            case .fifoRelaxed:
                let missed = state.shown != nil && state.queue.isEmpty
                    && state.now - state.shownSince >= vblankTime(state.lastVblank + 1) - vblankTime(state.lastVblank)
                if missed && due { return show(&state, request, at: state.now) }
                state.queue.append(pending)
                return []
            case .mailbox:
                var events: [(DisplayPresentRequest, DisplayPresentEvent)] = []
                if let last = state.queue.last, last.request.mode == .mailbox {
                    state.queue.removeLast()
                    events = [(last.request, .dropped(at: state.now))]
                }
                state.queue.append(pending)
                return events
            case .fifo:
                state.queue.append(pending)
                return []
            }
        }
        deliver(events)
    }

    /// The next latch, timed display or batch of timers at or before `target`, applied;
    /// nil when none is left (then display time is `target`). At one instant, timed
    /// displays come first, then the vblank's latch, then timers.
    private func step(_ state: inout State, until target: Duration) -> Step? {
        let vblank = vblankTime(state.lastVblank + 1)
        let timed = state.timed.first.flatMap { $0.request.notBefore }
        let timer = state.timers.earliestDeadline
        if let timed, timed <= target, timed < vblank, timed <= timer ?? timed {
            state.now = timed
            return .images(show(&state, state.timed.removeFirst().request, at: timed))
        }
        if let timer, timer <= target, timer < vblank {
            state.now = max(state.now, timer)
            return .timers(state.timers.takeDue(at: timer))
        }
        guard vblank <= target else {
            // A timer's action may have advanced the display past `target` already.
            state.now = max(state.now, target)
            return nil
        }
        state.now = vblank
        state.lastVblank += 1
        guard let head = state.queue.first, (head.request.notBefore ?? .zero) <= vblank else { return .images([]) }
        state.queue.removeFirst()
        return .images(show(&state, head.request, at: vblank))
    }

    /// The next time something happens by itself: a latch of a queued image, a timed
    /// display or a timer; nil when nothing will.
    private func nextEventTime(_ state: State) -> Duration? {
        var times: [Duration] = []
        if !state.queue.isEmpty { times.append(vblankTime(state.lastVblank + 1)) }
        if let timed = state.timed.first?.request.notBefore { times.append(timed) }
        if let timer = state.timers.earliestDeadline { times.append(timer) }
        return times.min()
    }

    /// Real time: advances display time to the clock's.
    private func catchUp(_ driver: RealTimeDriver) {
        driver.serialized { advance(to: driver.displayTime) }
    }

    /// Real time: sets the driver's one wakeup at the next time something happens.
    private func rearm() {
        guard let driver else { return }
        let next = state.withLock { nextEventTime($0) }
        driver.arm(at: next) { [weak self] in
            guard let self else { return }
            catchUp(driver)
            rearm()
        }
    }

    /// Puts `request` on screen at `time`; the image it replaces is released.
    private func show(_ state: inout State, _ request: DisplayPresentRequest,
                      at time: Duration) -> [(DisplayPresentRequest, DisplayPresentEvent)] {
        var events: [(DisplayPresentRequest, DisplayPresentEvent)] = [(request, .displayed(at: time))]
        if let previous = state.shown { events.append((previous, .released(at: time))) }
        state.shown = request
        state.shownSince = time
        return events
    }

    private func deliver(_ events: [(DisplayPresentRequest, DisplayPresentEvent)]) {
        for (request, event) in events {
            request.handler(event)
            if case .dropped(let time) = event { request.handler(.released(at: time)) }
        }
    }
}
