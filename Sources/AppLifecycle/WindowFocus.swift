import SwiftGPUSupport

/// What losing a host window's focus does to the lifecycle.
///
/// On iOS the foreground app is the one the user interacts with, so losing the focus
/// (`willResignActive`) pauses it. On a desktop most visible windows are unfocused: a live
/// preview beside an editor, a monitor on a second screen. There what stops GPU work is what
/// the user cannot see (a minimised, unmapped, fully covered window, another workspace, a
/// locked screen), not focus.
public enum WindowFocusPolicy: Sendable, Hashable {
    /// The desktop's rule, the default: a visible window stays active with or without the
    /// focus, and commits are admitted. Focus changes still reach
    /// `observeWindowFocus(_:)`, for an app that chooses to pause (a game).
    case keepDrawingWhileVisible
    /// iOS's rule: losing the focus resigns active, and the gate refuses new commits until
    /// the focus returns.
    case pauseOnFocusLoss
}

extension AppLifecycle {
    /// What losing the window's focus does: by default nothing but tell the observers of
    /// `observeWindowFocus(_:)` (``WindowFocusPolicy/keepDrawingWhileVisible``). Read at
    /// each `hostWindowDidChange(isFocused:isVisible:drainDeadline:)`; set it before the
    /// window adapter starts.
    public var windowFocusPolicy: WindowFocusPolicy {
        get { storage.withLock { $0.windowFocusPolicy } }
        set { storage.withLock { $0.windowFocusPolicy = newValue } }
    }

    /// Whether the host window has the input focus, as its adapter last reported it (true
    /// until an adapter reports otherwise).
    public var isWindowFocused: Bool { storage.withLock { $0.isWindowFocused } }

    /// Calls `handler` with the new value each time the host window gains or loses the
    /// focus, until the returned token is cancelled or released; on the thread that
    /// reported it, before the lifecycle changes for it.
    public func observeWindowFocus(_ handler: @escaping @Sendable (Bool) -> Void) -> LifecycleObservation {
        addObserver(handler, to: \.focusObservers)
    }

    /// Notes the window's focus, telling the observers when it changed; returns the policy.
    func noteWindowFocus(_ focused: Bool) -> WindowFocusPolicy {
        let (policy, observers) = storage.withLock { state -> (WindowFocusPolicy, [@Sendable (Bool) -> Void]) in
            guard state.isWindowFocused != focused else { return (state.windowFocusPolicy, []) }
            state.isWindowFocused = focused
            return (state.windowFocusPolicy, state.focusObservers.sorted { $0.key < $1.key }.map(\.value))
        }
        for observer in observers { observer(focused) }
        return policy
    }
}
