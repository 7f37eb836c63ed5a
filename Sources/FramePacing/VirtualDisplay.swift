import Synchronization

/// A display with no screen: it latches presented images at its own vblanks with the exact
/// semantics of the four present modes, on virtual time that moves only when the caller
/// advances it. Tests check present modes, pacing and latency with it, deterministically.
///
/// Vblank k falls at k / refreshRate seconds, rounded to the nanosecond (so at 60 Hz the
/// intervals are 16,666,667 or 16,666,666 ns and vblank 36,000 is exactly 600 s). The first
/// is at 0, when nothing is shown yet.
public final class VirtualDisplay: Sendable {
    /// Vblanks per second.
    public let refreshRate: Double
    private let state = Mutex(State())

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
    }

    /// A display refreshing `refreshRate` times a second; its time starts at 0.
    public init(refreshRate: Double = 60) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "VirtualDisplay: refreshRate must be positive, got \(refreshRate)")
        self.refreshRate = refreshRate
    }

    /// The nominal time between vblanks.
    public var refreshPeriod: Duration { .nanoseconds(Int64((1e9 / refreshRate).rounded())) }

    /// Display time now.
    public var now: Duration { state.withLock { $0.now } }

    /// The time of vblank `index`.
    public func vblankTime(_ index: Int) -> Duration {
        .nanoseconds(Int64((Double(index) * 1e9 / refreshRate).rounded()))
    }

    /// Moves time forward by `duration`, running every latch and timed display due in that
    /// span in time order on the calling thread (image events are delivered as they
    /// happen).
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "VirtualDisplay.advance(by:): duration must not be negative, got \(duration)")
        let target = state.withLock { $0.now } + duration
        while let events = state.withLock({ step(&$0, until: target) }) {
            deliver(events)
        }
    }

    /// Queues one image for display at the current display time. Callable from any
    /// thread; the image's events go to `request.handler`, synchronously here where the
    /// mode shows the image at once.
    public func present(_ request: DisplayPresentRequest) {
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

    /// The next latch or timed display at or before `target`, applied; nil when none is
    /// left (then display time is `target`).
    private func step(_ state: inout State, until target: Duration) -> [(DisplayPresentRequest, DisplayPresentEvent)]? {
        let vblank = vblankTime(state.lastVblank + 1)
        let timed = state.timed.first.flatMap { $0.request.notBefore }
        if let timed, timed <= target, timed < vblank {
            state.now = timed
            return show(&state, state.timed.removeFirst().request, at: timed)
        }
        guard vblank <= target else {
            state.now = target
            return nil
        }
        state.now = vblank
        state.lastVblank += 1
        guard let head = state.queue.first, (head.request.notBefore ?? .zero) <= vblank else { return [] }
        state.queue.removeFirst()
        return show(&state, head.request, at: vblank)
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
