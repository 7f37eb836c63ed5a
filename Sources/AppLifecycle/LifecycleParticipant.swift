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
/// be woken when it expires.
///
/// `Sendable` through its `LockedValue`.
public final class DrainDeadline: Sendable {
    private struct State {
        var expired = false
        var wakers: [@Sendable () -> Void] = []
    }

    private let state = LockedValue(State())

    init() {}

    /// Whether the deadline has passed.
    public var isExpired: Bool { state.withLock { $0.expired } }

    /// Runs `waker` when the deadline passes (at once if it has).
    public func onExpiry(_ waker: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.expired { return true }
            state.wakers.append(waker)
            return false
        }
        if now { waker() }
    }

    func expire() {
        let wakers = state.withLock { state -> [@Sendable () -> Void] in
            state.expired = true
            defer { state.wakers.removeAll() }
            return state.wakers
        }
        for waker in wakers { waker() }
    }
}
