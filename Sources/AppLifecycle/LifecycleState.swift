/// Where an app is in its lifecycle, as iOS's `UIApplication.State`.
public enum LifecycleState: Sendable, Hashable, CustomStringConvertible {
    /// In the foreground and receiving events: GPU work is open.
    case active
    /// In the foreground but not receiving events (a transition, an overlay, lost focus):
    /// command buffers made now are refused at commit unless marked critical.
    case inactive
    /// Not visible: every commit is refused unless a GPU background task is running.
    case background

    /// The state's name.
    public var description: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        case .background: "background"
        }
    }
}

/// The lifecycle calls, with iOS's names.
public enum LifecycleEvent: String, Sendable, Hashable {
    /// active → inactive.
    case willResignActive
    /// inactive → background.
    case didEnterBackground
    /// background → inactive.
    case willEnterForeground
    /// inactive → active.
    case didBecomeActive
    /// The app is about to exit; the state becomes background and stays there.
    case willTerminate
}

/// One change of state, as observers see it.
public struct LifecycleTransition: Sendable, Hashable, CustomStringConvertible {
    /// The call that made it.
    public var event: LifecycleEvent
    /// The state before.
    public var from: LifecycleState
    /// The state after.
    public var to: LifecycleState
    /// When, on the lifecycle's clock, measured from the lifecycle's creation.
    public var time: Duration

    /// `"willResignActive: active → inactive"`.
    public var description: String { "\(event.rawValue): \(from) → \(to)" }
}

/// What `didEnterBackground(deadline:)` did to the GPU work that was in hand.
public struct DrainReport: Sendable, Hashable, CustomStringConvertible {
    /// Committed buffers that were waiting to be scheduled when the drain began and were
    /// scheduled before it ended.
    public var scheduled: Int
    /// Buffers the gate refused at commit since the app resigned active.
    public var refused: Int
    /// Committed buffers that could not be scheduled by the deadline; they end in error.
    public var failedAtDeadline: Int
    /// From the `didEnterBackground` call to its return, on the lifecycle's clock.
    public var elapsed: Duration

    /// Makes a report.
    public init(scheduled: Int = 0, refused: Int = 0, failedAtDeadline: Int = 0, elapsed: Duration = .zero) {
        self.scheduled = scheduled
        self.refused = refused
        self.failedAtDeadline = failedAtDeadline
        self.elapsed = elapsed
    }

    /// `"scheduled 16, refused 2, failed at deadline 0, elapsed 0.1 ms"`.
    public var description: String {
        "scheduled \(scheduled), refused \(refused), failed at deadline \(failedAtDeadline), elapsed \(elapsed)"
    }
}

extension LifecycleState {
    /// The state as one byte, for `AppLifecycle`'s lock-free copy.
    var code: UInt8 {
        switch self {
        case .active: 0
        case .inactive: 1
        case .background: 2
        }
    }

    /// The state `code` stands for.
    init(code: UInt8) {
        switch code {
        case 0: self = .active
        case 1: self = .inactive
        default: self = .background
        }
    }
}
