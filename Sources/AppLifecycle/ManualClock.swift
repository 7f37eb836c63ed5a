import SwiftGPUSupport

/// A clock that moves only when told to: for tests of lifecycle deadlines and background
/// task budgets without sleeping. `advance(by:)` runs, in order, everything due in the span.
public final class ManualClock: Clock, Sendable {
    /// A point on a manual clock: the time since it started.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock started.
        public var offset: Duration
        /// Makes an instant `offset` after the start.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Waiter {
        var id: UInt64
        var deadline: Instant
        var action: @Sendable () -> Void
        var onCancel: (@Sendable () -> Void)?
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        var cancelledBeforeScheduling: Set<UInt64> = []
    }

    private let state = LockedValue(State(), rank: .leaf("ManualClock.state"))

    /// Makes a clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// How many sleepers and scheduled actions wait for the clock to advance.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// How many sleeps and scheduled actions have ever been started on the clock, whether
    /// they ran, wait or were cancelled.
    public var startedCount: Int { state.withLock { Int($0.nextID) } }

    /// The clock's resolution: it has none.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock has been advanced to `deadline`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let scheduled = schedule(id: id, at: deadline, { continuation.resume() },
                                         onCancel: { continuation.resume(throwing: CancellationError()) })
                if !scheduled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            cancel(id, remember: true)
        }
    }

    /// Runs `action` when the clock reaches `deadline` (at once if it has). Returns a token
    /// for `cancelScheduled(_:)`.
    @discardableResult
    public func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        _ = schedule(id: id, at: deadline, action, onCancel: nil)
        return id
    }

    private func schedule(id: UInt64, at deadline: Instant, _ action: @escaping @Sendable () -> Void,
                          onCancel: (@Sendable () -> Void)?) -> Bool {
        let runNow = state.withLock { state -> Bool? in
            if state.cancelledBeforeScheduling.remove(id) != nil { return nil }
            if deadline <= state.now { return true }
            state.waiters.append(Waiter(id: id, deadline: deadline, action: action, onCancel: onCancel))
            return false
        }
        guard let runNow else { return false }
        if runNow { action() }
        return true
    }

    /// Forgets a scheduled action that has not run.
    public func cancelScheduled(_ id: UInt64) { cancel(id, remember: false) }

    private func cancel(_ id: UInt64, remember: Bool) {
        let onCancel = state.withLock { state -> (@Sendable () -> Void)? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                if remember { state.cancelledBeforeScheduling.insert(id) }
                return nil
            }
            return state.waiters.remove(at: index).onCancel
        }
        onCancel?()
    }

    /// Moves the clock forward by `duration`, running each action due on the way, in
    /// deadline order, with the clock set to that action's deadline.
    public func advance(by duration: Duration) {
        let target = now.advanced(by: duration)
        while let action = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let index = state.waiters.indices.min(by: { state.waiters[$0].deadline < state.waiters[$1].deadline }),
                  state.waiters[index].deadline <= target
            else {
                state.now = max(state.now, target)
                return nil
            }
            let waiter = state.waiters.remove(at: index)
            state.now = max(state.now, waiter.deadline)
            return waiter.action
        }) {
            action()
        }
    }
}
