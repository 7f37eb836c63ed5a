import AppLifecycle

/// Every system source of an app's lifecycle, with what stands in where the system bus or
/// one of its services is absent:
///
/// | what | from | where that is absent |
/// |---|---|---|
/// | suspend, shutdown, session lock | logind (`SystemBusMonitor`) | nothing |
/// | low power mode | UPower and power-profiles-daemon | the kernel's power-supply uevents (`PowerMonitor`), with no bus at all |
/// | memory warnings | low-memory-monitor | the kernel's memory pressure trigger (`MemoryPressureMonitor`) |
///
/// Which is in use is logged once at start, one line each, and readable here.
public final class SystemSources: Sendable {
    /// The bus monitor; nil with no system bus.
    public let bus: SystemBusMonitor?
    /// The power-supply monitor, with no system bus.
    public let powerSupplies: PowerMonitor?
    /// The memory pressure trigger, where low-memory-monitor is absent at start.
    public let memoryPressure: MemoryPressureMonitor?
    /// What each source is, as logged.
    public let summary: [String]

    /// Starts the sources for `lifecycle`: the bus at `address` (the system bus when nil),
    /// or the kernel's where it cannot be reached; `log` gets one line per choice.
    /// `powerRoot` prefixes the power-supply paths and `pressurePath` is the PSI file
    /// (tests point them at scratch files).
    public init(lifecycle: AppLifecycle = .shared, address: String? = nil, who: String = "SwiftGPU",
                session: SessionChoice = .current, powerRoot: String = "",
                pressurePath: String = "/proc/pressure/memory",
                log: @Sendable (String) -> Void = { print("SwiftGPU: \($0)") }) {
        var summary: [String] = []
        var bus: SystemBusMonitor?
        do {
            let monitor = try SystemBusMonitor(lifecycle: lifecycle, address: address, who: who, session: session)
            try monitor.start()
            bus = monitor
            let services = monitor.services
            summary.append(services.contains(.logind)
                ? "suspend and session from logind over D-Bus (sleep delay lock held)"
                : "logind is not on the system bus: no drain before suspend")
        } catch {
            summary.append("no D-Bus system bus (\(error)): no drain before suspend, no session lock")
        }
        self.bus = bus
        if let bus, bus.providesLowPowerMode {
            let names = [SystemService.upower, .powerProfiles].filter(bus.services.contains).map(\.description)
            summary.append("low power mode from \(names.joined(separator: " and ")) over D-Bus")
            powerSupplies = nil
        } else if bus != nil {
            summary.append("low power mode: neither UPower nor power-profiles-daemon is on the system bus")
            powerSupplies = nil
        } else {
            summary.append("low power mode from the kernel's power-supply uevents")
            powerSupplies = lifecycle.monitorSystemPower(root: powerRoot)
        }
        if let bus, bus.services.contains(.lowMemoryMonitor) {
            summary.append("memory warnings from low-memory-monitor over D-Bus")
            memoryPressure = nil
        } else {
            memoryPressure = MemoryPressureMonitor(lifecycle: lifecycle, path: pressurePath)
            summary.append(memoryPressure != nil
                ? "memory warnings from the kernel's memory pressure stall trigger (\(pressurePath))"
                : "no memory warnings: low-memory-monitor is absent and \(pressurePath) takes no trigger")
        }
        self.summary = summary
        for line in summary { log(line) }
    }

    /// Stops every source.
    public func stop() {
        bus?.stop()
        powerSupplies?.cancel()
        memoryPressure?.stop()
    }
}
