import Foundation
import GPUTestSupport
import SwiftGPUSupport
import Testing
@testable import GPU

/// Races in the queue engine, each held open at a chosen point with the fault injector's
/// pauses (a call held before it reaches Vulkan), so they are reproduced on every run.
@Suite("Queue engine races", .validated, .timeLimit(.minutes(1)))
struct EngineRaceTests {
    /// Buffers `first` (waiting for an event already at 1), `second`, and an optional
    /// `third` enqueued before both; the scheduler is held reading the event's value
    /// while `first` is the head and `second` is committed behind it. Returns once both
    /// are counted by the queue.
    private struct HeldScheduler {
        let gpu: TestGPU
        let life: AppLifecycle
        let counter: Buffer
        let first: CommandBuffer
        let second: CommandBuffer
        let third: CommandBuffer?
        let endings: Locked<[String]>
        let committers: [NamedThread]

        init(withEnqueuedThird: Bool) throws {
            life = AppLifecycle(clock: ManualClock())
            gpu = try TestGPU(lifecycle: life)
            counter = try gpu.device.makeBuffer(length: 4)
            let event = try gpu.device.makeSharedEvent()
            event.signaledValue = 1
            first = try gpu.incrementBuffer(counter)
            first.encodeWaitForEvent(event, value: 1)
            second = try gpu.incrementBuffer(counter)
            third = withEnqueuedThird ? try gpu.incrementBuffer(counter) : nil
            let endings = Locked<[String]>([])
            self.endings = endings
            for (name, buffer) in [("first", first), ("second", second), ("third", third)] {
                buffer?.addCompletedHandler { buffer in endings.withLock { $0.append("\(name) \(buffer.status)") } }
            }
            first.enqueue()
            second.enqueue()
            third?.enqueue()
            // The pause holds the committing thread only: the queue's completion thread
            // and an event's listener thread read semaphore values whenever they run.
            let faults = gpu.device.backend.faults
            let (first, second, engine) = (first, second, gpu.queue.engine)
            let firstCommitter = NamedThread("commits the head")
            faults.pause(at: .getSemaphoreCounterValue, when: firstCommitter.isCurrent)
            firstCommitter.start { first.commit() }
            faults.waitUntilPaused(at: .getSemaphoreCounterValue)
            // `second` is counted, then waits for the held scheduler's submission lock.
            let secondCommitter = NamedThread("commits behind the head")
            secondCommitter.start { second.commit() }
            committers = [firstCommitter, secondCommitter]
            engine.lock.withLock { engine.lock.wait { engine.order.awaitingSchedule == 2 } }
        }

        func resume() {
            gpu.device.backend.faults.resume(.getSemaphoreCounterValue)
            for committer in committers { committer.join() }
        }
    }

    @Test("a drain that strands the head while the scheduler reads its event: each buffer ends once, none runs")
    func drainStrandsTheHeadBeingChecked() throws {
        let held = try HeldScheduler(withEnqueuedThird: false)
        let report = held.life.didEnterBackground(deadline: .zero)
        #expect(report.failedAtDeadline == 2)
        held.resume()
        for buffer in [held.first, held.second] {
            buffer.waitUntilCompleted()
            #expect(buffer.status == .error)
            #expect(buffer.error?.code == .notPermitted)
        }
        #expect(held.endings.current.sorted() == ["first error", "second error"])
        #expect(held.counter.contents().load(as: UInt32.self) == 0)
        // The queue goes on in the right order once active again.
        held.life.didBecomeActive()
        let after = try held.gpu.incrementBuffer(held.counter)
        after.commit()
        after.waitUntilCompleted()
        #expect(after.status == .completed)
        #expect(held.counter.contents().load(as: UInt32.self) == 1)
    }

    @Test("after such a drain, a buffer enqueued before the stranded ones keeps its place: it runs when committed")
    func enqueuedBufferSurvivesTheStranding() throws {
        let held = try HeldScheduler(withEnqueuedThird: true)
        let report = held.life.didEnterBackground(deadline: .zero)
        #expect(report.failedAtDeadline == 2)
        held.resume()
        let engine = held.gpu.queue.engine
        #expect(engine.lock.withLock { engine.order.awaitingSchedule } == 0, "nothing left counted for the next drain")
        held.life.didBecomeActive()
        let third = try #require(held.third)
        #expect(third.status == .enqueued)
        third.commit()
        third.waitUntilCompleted()
        #expect(third.status == .completed)
        #expect(held.endings.current.sorted() == ["first error", "second error", "third completed"])
        #expect(held.counter.contents().load(as: UInt32.self) == 1)
        let secondDrain = held.life.didEnterBackground(deadline: .seconds(5))
        #expect(secondDrain.scheduled == 0 && secondDrain.failedAtDeadline == 0)
    }

    @Test("DEVICE_LOST in the completion thread's wait: buffers in flight end in .error once, slots come back, waiters wake")
    func deviceLostInCompletionWait() throws {
        let gpu = try TestGPU(maxCommandBufferCount: 4)
        let engine = gpu.queue.engine
        let faults = gpu.device.backend.faults
        let counter = try gpu.device.makeBuffer(length: 4)
        let warmUp = try gpu.incrementBuffer(counter)
        warmUp.commit()
        warmUp.waitUntilCompleted()
        // Hold the completion thread at its next wait, then put a buffer in flight.
        faults.pause(at: .waitSemaphores)
        let probe = try gpu.incrementBuffer(counter)
        probe.commit()
        faults.waitUntilPaused(at: .waitSemaphores)
        let victim = try gpu.incrementBuffer(counter)
        let endings = Locked(0)
        victim.addCompletedHandler { _ in endings.withLock { $0 += 1 } }
        victim.commit()
        victim.waitUntilScheduled()
        #expect(victim.status == .scheduled)
        faults.inject(.deviceLost, at: .waitSemaphores)
        faults.resume(.waitSemaphores)
        victim.waitUntilCompleted()
        #expect(victim.status == .error)
        #expect(victim.error?.code == .deviceRemoved)
        engine.waitUntilIdle()
        #expect(endings.current == 1)
        #expect(engine.lock.withLock { engine.slots.live } == 0, "every in-flight slot was given back")
        // Later buffers fail at their turn, and the queue still goes away.
        let later = try gpu.incrementBuffer(counter)
        later.commit()
        later.waitUntilCompleted()
        #expect(later.error?.code == .deviceRemoved)
    }

    @Test("a CPU signal while another thread holds the queue's scheduler returns at once; the listener submits")
    func cpuSignalWhileTheSchedulerIsHeld() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let held = try gpu.incrementBuffer(counter)
        held.encodeWaitForEvent(event, value: 1)
        held.commit()   // the head, held for the event: its wait is registered
        #expect(held.status == .committed)
        // Another thread's commit is held inside the scheduler, reading the event's value.
        let behind = try gpu.incrementBuffer(counter)
        // The pause holds the committing thread only: the event's listener thread, woken
        // when the head's wait was registered, reads the same value whenever it runs.
        let faults = gpu.device.backend.faults
        let committer = NamedThread("commits behind the held head")
        faults.pause(at: .getSemaphoreCounterValue, when: committer.isCurrent)
        committer.start { behind.commit() }
        faults.waitUntilPaused(at: .getSemaphoreCounterValue)
        // Submitting here would wait for that thread: the setter hands the work over.
        event.signaledValue = 1
        #expect(held.status == .committed)
        faults.resume(.getSemaphoreCounterValue)
        committer.join()
        behind.waitUntilCompleted()
        #expect(held.status == .completed && behind.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 2)
    }
}
