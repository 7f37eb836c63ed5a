import AppLifecycle
import SwiftGPUSupport

/// The logind session's lock and activity: a locked session, or one that is not the
/// seat's active session (the user switched to another), makes the app inactive.
extension SystemBusMonitor {
    /// Whether the followed session lets the app be active: unlocked and the seat's
    /// active session. True when no session is followed.
    public var sessionAllowsActive: Bool { lock.withLock { state.sessionActive && !state.sessionLocked } }

    /// Applies `change` to the session's state and moves the app: to inactive when the
    /// session no longer lets it be active, back to active when it does again and the
    /// session was what made it inactive.
    func updateSession(_ change: (inout State) -> Void) {
        let lifecycleState = lifecycle.state
        enum Move { case resign, activate, none }
        let move = lock.withLock { () -> Move in
            change(&state)
            // Asleep, the resume decides (`resumeActivates`).
            guard !state.asleep else { return .none }
            let allowed = state.sessionActive && !state.sessionLocked
            if !allowed && lifecycleState == .active {
                state.resignedForSession = true
                return .resign
            }
            if allowed && state.resignedForSession {
                state.resignedForSession = false
                return lifecycleState == .inactive ? .activate : .none
            }
            return .none
        }
        switch move {
        case .resign: lifecycle.willResignActive()
        case .activate: lifecycle.didBecomeActive()
        case .none: break
        }
    }
}

extension SystemBusMonitor.State {
    /// On resume: whether the app goes back to active. It does when it was active before
    /// the suspend, or the session had made it inactive, and the session lets it now;
    /// where the session does not, its return will.
    mutating func resumeActivates() -> Bool {
        let allowed = sessionActive && !sessionLocked
        let wanted = wasActive || resignedForSession
        resignedForSession = wanted && !allowed
        return wanted && allowed
    }
}
