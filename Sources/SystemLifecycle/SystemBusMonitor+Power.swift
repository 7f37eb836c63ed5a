import AppLifecycle
import SwiftGPUSupport

/// Low power mode from UPower's `OnBattery` and power-profiles-daemon's `power-saver`
/// profile.
extension SystemBusMonitor {
    /// Applies `change` to what the services say and sets the lifecycle's low power mode
    /// to whether either asks for it.
    func updatePower(_ change: (inout State) -> Void) {
        let low = lock.withLock { () -> Bool in
            change(&state)
            return state.onBattery || state.powerSaver
        }
        lifecycle.setLowPowerModeEnabled(low)
    }
}
