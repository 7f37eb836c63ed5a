import CSystemBus

/// A D-Bus system service the bus monitor follows.
public enum SystemService: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// systemd-logind: suspend, shutdown, the session's lock and activity.
    case logind
    /// UPower: running on battery.
    case upower
    /// power-profiles-daemon: the power-saver profile.
    case powerProfiles
    /// low-memory-monitor: memory warnings.
    case lowMemoryMonitor

    init?(bus value: Int32) {
        switch Int(value) {
        case Int(SWIFTGPU_SERVICE_LOGIND): self = .logind
        case Int(SWIFTGPU_SERVICE_UPOWER): self = .upower
        case Int(SWIFTGPU_SERVICE_POWER_PROFILES): self = .powerProfiles
        case Int(SWIFTGPU_SERVICE_LOW_MEMORY): self = .lowMemoryMonitor
        default: return nil
        }
    }

    var bus: Int32 {
        switch self {
        case .logind: Int32(SWIFTGPU_SERVICE_LOGIND)
        case .upower: Int32(SWIFTGPU_SERVICE_UPOWER)
        case .powerProfiles: Int32(SWIFTGPU_SERVICE_POWER_PROFILES)
        case .lowMemoryMonitor: Int32(SWIFTGPU_SERVICE_LOW_MEMORY)
        }
    }

    /// Its well-known bus name.
    public var description: String {
        switch self {
        case .logind: "org.freedesktop.login1"
        case .upower: "org.freedesktop.UPower"
        case .powerProfiles: "net.hadess.PowerProfiles"
        case .lowMemoryMonitor: "org.freedesktop.LowMemoryMonitor"
        }
    }
}

/// Which logind session's lock and activity the monitor follows.
public enum SessionChoice: Sendable, Hashable {
    /// None.
    case none
    /// The session this process runs in (logind's `GetSessionByPID`); none where the
    /// process is in no session.
    case current
    /// The session with this id (logind's `GetSession`).
    case id(String)
}
