import AppLifecycle
import Foundation
import GPU
import Glibc
import SystemLifecycle
import Testing

/// Metal's purgeable state on buffers: volatile contents are emptied on a memory warning
/// and on entering the background, and their memory goes back to the system.
@Suite("purgeable buffers", .validated)
struct PurgeableStateTests {
    @Test("the states and what each call returns, as Metal's setPurgeableState")
    func states() throws {
        let gpu = try TestGPU(lifecycle: AppLifecycle(clock: ManualClock()))
        let kept = try gpu.device.makeBuffer(length: 4096)
        let purged = try gpu.device.makeBuffer(length: 4096)
        purged.contents().storeBytes(of: 7, as: UInt32.self)
        #expect(purged.setPurgeableState(.keepCurrent) == .nonVolatile)
        #expect(purged.setPurgeableState(.volatile) == .nonVolatile)
        #expect(purged.setPurgeableState(.keepCurrent) == .volatile)
        #expect(kept.setPurgeableState(.volatile) == .nonVolatile)
        #expect(kept.setPurgeableState(.nonVolatile) == .volatile, "nonvolatile again before the warning")

        gpu.device.lifecycle.didReceiveMemoryWarning()
        #expect(purged.setPurgeableState(.keepCurrent) == .empty, "discarded by the warning")
        #expect(kept.setPurgeableState(.keepCurrent) == .nonVolatile)
        #expect(purged.setPurgeableState(.nonVolatile) == .empty, "as Metal: the contents were discarded")
        #expect(purged.contents().load(as: UInt32.self) == 0, "new memory, zero-filled")

        // The new memory works on the GPU.
        let increment = try gpu.incrementBuffer(purged)
        increment.commit()
        increment.waitUntilCompleted()
        #expect(increment.status == .completed)
        #expect(purged.contents().load(as: UInt32.self) == 1)

        // Emptied at once when asked.
        #expect(kept.setPurgeableState(.empty) == .nonVolatile)
        #expect(kept.setPurgeableState(.keepCurrent) == .empty)
    }

    @Test("entering the background empties volatile buffers; GPU work in flight keeps its memory until it completes")
    func background() throws {
        let lifecycle = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: lifecycle)
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let held = try gpu.queue.makeCommandBuffer()
        held.encodeWaitForEvent(event, value: 1)
        held.commit()
        let increment = try gpu.incrementBuffer(counter)
        increment.commit()
        counter.setPurgeableState(.volatile)
        // Released as the gate closes: the drain schedules both, then the counter is emptied.
        let token = lifecycle.observe { if $0.event == .didEnterBackground { event.signaledValue = 1 } }
        let report = lifecycle.didEnterBackground(deadline: .seconds(5))
        #expect(report.scheduled == 2)
        increment.waitUntilCompleted()
        #expect(increment.status == .completed, "its memory outlived the discard")
        #expect(counter.setPurgeableState(.keepCurrent) == .empty)
        _ = token
    }
}

/// Resident memory before and after a memory warning empties a volatile buffer. It reads
/// the whole process's resident memory, so it runs with no other test beside it
/// (`scripts/test.sh` runs it after the rest, one suite at a time).
@Suite("resident memory after a memory warning", .validated)
struct ResidentMemoryTests {
    /// The process's resident memory, from /proc/self/statm.
    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try #require(Int(statm[1])) * sysconf(Int32(_SC_PAGESIZE))
    }

    @Test("a memory warning from low-memory-monitor gives a volatile buffer's memory back: resident memory drops")
    func residentMemoryDrops() throws {
        let bus = try MockSystemBus(templates: ["low_memory_monitor"])
        let lifecycle = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: lifecycle)
        let monitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, session: .none)
        try monitor.start()
        let warned = DispatchSemaphore(value: 0)
        let token = lifecycle.observeMemoryWarnings { warned.signal() }

        let length = 64 << 20
        let cache = try gpu.device.makeBuffer(length: length)   // zero-filled: every page resident
        let kept = try gpu.device.makeBuffer(length: 4096)
        cache.setPurgeableState(.volatile)
        let before = try Self.residentBytes()
        _ = try bus.python("bus.get_object('org.freedesktop.LowMemoryMonitor', '/org/freedesktop/LowMemoryMonitor')"
            + ".EmitWarning(dbus.Byte(255), dbus_interface=mock)")
        #expect(warned.wait(timeout: .now() + 10) == .success)
        let after = try Self.residentBytes()
        print(String(format: "memory warning: resident %.1f MiB before, %.1f MiB after (a 64 MiB volatile buffer emptied)",
                     Double(before) / 1048576, Double(after) / 1048576))
        #expect(before - after >= length * 3 / 4, "the buffer's pages went back to the system")
        #expect(cache.setPurgeableState(.keepCurrent) == .empty)
        #expect(kept.setPurgeableState(.keepCurrent) == .nonVolatile)
        monitor.stop()
        _ = token
    }
}
