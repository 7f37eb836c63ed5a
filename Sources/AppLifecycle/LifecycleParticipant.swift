import SwiftGPUSupport

/// Something that keeps GPU work in line with a lifecycle: each GPU `Device` registers its
/// gate. The lifecycle calls it from `didEnterBackground(deadline:)`.
public protocol LifecycleParticipant: AnyObject, Sendable {
    /// Blocks until every command buffer this participant accepted is scheduled, or the
    /// deadline expires; then ends the rest in error. Returns this participant's counts.
    func drain(until deadline: DrainDeadline) -> DrainReport
    /// Called after every transition, on the thread that made it.
    func lifecycleDidChange(_ transition: LifecycleTransition)
    /// Called on a memory warning, before the lifecycle's observers, on the thread that
    /// delivered it: the participant gives back what it can (a GPU device empties its
    /// volatile resources).
    func didReceiveMemoryWarning()
}

extension LifecycleParticipant {
    /// Gives back nothing.
    public func didReceiveMemoryWarning() {}
}

/// The deadline of one drain, on the lifecycle's clock. A participant that blocks asks to
/// be woken when it expires; the timer behind it starts then, so a drain with nothing to
/// wait for sets no timer at all (on the host clock a timer is a task and a thread's
/// wakeup). The deadline still counts from the start of the drain.
///
/// `Sendable` through its `LockedValue`.
public final class DrainDeadline: Sendable {
    private enum Timer {
        case unarmed
        /// Started (its cancel function once the clock returned it).
        case armed((@Sendable () -> Void)?)
        /// The drain is over: a timer started late is cancelled at once.
        case finished
    }

    private struct State {
        var expired = false
        var wakers: [@Sendable () -> Void] = []
        var timer = Timer.unarmed
    }

    private let state = LockedValue(State(), rank: .leaf("LifecycleParticipant.state"))
    /// Starts the timer that calls `expire()`; returns its cancel function.
    private let arm: @Sendable (DrainDeadline) -> @Sendable () -> Void

    init(arm: @escaping @Sendable (DrainDeadline) -> @Sendable () -> Void) {
        self.arm = arm
    }

    /// Whether the deadline has passed.
    public var isExpired: Bool { state.withLock { $0.expired } }

    /// Runs `waker` when the deadline passes (at once if it has). The first call starts the
    /// deadline's timer.
    public func onExpiry(_ waker: @escaping @Sendable () -> Void) {
        let (now, starts) = state.withLock { state -> (Bool, Bool) in
            if state.expired { return (true, false) }
            state.wakers.append(waker)
            guard case .unarmed = state.timer else { return (false, false) }
            state.timer = .armed(nil)
            return (false, true)
        }
        if now { waker() }
        guard starts else { return }
        // The clock is called with no lock held: a timer already due may expire at once.
        let cancel = arm(self)
        let late = state.withLock { state -> Bool in
            if case .finished = state.timer { return true }
            state.timer = .armed(cancel)
            return false
        }
        if late { cancel() }
    }

    func expire() {
        let wakers = state.withLock { state -> [@Sendable () -> Void] in
            state.expired = true
            defer { state.wakers.removeAll() }
            return state.wakers
        }
        for waker in wakers { waker() }
    }

    /// The drain is over: cancels the timer if one was started.
    func finish() {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            defer { state.timer = .finished }
            guard case .armed(let cancel) = state.timer else { return nil }
            return cancel
        }
        cancel?()
    }
}
