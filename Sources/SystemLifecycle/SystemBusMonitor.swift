import AppLifecycle
import CSystemBus
import Dispatch
import Glibc
import SwiftGPUSupport

/// Drives an app's lifecycle from the D-Bus system services, on one bus connection that
/// one thread blocks on (sd-bus, from libsystemd), woken only by the bus or `stop()`:
///
/// | service | signal or property | lifecycle |
/// |---|---|---|
/// | logind | `PrepareForSleep(true)` | `willResignActive`, `didEnterBackground` (drained within `InhibitDelayMaxUSec` less the margin), then the `sleep` delay lock is released |
/// | logind | `PrepareForSleep(false)` | the lock is taken again, `willEnterForeground`, and `didBecomeActive` if the app was active |
/// | logind | `PrepareForShutdown(true)` | `willTerminate` |
/// | logind session | `Lock`, or `Active` false (another session on the seat) | `willResignActive` |
/// | logind session | `Unlock` and `Active` true | `didBecomeActive`, if the session had made the app inactive |
/// | UPower | `OnBattery` | low power mode, or'd with the profile |
/// | power-profiles-daemon | `ActiveProfile` is `power-saver` | low power mode |
/// | low-memory-monitor | `LowMemoryWarning` | `didReceiveMemoryWarning` |
///
/// Properties are followed through `PropertiesChanged`. A service that leaves the bus
/// stops counting (UPower and power-profiles-daemon no longer ask for low power; logind's
/// lock is gone with it); when it comes back its properties are read again, and logind's
/// lock is taken again.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the bus is used by
/// `start()` and then by the thread alone.
public final class SystemBusMonitor: @unchecked Sendable {
    let bus: OpaquePointer
    let lifecycle: AppLifecycle
    let who: String
    let margin: Duration
    private let session: SessionChoice
    private let wake: (read: Int32, write: Int32)
    /// logind's longest delay for a delay lock; 5 s (logind's default) where it says none.
    public let inhibitDelayMax: Duration
    let lock = ConditionLock(rank: .leaf("SystemBusMonitor.lock"))
    var state = State()
    private var thread: ServiceThread?

    struct State {
        var inhibitor: Int32 = -1
        var wasActive = false
        var asleep = false
        var records: [SleepRecord] = []
        var handler: (@Sendable (SleepRecord) -> Void)?
        var servicesHandler: (@Sendable (Set<SystemService>) -> Void)?
        var stopping = false
        var present: Set<SystemService> = []
        var sessionPath: String?
        var sessionActive = true
        var sessionLocked = false
        /// The session's lock or switch made the app inactive: its return makes it active.
        var resignedForSession = false
        var onBattery = false
        var powerSaver = false
    }

    /// Connects to the system bus, or the bus at `address` (`unix:path=...`), to drive
    /// `lifecycle`; `who` names the app in logind's list of inhibitors; the drain before
    /// sleep ends `margin` before logind's delay runs out; `session` is the logind session
    /// whose lock and activity count.
    public init(lifecycle: AppLifecycle = .shared, address: String? = nil, who: String = "SwiftGPU",
                margin: Duration = .milliseconds(500), session: SessionChoice = .current) throws(SystemBusError) {
        var error: Int32 = 0
        guard let bus = swiftgpu_bus_open(address, &error) else { throw .unreachable(errno: error) }
        guard let wake = closeOnExecPipe() else {
            swiftgpu_bus_close(bus)
            throw .resources
        }
        self.bus = bus
        self.wake = wake
        self.lifecycle = lifecycle
        self.who = who
        self.margin = margin
        self.session = session
        let delay = swiftgpu_bus_inhibit_delay_max(bus)
        inhibitDelayMax = delay == 0 ? .seconds(5) : .microseconds(Int64(delay))
    }

    deinit {
        stop()
        swiftgpu_bus_close(bus)
        close(wake.read)
        close(wake.write)
    }

    /// Reads which services are there and what they say now, takes logind's sleep lock
    /// (where logind is there) and starts listening. Throws when logind refuses the lock.
    public func start() throws(SystemBusError) {
        let present = Set(SystemService.allCases.filter { swiftgpu_bus_service_present(bus, $0.bus) == 1 })
        lock.withLock { state.present = present }
        if present.contains(.logind) {
            let fd = takeInhibitor()
            guard fd >= 0 else { throw .inhibitRefused(errno: fd) }
            followSession()
        }
        for service in present where service != .logind { serviceAppeared(service) }
        let started = ServiceThread.start(name: "SwiftGPU.systemBus", qos: .userInitiated, running: self) { $0.run() }
        lock.withLock { thread = started }
    }

    /// Stops listening and releases the sleep lock.
    public func stop() {
        let running = lock.withLock { () -> ServiceThread? in
            state.stopping = true
            defer { thread = nil }
            return thread
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        running?.join()
        releaseInhibitor()
    }

    /// The services on the bus now.
    public var services: Set<SystemService> { lock.withLock { state.present } }

    /// Whether low power mode comes from the bus (UPower or power-profiles-daemon is
    /// there); where it does not, `AppLifecycle.monitorSystemPower()` reads the power
    /// supplies.
    public var providesLowPowerMode: Bool { !services.isDisjoint(with: [.upower, .powerProfiles]) }

    /// Runs `handler` on the bus thread with the services on the bus each time one comes or
    /// goes, once the monitor has acted on it (read its state, taken logind's lock).
    public func onServicesChange(_ handler: @escaping @Sendable (Set<SystemService>) -> Void) {
        lock.withLock { state.servicesHandler = handler }
    }

    /// The logind session followed, by object path; nil when none.
    public var sessionPath: String? { lock.withLock { state.sessionPath } }

    /// The bus thread: takes each signal queued and acts on it.
    private func run() {
        while !lock.withLock({ state.stopping }) {
            guard swiftgpu_bus_process(bus, wake.read) > 0 else { return }
            var kind: Int32 = 0, value: Int32 = 0
            while swiftgpu_bus_next_signal(bus, &kind, &value) == 1 {
                handle(kind: Int(kind), value: value)
            }
        }
    }

    private func handle(kind: Int, value: Int32) {
        switch kind {
        case Int(SWIFTGPU_BUS_SLEEP): if value != 0 { prepareForSleep() } else { resumed() }
        case Int(SWIFTGPU_BUS_SHUTDOWN): if value != 0 { lifecycle.willTerminate() }
        case Int(SWIFTGPU_BUS_SESSION_LOCK): updateSession { $0.sessionLocked = value != 0 }
        case Int(SWIFTGPU_BUS_SESSION_ACTIVE): updateSession { $0.sessionActive = value != 0 }
        case Int(SWIFTGPU_BUS_ON_BATTERY): updatePower { $0.onBattery = value != 0 }
        case Int(SWIFTGPU_BUS_POWER_SAVER): updatePower { $0.powerSaver = value != 0 }
        case Int(SWIFTGPU_BUS_LOW_MEMORY): lifecycle.didReceiveMemoryWarning()
        case Int(SWIFTGPU_BUS_APPEARED), Int(SWIFTGPU_BUS_VANISHED):
            guard let service = SystemService(bus: value) else { return }
            if kind == Int(SWIFTGPU_BUS_APPEARED) { serviceAppeared(service) } else { serviceVanished(service) }
            let (present, handler) = lock.withLock { (state.present, state.servicesHandler) }
            handler?(present)
        default: break
        }
    }

    /// A service came (or was there at start): what it says now counts.
    private func serviceAppeared(_ service: SystemService) {
        lock.withLock { _ = state.present.insert(service) }
        switch service {
        case .logind:
            if !lock.withLock({ state.asleep || state.inhibitor >= 0 }) { _ = takeInhibitor() }
            readSession()
        case .upower: readPower(SWIFTGPU_BUS_ON_BATTERY) { $0.onBattery = $1 }
        case .powerProfiles: readPower(SWIFTGPU_BUS_POWER_SAVER) { $0.powerSaver = $1 }
        case .lowMemoryMonitor: break
        }
    }

    /// A service left: it no longer asks for anything; logind's lock went with it.
    private func serviceVanished(_ service: SystemService) {
        lock.withLock { _ = state.present.remove(service) }
        switch service {
        case .logind: releaseInhibitor()
        case .upower: updatePower { $0.onBattery = false }
        case .powerProfiles: updatePower { $0.powerSaver = false }
        case .lowMemoryMonitor: break
        }
    }

    /// Resolves the session to follow and installs its matches.
    private func followSession() {
        let path: UnsafeMutablePointer<CChar>?
        switch session {
        case .none: return
        case .current: path = swiftgpu_bus_session_path(bus, nil, UInt32(getpid()))
        case .id(let id): path = swiftgpu_bus_session_path(bus, id, 0)
        }
        guard let path else { return }
        defer { free(path) }
        guard swiftgpu_bus_follow_session(bus, path) >= 0 else { return }
        let followed = String(cString: path)
        lock.withLock { state.sessionPath = followed }
        readSession()
    }

    private func readSession() {
        guard lock.withLock({ state.sessionPath != nil }) else { return }
        let active = swiftgpu_bus_read_flag(bus, Int32(SWIFTGPU_BUS_SESSION_ACTIVE))
        if active >= 0 { updateSession { $0.sessionActive = active == 1 } }
    }

    private func readPower(_ kind: Int, _ apply: (inout State, Bool) -> Void) {
        let value = swiftgpu_bus_read_flag(bus, Int32(kind))
        if value >= 0 { updatePower { apply(&$0, value == 1) } }
    }

    static var now: Duration { .nanoseconds(Int64(HostClock.nanoseconds())) }
}
