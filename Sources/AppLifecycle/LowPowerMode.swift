extension AppLifecycle {
    /// Whether the system asks apps to save power (iOS's Low Power Mode). On Linux a
    /// `PowerMonitor` sets it from power-profiles-daemon's "power-saver" profile or from
    /// running on battery; a host or a test may set it with `setLowPowerModeEnabled(_:)`.
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
        let id = storage.withLock { state -> UInt64 in
            state.nextID += 1
            state.lowPowerObservers[state.nextID] = handler
            return state.nextID
        }
        return LifecycleObservation { [weak self] in
            _ = self?.storage.withLock { $0.lowPowerObservers.removeValue(forKey: id) }
        }
    }

    /// Starts watching the system's power state and mirrors it into
    /// `isLowPowerModeEnabled` until the monitor's `cancel()`.
    /// `root` prefixes every path read (tests point it at a scratch tree).
    public func monitorSystemPower(root: String = "") -> PowerMonitor {
        PowerMonitor(root: root) { [weak self] enabled in self?.setLowPowerModeEnabled(enabled) }
    }
}
