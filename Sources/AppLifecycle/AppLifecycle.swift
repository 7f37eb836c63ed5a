import Synchronization

/// The application's lifecycle, with iOS's states. Every GPU `Device` obeys one.
///
/// This is the foundation's small core; the gate, drains and background tasks build on it.
public final class AppLifecycle: Sendable {
    /// The app-wide lifecycle that devices obey unless given another.
    public static let shared = AppLifecycle()

    private let current = Mutex(LifecycleState.active)

    /// Makes a lifecycle that starts active.
    public init() {}

    /// The current state.
    public var state: LifecycleState { current.withLock { $0 } }
}

/// Where an app is in its lifecycle.
public enum LifecycleState: Sendable, Hashable, CustomStringConvertible {
    /// In the foreground and receiving events.
    case active
    /// In the foreground but not receiving events (a transition, an overlay).
    case inactive
    /// Not visible; GPU work is not permitted.
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
