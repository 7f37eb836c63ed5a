import Foundation
import Glibc

/// A private D-Bus daemon with python3-dbusmock's system services on it: the system bus
/// of one test. Each service is its own Python process (dbusmock's helpers wait until it
/// is on the bus), so a test can stop one and start it again; every process goes with
/// the test process (PR_SET_PDEATHSIG).
package final class MockSystemBus: @unchecked Sendable {   // `services` is guarded by its LockedValue; the rest is immutable
    package let address: String
    private let daemon: SpawnedProcess
    private let services = Locked<[String: SpawnedProcess]>([:])

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// Starts the bus and the dbusmock `templates` on it (`logind`, `upower`,
    /// `power_profiles_daemon`, `low_memory_monitor`).
    package init(templates: [String] = ["logind"]) throws {
        daemon = try Self.spawn("""
            dbusmock.DBusTestCase.start_system_bus()
            def stop(*_):
                dbusmock.DBusTestCase.stop_dbus(dbusmock.DBusTestCase.system_bus_pid)
                sys.exit(0)
            signal.signal(signal.SIGTERM, stop)
            print('address ' + os.environ['DBUS_SYSTEM_BUS_ADDRESS'], flush=True)
            signal.pause()
            """, environment: ProcessInfo.processInfo.environment)
        guard let line = LineReader(daemon.output).next(containing: "address ") else {
            Self.end(daemon)
            throw Failure(description: "the private bus did not start")
        }
        address = String(line.dropFirst("address ".count))
        for template in templates { try start(template) }
    }

    deinit {
        for service in services.current.values { Self.end(service) }
        Self.end(daemon)
    }

    /// Starts dbusmock's `template` with `parameters` (a Python dict) and returns once it
    /// is on the bus. As a well-behaved service does, it has its objects before it takes
    /// its name (dbusmock's own launcher takes the name first, so that a client reading
    /// properties as the name appears could find no object yet).
    package func start(_ template: String, parameters: String = "{}") throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        let process = try Self.spawn("""
            import dbus, dbus.mainloop.glib, dbus.service, dbusmock.mockobject as mockobject
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
            module = mockobject.load_module('\(template)')
            main = mockobject.DBusMockObject(bus, module.MAIN_OBJ, module.MAIN_IFACE, {}, None, False)
            main.AddTemplate('\(template)', \(parameters))
            mockobject.objects[module.MAIN_OBJ] = main
            name = dbus.service.BusName(module.BUS_NAME, bus, do_not_queue=True)
            print('ready', flush=True)
            glib = ctypes.cdll.LoadLibrary('libglib-2.0.so.0')
            while True:
                glib.g_main_context_iteration(None, True)
            """, environment: environment)
        guard LineReader(process.output).next(containing: "ready") != nil else {
            Self.end(process)
            throw Failure(description: "dbusmock's \(template) did not start")
        }
        services.withLock { $0[template] = process }
    }

    /// Stops `template`'s service: its name leaves the bus.
    package func stop(_ template: String) {
        if let process = services.withLock({ $0.removeValue(forKey: template) }) { Self.end(process) }
    }

    /// Runs `code` with a `dbus` module, `bus` (this bus), `mock` (the interface dbusmock
    /// adds) and `logind` (logind's main object, None without logind) defined, and returns
    /// what it printed.
    package func python(_ code: String) throws -> String {
        let child = try SpawnedProcess("/usr/bin/python3", ["-c", """
            import dbus
            bus = dbus.bus.BusConnection('\(address)')
            mock = 'org.freedesktop.DBus.Mock'
            logind = bus.get_object('org.freedesktop.login1', '/org/freedesktop/login1') \\
                if bus.name_has_owner('org.freedesktop.login1') else None
            \(code)
            """], environment: ProcessInfo.processInfo.environment)
        let output = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        guard status == 0 else { throw Failure(description: "python failed: \(output)") }
        return output
    }

    /// Emits logind's PrepareForSleep(`start`), or PrepareForShutdown with `shutdown`.
    package func prepareForSleep(_ start: Bool, shutdown: Bool = false) throws {
        _ = try python("logind.EmitSignal('org.freedesktop.login1.Manager', '\(shutdown ? "PrepareForShutdown" : "PrepareForSleep")', "
            + "'b', [\(start ? "True" : "False")], dbus_interface=mock)")
    }

    /// How many inhibitor locks logind holds now.
    package func inhibitorCount() throws -> Int {
        Int(try python("print(len(logind.ListInhibitors(dbus_interface='org.freedesktop.login1.Manager')))")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    private static func spawn(_ code: String, environment: [String: String]) throws -> SpawnedProcess {
        try SpawnedProcess("/usr/bin/python3", ["-c", """
            import ctypes, os, signal, sys, dbusmock
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG: go with the test
            \(code)
            """], environment: environment)
    }

    private static func end(_ process: SpawnedProcess) {
        kill(process.pid, SIGTERM)
        waitpid(process.pid, nil, 0)
    }
}
