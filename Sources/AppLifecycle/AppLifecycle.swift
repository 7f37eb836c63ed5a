import SwiftGPUSupport
import Synchronization

/// The application's lifecycle, with iOS's states and calls. Every GPU `Device` obeys one
/// (`AppLifecycle.shared` unless given another), and its gate keeps GPU work out of the
/// background.
///
/// Calls out of order are handled as iOS orders them: `didEnterBackground` while active
/// passes through inactive (observers see `willResignActive` first); `didBecomeActive`
/// while in the background passes through `willEnterForeground`; a call that does not
/// apply to the current state (`willResignActive` while inactive, say) does nothing.
/// After `willTerminate` the state stays background and further calls do nothing.
///
/// `Sendable` through its `LockedValue`.
public final class AppLifecycle: Sendable {
    /// The app-wide lifecycle.
    public static let shared = AppLifecycle()

    struct Observer {
        var handler: @Sendable (LifecycleTransition) -> Void
    }

    struct State {
        var current = LifecycleState.active
        var isTerminating = false
        var nextID: UInt64 = 0
        var observers: [UInt64: Observer] = [:]
        var participants: [WeakParticipant] = []
        var tasks: [UInt64: BackgroundTask] = [:]
        var backgroundTaskBudget = Duration.seconds(30)
        var refusedSinceResign = 0
        var isLowPowerModeEnabled = false
        var lowPowerObservers: [UInt64: @Sendable (Bool) -> Void] = [:]
        var memoryWarningObservers: [UInt64: @Sendable () -> Void] = [:]
        var windowFocusPolicy = WindowFocusPolicy.keepDrawingWhileVisible
        var isWindowFocused = true
        var focusObservers: [UInt64: @Sendable (Bool) -> Void] = [:]
    }

    struct WeakParticipant {
        weak var participant: (any LifecycleParticipant)?
    }

    let clock: LifecycleClock
    let storage = LockedValue(State(), rank: .leaf("AppLifecycle.state"))
    /// `State.current`, published for `state`: every commit reads it, and a read here takes
    /// no lock. Written with the lock held, right after `current`.
    private let published = Atomic<UInt8>(LifecycleState.active.code)

    /// Makes a lifecycle that starts active, on the continuous clock.
    public convenience init() { self.init(clock: ContinuousClock()) }

    /// Makes a lifecycle that starts active and measures time (drain deadlines, background
    /// task budgets) on `clock`; a `ManualClock` in tests.
    public init<C: Clock>(clock: C) where C.Duration == Duration {
        self.clock = LifecycleClock(clock)
    }

    /// The current state.
    public var state: LifecycleState { LifecycleState(code: published.load(ordering: .acquiring)) }

    /// Whether the app is terminating (after `willTerminate()`).
    public var isTerminating: Bool { storage.withLock { $0.isTerminating } }

    /// Time since the lifecycle was made, on its clock.
    public var now: Duration { clock.now() }

    // MARK: Transitions

    /// active → inactive. Command buffers made from now on are refused at commit unless
    /// marked critical; display links pause.
    public func willResignActive() { notify(apply(.willResignActive)) }

    /// → background: closes the gate to every commit, then drains. Blocks until every
    /// command buffer that was accepted is scheduled, or `deadline` passes on the
    /// lifecycle's clock; buffers that cannot be scheduled by then end in error.
    @discardableResult
    public func didEnterBackground(deadline: Duration = .seconds(5)) -> DrainReport {
        let start = clock.now()
        let transitions = apply(.didEnterBackground)
        notify(transitions)
        guard transitions.contains(where: { $0.event == .didEnterBackground }) else {
            return DrainReport(elapsed: clock.now() - start)
        }
        // The timer starts only if a participant has to wait, for what is left of the
        // deadline then.
        let clock = clock
        let expiry = DrainDeadline { expiry in
            clock.after(max(deadline - (clock.now() - start), .zero)) { expiry.expire() }
        }
        var report = DrainReport()
        for participant in participants() {
            let part = participant.drain(until: expiry)
            report.scheduled += part.scheduled
            report.failedAtDeadline += part.failedAtDeadline
        }
        expiry.finish()
        report.refused = storage.withLock { $0.refusedSinceResign }
        report.elapsed = clock.now() - start
        startBackgroundTaskTimers()
        return report
    }

    /// background → inactive. The gate stays closed to buffers made while not active.
    public func willEnterForeground() {
        cancelBackgroundTaskTimers()
        notify(apply(.willEnterForeground))
    }

    /// → active: reopens the gate.
    public func didBecomeActive() {
        cancelBackgroundTaskTimers()
        notify(apply(.didBecomeActive))
    }

    /// The app is about to exit: the state becomes background for good.
    public func willTerminate() { notify(apply(.willTerminate)) }

    /// Applies `event` and returns the transitions it makes, in order.
    private func apply(_ event: LifecycleEvent) -> [LifecycleTransition] {
        let time = clock.now()
        return storage.withLock { state -> [LifecycleTransition] in
            guard !state.isTerminating else { return [] }
            var made: [LifecycleTransition] = []
            func move(_ event: LifecycleEvent, to next: LifecycleState) {
                made.append(LifecycleTransition(event: event, from: state.current, to: next, time: time))
                if event == .willResignActive { state.refusedSinceResign = 0 }
                state.current = next
                published.store(next.code, ordering: .releasing)
            }
            switch (event, state.current) {
            case (.willResignActive, .active): move(.willResignActive, to: .inactive)
            case (.didEnterBackground, .active):
                move(.willResignActive, to: .inactive)
                move(.didEnterBackground, to: .background)
            case (.didEnterBackground, .inactive): move(.didEnterBackground, to: .background)
            case (.willEnterForeground, .background): move(.willEnterForeground, to: .inactive)
            case (.didBecomeActive, .background):
                move(.willEnterForeground, to: .inactive)
                move(.didBecomeActive, to: .active)
            case (.didBecomeActive, .inactive): move(.didBecomeActive, to: .active)
            case (.willTerminate, let current):
                if current == .active { move(.willResignActive, to: .inactive) }
                move(.willTerminate, to: .background)
                state.isTerminating = true
            default: break
            }
            return made
        }
    }

    private func notify(_ transitions: [LifecycleTransition]) {
        guard !transitions.isEmpty else { return }
        let (participants, observers) = storage.withLock { state in
            (state.participants.compactMap(\.participant),
             state.observers.sorted { $0.key < $1.key }.map(\.value.handler))
        }
        for transition in transitions {
            for participant in participants { participant.lifecycleDidChange(transition) }
            for observer in observers { observer(transition) }
        }
    }

    // MARK: Participants and observers

    /// Registers a participant (a GPU device's gate); held weakly.
    public func register(_ participant: any LifecycleParticipant) {
        storage.withLock { state in
            state.participants.removeAll { $0.participant == nil }
            state.participants.append(WeakParticipant(participant: participant))
        }
    }

    func participants() -> [any LifecycleParticipant] {
        storage.withLock { $0.participants.compactMap(\.participant) }
    }

    /// Counts a command buffer the gate refused (for the drain report).
    public func recordRefusal() {
        storage.withLock { $0.refusedSinceResign += 1 }
    }

    /// Calls `handler` after every transition, on the thread that made it, until the
    /// returned token is cancelled or released.
    public func observe(_ handler: @escaping @Sendable (LifecycleTransition) -> Void) -> LifecycleObservation {
        addObserver(Observer(handler: handler), to: \.observers)
    }

    /// Stores `observer` in the table at `table` until the returned token goes.
    func addObserver<Handler>(_ observer: Handler, to table: any WritableKeyPath<State, [UInt64: Handler]> & Sendable)
        -> LifecycleObservation {
        let id = storage.withLock { state -> UInt64 in
            state.nextID += 1
            state[keyPath: table][state.nextID] = observer
            return state.nextID
        }
        return LifecycleObservation { [weak self] in _ = self?.storage.withLock { $0[keyPath: table].removeValue(forKey: id) } }
    }

    /// The transitions from now on, as an async sequence; it ends when the consumer stops.
    public var transitions: AsyncStream<LifecycleTransition> {
        let (stream, continuation) = AsyncStream.makeStream(of: LifecycleTransition.self)
        let token = observe { continuation.yield($0) }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }
}

/// Keeps an observation alive; cancels it when cancelled or released.
///
/// `Sendable` through its `LockedValue`.
public final class LifecycleObservation: Sendable {
    private let cancellation: LockedValue<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) { cancellation = LockedValue(cancel, rank: .leaf("LifecycleObservation.cancellation")) }

    deinit { cancel() }

    /// Stops the observation; later calls do nothing.
    public func cancel() {
        let cancel = cancellation.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        cancel?()
    }
}
