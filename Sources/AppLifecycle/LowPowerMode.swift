import SwiftGPUSupport

extension AppLifecycle {
    /// Whether the system asks apps to save power (iOS's Low Power Mode). On Linux
    /// `SystemLifecycle`'s bus monitor sets it from UPower's `OnBattery` and
    /// power-profiles-daemon's `power-saver` profile; without a system bus a `PowerMonitor`
    /// sets it from running on battery; a host or a test may set it with
    /// `setLowPowerModeEnabled(_:)`.
    public var isLowPowerModeEnabled: Bool { storage.withLock { $0.isLowPowerModeEnabled } }

    /// Sets low power mode; observers hear of a change.
    public func setLowPowerModeEnabled(_ enabled: Bool) {
        let observers = storage.withLock { state -> [@Sendable (Bool) -> Void] in
            guard state.isLowPowerModeEnabled != enabled else { return [] }
            state.isLowPowerModeEnabled = enabled
            return state.lowPowerObservers.sorted { $0.key < $1.key }.map(\.value)
        }
        for observer in observers { observer(enabled) }
    }

    /// Calls `handler` with the new value each time low power mode changes, until the
    /// returned token is cancelled or released.
    public func observeLowPowerMode(_ handler: @escaping @Sendable (Bool) -> Void) -> LifecycleObservation {
        addObserver(handler, to: \.lowPowerObservers)
    }

    /// Starts watching the power supplies (for where there is no system bus) and mirrors
    /// running on battery into `isLowPowerModeEnabled` until the monitor's `cancel()`.
    /// `root` prefixes every path read (tests point it at a scratch tree).
    public func monitorSystemPower(root: String = "") -> PowerMonitor {
        PowerMonitor(root: root) { [weak self] enabled in self?.setLowPowerModeEnabled(enabled) }
    }
}
