import AppLifecycle
import Foundation
import GPU
import Glibc
import GPUTestSupport
import SwiftGPUSupport
import SystemLifecycle
import Testing

/// Suspend through logind, on a private bus with python3-dbusmock's logind.
@Suite("logind sleep inhibitor on a private bus", .validated)
struct LogindSleepTests {
    @Test("sleep with buffers in flight: drained, the lock released before the deadline, retaken on resume",
          arguments: [1, 16, 256])
    func sleepWithWorkInFlight(count: Int) throws {
        let bus = try MockSystemBus()
        let gpu = try TestGPU(maxCommandBufferCount: count + 8)
        let lifecycle = gpu.device.lifecycle
        let inhibitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, who: "LogindSleepTests")
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
        let inhibitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, who: "LogindSleepTests")
        let terminating = DispatchSemaphore(value: 0)
        let observation = lifecycle.observe { if $0.event == .willTerminate { terminating.signal() } }
        try inhibitor.start()
        try bus.prepareForSleep(true, shutdown: true)
        #expect(terminating.wait(timeout: .now() + 5) == .success)
        #expect(lifecycle.isTerminating)
        observation.cancel()
        inhibitor.stop()
    }

    @Test("sleep with a stuck buffer: the lock is released at the deadline, the buffer fails with notPermitted")
    func sleepWithStuckBuffer() throws {
        let bus = try MockSystemBus()
        // logind's longest delay, 2 s: the drain has 1.5 s on the lifecycle's clock.
        _ = try bus.python("logind.AddProperty('org.freedesktop.login1.Manager', 'InhibitDelayMaxUSec', "
            + "dbus.UInt64(2000000), dbus_interface=mock)")
        let clock = ManualClock()
        let lifecycle = AppLifecycle(clock: clock)
        let gpu = try TestGPU(lifecycle: lifecycle)
        let inhibitor = try SystemBusMonitor(lifecycle: lifecycle, address: bus.address, who: "LogindSleepTests")
        #expect(inhibitor.inhibitDelayMax == .seconds(2))
        let slept = DispatchSemaphore(value: 0)
        inhibitor.onSleep { _ in slept.signal() }
        try inhibitor.start()

        // Held on an event nobody signals: it can never be scheduled.
        let event = try gpu.device.makeSharedEvent()
        let counter = try gpu.device.makeBuffer(length: 4)
        let stuck = try gpu.queue.makeCommandBuffer()
        stuck.encodeWaitForEvent(event, value: 1)
        stuck.commit()
        let follower = try gpu.incrementBuffer(counter)
        follower.commit()
        #expect(stuck.status == .committed)
        try bus.prepareForSleep(true)
        // The drain waits on the lifecycle's clock: its deadline timer is set.
        while clock.waitingCount == 0 { sched_yield() }
        #expect(try bus.inhibitorCount() == 1, "held while the drain waits")
        #expect(slept.wait(timeout: .now()) == .timedOut)
        clock.advance(by: .milliseconds(1500))
        #expect(slept.wait(timeout: .now() + 10) == .success)
        let record = try #require(inhibitor.sleeps.first)
        #expect(record.deadline == .milliseconds(1500), "InhibitDelayMaxUSec less the 0.5 s margin")
        #expect(record.report.failedAtDeadline == 2)
        #expect(record.report.scheduled == 0)
        #expect(try bus.inhibitorCount() == 0, "released at the deadline: logind may suspend")
        for buffer in [stuck, follower] {
            buffer.waitUntilCompleted()
            #expect(buffer.status == .error)
            #expect(buffer.error?.code == .notPermitted)
            #expect(buffer.error?.localizedDescription.contains("could not be scheduled before the app entered the background") == true)
        }
        event.signaledValue = 1
        #expect(counter.contents().load(as: UInt32.self) == 0, "no GPU work after the deadline")
        inhibitor.stop()
    }
}
