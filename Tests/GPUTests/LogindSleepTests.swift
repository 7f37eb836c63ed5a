import AppLifecycle
import Foundation
import GPU
import Glibc
import SwiftGPUSupport
import SystemLifecycle
import Testing

/// A private D-Bus daemon with python3-dbusmock's logind on it: the system bus of one test.
/// One Python process starts both (dbusmock's own helpers wait until each is ready) and
/// stops both when it is told to or when the test process goes.
final class MockSystemBus: @unchecked Sendable {   // immutable after init
    let address: String
    private let helper: SpawnedProcess

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        helper = try SpawnedProcess("/usr/bin/python3", ["-c", """
            import ctypes, os, signal, subprocess, sys, dbusmock
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG: go with the test
            dbusmock.DBusTestCase.start_system_bus()
            server, _ = dbusmock.DBusTestCase.spawn_server_template('logind', {}, stdout=subprocess.DEVNULL)
            def stop(*_):
                server.terminate()
                server.wait()
                dbusmock.DBusTestCase.stop_dbus(dbusmock.DBusTestCase.system_bus_pid)
                sys.exit(0)
            signal.signal(signal.SIGTERM, stop)
            print('address ' + os.environ['DBUS_SYSTEM_BUS_ADDRESS'], flush=True)
            signal.pause()
            """], environment: ProcessInfo.processInfo.environment)
        guard let line = LineReader(helper.output).next(containing: "address ") else {
            kill(helper.pid, SIGTERM)
            waitpid(helper.pid, nil, 0)
            throw Failure(description: "the private bus or the logind mock did not start")
        }
        address = String(line.dropFirst("address ".count))
    }

    deinit {
        kill(helper.pid, SIGTERM)
        waitpid(helper.pid, nil, 0)
    }

    /// Runs `code` with a `dbus` module, `bus` (this bus) and `logind` (the mock's main
    /// object) defined, and returns what it printed.
    func python(_ code: String) throws -> String {
        let child = try SpawnedProcess("/usr/bin/python3", ["-c", """
            import dbus
            bus = dbus.bus.BusConnection('\(address)')
            logind = bus.get_object('org.freedesktop.login1', '/org/freedesktop/login1')
            \(code)
            """], environment: ProcessInfo.processInfo.environment)
        let output = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        guard status == 0 else { throw Failure(description: "python failed: \(output)") }
        return output
    }

    /// Emits logind's PrepareForSleep(`start`), or PrepareForShutdown with `shutdown`.
    func prepareForSleep(_ start: Bool, shutdown: Bool = false) throws {
        _ = try python("logind.EmitSignal('org.freedesktop.login1.Manager', '\(shutdown ? "PrepareForShutdown" : "PrepareForSleep")', "
            + "'b', [\(start ? "True" : "False")], dbus_interface='org.freedesktop.DBus.Mock')")
    }

    /// How many inhibitor locks logind holds now.
    func inhibitorCount() throws -> Int {
        Int(try python("print(len(logind.ListInhibitors(dbus_interface='org.freedesktop.login1.Manager')))")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// Suspend through logind, on a private bus with python3-dbusmock's logind.
@Suite("logind sleep inhibitor on a private bus", .validated)
struct LogindSleepTests {
    @Test("sleep with buffers in flight: drained, the lock released before the deadline, retaken on resume",
          arguments: [1, 16, 256])
    func sleepWithWorkInFlight(count: Int) throws {
        let bus = try MockSystemBus()
        let gpu = try TestGPU(maxCommandBufferCount: count + 8)
        let lifecycle = gpu.device.lifecycle
        let inhibitor = try LogindSleepInhibitor(lifecycle: lifecycle, address: bus.address, who: "LogindSleepTests")
        let slept = DispatchSemaphore(value: 0)
        inhibitor.onSleep { _ in slept.signal() }
        try inhibitor.start()
        #expect(try bus.inhibitorCount() == 1, "the delay lock is held")
        #expect(inhibitor.holdsInhibitor)

        let counter = try gpu.device.makeBuffer(length: 4)
        let buffers = try (0..<count).map { _ in try gpu.incrementBuffer(counter) }
        for buffer in buffers { buffer.commit() }
        try bus.prepareForSleep(true)
        #expect(slept.wait(timeout: .now() + 10) == .success)
        let record = try #require(inhibitor.sleeps.first)
        let toDrained = (record.drained - record.received) / .milliseconds(1)
        let toReleased = (record.released - record.received) / .milliseconds(1)
        print(String(format: "sleep with %d buffers: PrepareForSleep received → drained %.2f ms → lock released %.2f ms; %@",
                     count, toDrained, toReleased, "\(record.report)"))
        #expect(record.released - record.received < record.deadline, "released before logind's delay runs out")
        #expect(record.report.failedAtDeadline == 0)
        #expect(buffers.allSatisfy { [.scheduled, .completed].contains($0.status) }, "every buffer reached the GPU")
        for buffer in buffers { buffer.waitUntilCompleted() }
        #expect(counter.contents().load(as: UInt32.self) == UInt32(count))
        #expect(lifecycle.state == .background)
        #expect(try bus.inhibitorCount() == 0, "released: logind may suspend")
        // Nothing runs in the background.
        let refused = try gpu.incrementBuffer(counter)
        refused.commit()
        refused.waitUntilCompleted()
        #expect(refused.status == .error)
        #expect(counter.contents().load(as: UInt32.self) == UInt32(count), "no GPU work after the drain")

        let active = DispatchSemaphore(value: 0)
        let observation = lifecycle.observe { if $0.to == .active { active.signal() } }
        try bus.prepareForSleep(false)
        #expect(active.wait(timeout: .now() + 5) == .success)
        observation.cancel()
        #expect(try bus.inhibitorCount() == 1, "the lock is taken again")
        inhibitor.stop()
        #expect(try bus.inhibitorCount() == 0)
    }

    @Test("PrepareForShutdown is willTerminate")
    func shutdown() throws {
        let bus = try MockSystemBus()
        let lifecycle = AppLifecycle()
        let inhibitor = try LogindSleepInhibitor(lifecycle: lifecycle, address: bus.address, who: "LogindSleepTests")
        let terminating = DispatchSemaphore(value: 0)
        let observation = lifecycle.observe { if $0.event == .willTerminate { terminating.signal() } }
        try inhibitor.start()
        try bus.prepareForSleep(true, shutdown: true)
        #expect(terminating.wait(timeout: .now() + 5) == .success)
        #expect(lifecycle.isTerminating)
        observation.cancel()
        inhibitor.stop()
    }
}
