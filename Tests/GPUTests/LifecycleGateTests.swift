import Foundation
import GPUTestSupport
import Testing
@testable import GPU

@Suite("Lifecycle gate", .validated)
struct LifecycleGateTests {
    static let backgroundMessage = "Insufficient permission (to submit GPU work from background)"

    @Test("active: commits run")
    func active() throws {
        let gpu = try TestGPU(lifecycle: AppLifecycle(clock: ManualClock()))
        let counter = try gpu.device.makeBuffer(length: 4)
        let cb = try gpu.incrementBuffer(counter)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 1)
    }

    @Test("inactive: buffers made before deactivation commit; made after are refused unless critical")
    func inactive() throws {
        let life = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: life)
        let counter = try gpu.device.makeBuffer(length: 4)
        let inProgress = try gpu.incrementBuffer(counter, by: 1)
        life.willResignActive()
        let late = try gpu.incrementBuffer(counter, by: 10)
        let critical = try gpu.queue.makeCommandBuffer(descriptor: CommandBufferDescriptor(criticalForDeactivation: true))
        let calls = Locked(0)
        late.addScheduledHandler { _ in calls.withLock { $0 += 1 } }
        late.addCompletedHandler { _ in calls.withLock { $0 += 1 } }
        inProgress.commit()
        late.commit()
        critical.commit()
        critical.waitUntilCompleted()
        inProgress.waitUntilCompleted()
        #expect(inProgress.status == .completed)
        #expect(critical.status == .completed)
        #expect(late.status == .error)
        #expect(late.error?.code == .notPermitted)
        #expect(calls.current == 2)
        #expect(counter.contents().load(as: UInt32.self) == 1)
    }

    @Test("background: every commit ends in notPermitted, handlers once, no Vulkan submission")
    func background() throws {
        let life = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: life)
        let counter = try gpu.device.makeBuffer(length: 4)
        let madeWhileActive = try gpu.incrementBuffer(counter)
        let report = life.didEnterBackground()
        #expect(report == DrainReport(scheduled: 0, refused: 0, failedAtDeadline: 0, elapsed: .zero))
        // Arm a submit fault: a refused commit must not consume it.
        gpu.device.backend.faults.inject(.outOfDeviceMemory, at: .queueSubmit)
        let calls = Locked<[String]>([])
        for cb in [madeWhileActive, try gpu.incrementBuffer(counter)] {
            cb.addScheduledHandler { _ in calls.withLock { $0.append("scheduled") } }
            cb.addCompletedHandler { _ in calls.withLock { $0.append("completed") } }
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .error)
            #expect(cb.error?.code == .notPermitted)
            #expect(cb.error?.localizedDescription == Self.backgroundMessage)
        }
        #expect(calls.current == ["scheduled", "completed", "scheduled", "completed"])
        #expect(counter.contents().load(as: UInt32.self) == 0)
        // Reopened: the armed fault is still there, so the refused commits made no submit.
        life.didBecomeActive()
        let probe = try gpu.incrementBuffer(counter)
        probe.commit()
        probe.waitUntilCompleted()
        #expect(probe.error?.code == .outOfMemory)
        let after = try gpu.incrementBuffer(counter)
        after.commit()
        after.waitUntilCompleted()
        #expect(after.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 1)
    }

    @Test("a background task that uses the GPU lets commits through until it ends")
    func gpuBackgroundTask() throws {
        let life = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: life)
        let counter = try gpu.device.makeBuffer(length: 4)
        life.didEnterBackground()
        let task = life.beginBackgroundTask(name: "finish upload", usesGPU: true)
        let allowed = try gpu.incrementBuffer(counter)
        allowed.commit()
        allowed.waitUntilCompleted()
        #expect(allowed.status == .completed)
        life.endBackgroundTask(task)
        let refused = try gpu.incrementBuffer(counter)
        refused.commit()
        #expect(refused.error?.code == .notPermitted)
        #expect(counter.contents().load(as: UInt32.self) == 1)
    }

    @Test("drain: 100 held buffers on two queues are all scheduled before didEnterBackground returns")
    func drainTwoQueues() throws {
        let life = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: life)
        let second = try gpu.device.makeCommandQueue(label: "second")
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        var buffers: [CommandBuffer] = []
        for queue in [gpu.queue, second] {
            let gatekeeper = try queue.makeCommandBuffer()
            gatekeeper.encodeWaitForEvent(event, value: 1)
            gatekeeper.commit()
            buffers.append(gatekeeper)
            for _ in 0..<49 {
                let cb = try gpu.incrementBuffer(counter, on: queue)
                cb.commit()
                buffers.append(cb)
            }
        }
        #expect(buffers.allSatisfy { $0.status == .committed }, "held behind the event wait")
        // Release them as the gate closes: the drain must wait for all 100.
        let token = life.observe { transition in
            if transition.event == .didEnterBackground { event.signaledValue = 1 }
        }
        let report = life.didEnterBackground(deadline: .seconds(5))
        #expect(report.scheduled == 100)
        #expect(report.failedAtDeadline == 0)
        #expect(buffers.allSatisfy { $0.status >= .scheduled })
        buffers.last!.waitUntilCompleted()
        buffers[49].waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 98)
        _ = token
    }

    @Test("a commit admitted just before the background is drained with the rest, never run after the drain returned")
    func admittedAsTheGateCloses() throws {
        let life = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: life)
        let counter = try gpu.device.makeBuffer(length: 4)
        let cb = try gpu.incrementBuffer(counter)
        // The commit is admitted (the app is active), then held between admission and its
        // queue counting it: in vkEndCommandBuffer. Threads, not tasks: both block.
        let committer = NamedThread("commits as the gate closes")
        gpu.device.backend.faults.pause(at: .endCommandBuffer, when: committer.isCurrent)
        committer.start { cb.commit() }
        gpu.device.backend.faults.waitUntilPaused(at: .endCommandBuffer)
        // The app enters the background meanwhile. Once the state is background (the
        // willResignActive observers run before the gate meets didEnterBackground), the
        // held commit goes on.
        let stateChanged = DispatchSemaphore(value: 0)
        let token = life.observe { if $0.event == .willResignActive { stateChanged.signal() } }
        // What the app sees as didEnterBackground returns.
        let atReturn = Locked<(report: DrainReport, status: CommandBufferStatus)?>(nil)
        let transitioned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let report = life.didEnterBackground(deadline: .seconds(5))
            atReturn.withLock { $0 = (report, cb.status) }
            transitioned.signal()
        }
        stateChanged.wait()
        #expect(life.state == .background)
        gpu.device.backend.faults.resume(.endCommandBuffer)
        transitioned.wait()
        committer.join()
        // It was committed before the background: it is scheduled by the time
        // didEnterBackground returns (by the drain, or before the drain noted the queue's
        // backlog when its thread got there first), never after.
        let seen = try #require(atReturn.current)
        #expect(seen.status >= .scheduled)
        #expect(seen.report.failedAtDeadline == 0)
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 1)
        _ = token
    }

    @Test("a buffer committed behind an enqueued, uncommitted one fails at the deadline and is counted")
    func strandedAtDeadline() throws {
        let clock = ManualClock()
        let life = AppLifecycle(clock: clock)
        let gpu = try TestGPU(lifecycle: life)
        let counter = try gpu.device.makeBuffer(length: 4)
        let blocker = try gpu.incrementBuffer(counter)
        blocker.enqueue()
        let stranded = try gpu.incrementBuffer(counter)
        let completions = Locked(0)
        stranded.addCompletedHandler { _ in completions.withLock { $0 += 1 } }
        stranded.commit()
        #expect(stranded.status == .committed)

        let report = Locked<DrainReport?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            report.withLock { $0 = life.didEnterBackground(deadline: .seconds(5)) }
            done.signal()
        }
        // Advance the test clock once the drain waits on it (its deadline timer is set).
        while clock.waitingCount == 0 { sched_yield() }
        clock.advance(by: .seconds(5))
        done.wait()
        #expect(report.current == DrainReport(scheduled: 0, refused: 0, failedAtDeadline: 1, elapsed: .seconds(5)))
        #expect(stranded.status == .error)
        #expect(stranded.error?.code == .notPermitted)
        #expect(completions.current == 1)
        // The blocker, committed in the background, is refused too; nothing ran.
        blocker.commit()
        #expect(blocker.error?.localizedDescription == Self.backgroundMessage)
        #expect(counter.contents().load(as: UInt32.self) == 0)
        let refusedReport = life.didEnterBackground()
        #expect(refusedReport.scheduled == 0, "already in the background: nothing to drain")
    }

    @Test("the gate reopens on didBecomeActive; refusals are counted in the drain report")
    func reopen() throws {
        let life = AppLifecycle(clock: ManualClock())
        let gpu = try TestGPU(lifecycle: life)
        let counter = try gpu.device.makeBuffer(length: 4)
        life.willResignActive()
        try gpu.incrementBuffer(counter).commit()
        try gpu.incrementBuffer(counter).commit()
        let report = life.didEnterBackground(deadline: .zero)
        #expect(report.refused == 2)
        life.willEnterForeground()
        let stillClosed = try gpu.incrementBuffer(counter)
        stillClosed.commit()
        #expect(stillClosed.error?.code == .notPermitted, "made while inactive")
        life.didBecomeActive()
        let open = try gpu.incrementBuffer(counter)
        open.commit()
        open.waitUntilCompleted()
        #expect(open.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 1)
    }
}
