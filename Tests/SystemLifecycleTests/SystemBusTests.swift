import AppLifecycle
import Foundation
import Glibc
import GPUTestSupport
import SystemLifecycle
import Testing

/// Waits for what a lifecycle reports on the bus thread.
private final class Recorder: Sendable {
    let transitions = Locked<[LifecycleEvent]>([])
    let lowPower = Locked<[Bool]>([])
    let warnings = Locked(0)
    private let changed = DispatchSemaphore(value: 0)
    private let tokens: [LifecycleObservation]

    /// Wakes `wait(until:)` when `monitor`'s services change or a sleep's record is in too;
    /// `also` runs on the bus thread with the services first.
    func follow(_ monitor: SystemBusMonitor, also: @escaping @Sendable (Set<SystemService>) -> Void = { _ in }) {
        let changed = changed
        monitor.onServicesChange { services in
            also(services)
            changed.signal()
        }
        monitor.onSleep { _ in changed.signal() }
    }

    init(_ lifecycle: AppLifecycle) {
        let (transitions, lowPower, warnings, changed) = (transitions, lowPower, warnings, changed)
        tokens = [
            lifecycle.observe { transition in
                transitions.withLock { $0.append(transition.event) }
                changed.signal()
            },
            lifecycle.observeLowPowerMode { value in
                lowPower.withLock { $0.append(value) }
                changed.signal()
            },
            lifecycle.observeMemoryWarnings {
                warnings.withLock { $0 += 1 }
                changed.signal()
            },
        ]
    }

    /// Waits (up to 10 s) until `condition` holds; false if it never did.
    func wait(until condition: () -> Bool) -> Bool {
        while !condition() {
            guard changed.wait(timeout: .now() + 10) == .success else { return condition() }
        }
        return true
    }
}

/// The session, power and memory services over D-Bus, on a private bus with
/// python3-dbusmock's logind, upower, power_profiles_daemon and low_memory_monitor.
@Suite("system services on a private bus")
struct SystemBusTests {
    private static let session = "/org/freedesktop/login1/session/c1"

    /// A bus with every service and a logind session "c1", active.
    private static func fullBus() throws -> MockSystemBus {
        let bus = try MockSystemBus(templates: ["logind", "upower", "power_profiles_daemon", "low_memory_monitor"])
        _ = try bus.python("logind.AddSession('c1', 'seat0', dbus.UInt32(1000), 'tester', True, dbus_interface=mock)")
        return bus
    }

    /// A full bus, a lifecycle on a manual clock with a recorder, and a monitor started on
    /// them, following `session`.
    private static func started(session: SessionChoice)
        throws -> (MockSystemBus, AppLifecycle, Recorder, SystemBusMonitor) {
        let bus = try fullBus()
        let lifecycle = AppLifecycle(clock: ManualClock())
        let recorder = Recorder(lifecycle)
        let monitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, session: session)
        recorder.follow(monitor)
        try monitor.start()
        return (bus, lifecycle, recorder, monitor)
    }

    /// Runs `code` on the session's object (`session`).
    private static func onSession(_ bus: MockSystemBus, _ code: String) throws {
        _ = try bus.python("session = bus.get_object('org.freedesktop.login1', '\(session)')\n" + code)
    }

    /// low-memory-monitor's LowMemoryWarning(100), "medium".
    static func warnLowMemory(_ bus: MockSystemBus) throws {
        _ = try bus.python("bus.get_object('org.freedesktop.LowMemoryMonitor', '/org/freedesktop/LowMemoryMonitor')"
            + ".EmitWarning(dbus.Byte(100), dbus_interface=mock)")
    }

    @Test("the session's Lock and Unlock, and Active (another session on the seat), make the app inactive and active")
    func lockAndSwitch() throws {
        let (bus, lifecycle, recorder, monitor) = try Self.started(session: .id("c1"))
        #expect(monitor.sessionPath == Self.session)

        try Self.onSession(bus, "session.Lock(dbus_interface='org.freedesktop.login1.Session')")
        #expect(recorder.wait { lifecycle.state == .inactive })
        #expect(!monitor.sessionAllowsActive)
        try Self.onSession(bus, "session.Unlock(dbus_interface='org.freedesktop.login1.Session')")
        #expect(recorder.wait { lifecycle.state == .active })

        // The user switches to another session: this one is no longer active.
        try Self.onSession(bus, "session.UpdateProperties('org.freedesktop.login1.Session', {'Active': False}, dbus_interface=mock)")
        #expect(recorder.wait { lifecycle.state == .inactive })
        try Self.onSession(bus, "session.UpdateProperties('org.freedesktop.login1.Session', {'Active': True}, dbus_interface=mock)")
        #expect(recorder.wait { lifecycle.state == .active })
        #expect(recorder.transitions.current == [.willResignActive, .didBecomeActive, .willResignActive, .didBecomeActive])

        // An app that resigned by itself stays inactive when the session comes back.
        lifecycle.willResignActive()
        try Self.onSession(bus, "session.Lock(dbus_interface='org.freedesktop.login1.Session')")
        try Self.onSession(bus, "session.Unlock(dbus_interface='org.freedesktop.login1.Session')")
        // A memory warning sent after them arrives after them: the monitor has seen both.
        try Self.warnLowMemory(bus)
        #expect(recorder.wait { recorder.warnings.current == 1 })
        #expect(monitor.sessionAllowsActive)
        #expect(lifecycle.state == .inactive)
        monitor.stop()
    }

    @Test("a session locked across a suspend keeps the app inactive on resume until it is unlocked")
    func lockedAcrossSleep() throws {
        let (bus, lifecycle, recorder, monitor) = try Self.started(session: .id("c1"))
        try bus.prepareForSleep(true)
        #expect(recorder.wait { monitor.sleeps.count == 1 })
        try Self.onSession(bus, "session.Lock(dbus_interface='org.freedesktop.login1.Session')")
        try Self.warnLowMemory(bus)
        #expect(recorder.wait { recorder.warnings.current == 1 })
        #expect(!monitor.sessionAllowsActive)
        try bus.prepareForSleep(false)
        #expect(recorder.wait { lifecycle.state == .inactive })
        #expect(try bus.inhibitorCount() == 1)
        try Self.onSession(bus, "session.Unlock(dbus_interface='org.freedesktop.login1.Session')")
        #expect(recorder.wait { lifecycle.state == .active })
        #expect(recorder.transitions.current
            == [.willResignActive, .didEnterBackground, .willEnterForeground, .didBecomeActive])
        monitor.stop()
    }

    @Test("battery and profile changes set low power mode through PropertiesChanged")
    func batteryAndProfile() throws {
        let (bus, lifecycle, recorder, monitor) = try Self.started(session: .none)
        #expect(monitor.providesLowPowerMode)
        #expect(!lifecycle.isLowPowerModeEnabled)
        let upower = "bus.get_object('org.freedesktop.UPower', '/org/freedesktop/UPower')"
        let profiles = "bus.get_object('net.hadess.PowerProfiles', '/net/hadess/PowerProfiles')"

        _ = try bus.python("\(upower).UpdateProperties('org.freedesktop.UPower', {'OnBattery': True}, dbus_interface=mock)")
        #expect(recorder.wait { lifecycle.isLowPowerModeEnabled })
        _ = try bus.python("\(profiles).UpdateProperties('net.hadess.PowerProfiles', {'ActiveProfile': 'power-saver'}, dbus_interface=mock)")
        _ = try bus.python("\(upower).UpdateProperties('org.freedesktop.UPower', {'OnBattery': False}, dbus_interface=mock)")
        // Still the power-saver profile: low power stays on.
        _ = try bus.python("\(profiles).UpdateProperties('net.hadess.PowerProfiles', {'ActiveProfile': 'performance'}, dbus_interface=mock)")
        #expect(recorder.wait { !lifecycle.isLowPowerModeEnabled })
        #expect(recorder.lowPower.current == [true, false], "on from the battery, held by the profile, off with both")
        monitor.stop()
    }

    @Test("low-memory-monitor's LowMemoryWarning is a memory warning")
    func lowMemoryWarning() throws {
        let (bus, _, recorder, monitor) = try Self.started(session: .none)
        try Self.warnLowMemory(bus)
        #expect(recorder.wait { recorder.warnings.current == 1 })
        monitor.stop()
    }

    @Test("services leaving and coming back: logind's lock is taken again, UPower's state is read again")
    func serviceRestart() throws {
        let (bus, lifecycle, recorder, monitor) = try Self.started(session: .none)
        #expect(monitor.services == Set(SystemService.allCases))

        bus.stop("upower")
        bus.stop("logind")
        #expect(recorder.wait { !monitor.services.contains(.logind) && !monitor.services.contains(.upower) })
        #expect(!monitor.holdsInhibitor, "logind's lock went with it")

        try bus.start("upower", parameters: "{'OnBattery': True}")
        #expect(recorder.wait { lifecycle.isLowPowerModeEnabled }, "the new UPower's OnBattery is read")
        try bus.start("logind")
        #expect(recorder.wait { monitor.holdsInhibitor })
        #expect(try bus.inhibitorCount() == 1, "the new logind has the lock")

        // Suspend works through the new logind.
        try bus.prepareForSleep(true)
        #expect(recorder.wait { monitor.sleeps.count == 1 })
        #expect(try bus.inhibitorCount() == 0)
        monitor.stop()
    }

    @Test("a service that leaves while the monitor acts on another's leaving is seen: what the connection read is not left waiting")
    func leavingWhileActing() throws {
        let bus = try Self.fullBus()
        let lifecycle = AppLifecycle(clock: ManualClock())
        let recorder = Recorder(lifecycle)
        let monitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, session: .none)
        let logindGone = Locked<String?>(nil)
        recorder.follow(monitor) { services in
            // On the bus thread, acting on UPower's leaving: logind leaves now, and the bus
            // has said so before the thread goes back to the connection, whose next read
            // takes logind's NameOwnerChanged with nothing more to come after it.
            guard !services.contains(.upower), logindGone.current == nil else { return }
            bus.stop("logind")
            let owned = (try? bus.python("print(bus.name_has_owner('org.freedesktop.login1'))")) ?? "no answer"
            logindGone.withLock { $0 = owned.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        try monitor.start()
        bus.stop("upower")
        #expect(recorder.wait { !monitor.services.contains(.logind) }, "logind's leaving is seen")
        #expect(logindGone.current == "False", "the bus had let logind go while the monitor acted on UPower's leaving")
        #expect(monitor.services == [.powerProfiles, .lowMemoryMonitor])
        monitor.stop()
    }

    @Test("no bus at all: a clear log line each, and the kernel's sources keep working")
    func noBus() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nobus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let battery = root + "/sys/class/power_supply/BAT0"
        try FileManager.default.createDirectory(atPath: battery, withIntermediateDirectories: true)
        try "Battery\n".write(toFile: battery + "/type", atomically: true, encoding: .utf8)
        try "Discharging\n".write(toFile: battery + "/status", atomically: true, encoding: .utf8)

        let lifecycle = AppLifecycle(clock: ManualClock())
        let lines = Locked<[String]>([])
        let sources = SystemSources(lifecycle: lifecycle, address: "unix:path=\(root)/no-such-bus", powerRoot: root) { line in
            lines.withLock { $0.append(line) }
        }
        #expect(sources.bus == nil)
        #expect(lines.current.first?.hasPrefix("no D-Bus system bus (the D-Bus system bus could not be reached: ") == true,
                "\(lines.current)")
        #expect(lines.current.contains("low power mode from the kernel's power-supply uevents"))
        #expect(sources.powerSupplies != nil)
        #expect(lifecycle.isLowPowerModeEnabled, "on battery, read from the power supplies")
        // The kernel here takes PSI triggers (/proc/pressure/memory): memory warnings come from it.
        #expect(sources.memoryPressure != nil)
        #expect(lines.current.contains("memory warnings from the kernel's memory pressure stall trigger (/proc/pressure/memory)"))
        sources.stop()
    }
}
