import Dispatch
import Glibc
import GPUTestSupport
import Testing
@testable import GPU
import Shaders

/// Buffers that may go together (here: a run held on one event value) are submitted in one
/// `vkQueueSubmit2`, and still behave as if each had been submitted alone: in order, each
/// scheduled handler before the next buffer's, each buffer's own timeline value.
@Suite("Batched submission", .validated)
struct BatchedSubmissionTests {
    /// `count` buffers that each add 1 to `counter` after `event` reaches `value(i)` (1
    /// unless given; nil: no wait), not committed.
    private func heldBuffers(_ gpu: TestGPU, count: Int, counter: Buffer, event: SharedEvent,
                             on queue: CommandQueue? = nil, value: (Int) -> UInt64? = { _ in 1 }) throws -> [CommandBuffer] {
        try (0..<count).map { index in
            let cb = try (queue ?? gpu.queue).makeCommandBuffer()
            if let value = value(index) { cb.encodeWaitForEvent(event, value: value) }
            let encoder = try cb.makeComputeCommandEncoder()
            try gpu.encodeIncrement(counter, by: 1, into: encoder)
            encoder.endEncoding()
            return cb
        }
    }

    @Test("a released run of held buffers is scheduled and completed in order, each handler once")
    func releasedRunInOrder() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 5, counter: counter, event: event)
        let calls = Locked<[String]>([])
        for (index, cb) in buffers.enumerated() {
            // Every other buffer has a scheduled handler; the ones without are marked done at once.
            if index % 2 == 0 { cb.addScheduledHandler { _ in calls.withLock { $0.append("scheduled \(index)") } } }
            cb.addCompletedHandler { _ in calls.withLock { $0.append("completed \(index)") } }
            cb.commit()
        }
        #expect(buffers.allSatisfy { $0.status == .committed })
        event.signaledValue = 1
        buffers.last?.waitUntilCompleted()
        #expect(buffers.allSatisfy { $0.status == .completed })
        #expect(counter.contents().load(as: UInt32.self) == 5)
        let order = calls.current
        #expect(order.filter { $0.hasPrefix("scheduled") } == ["scheduled 0", "scheduled 2", "scheduled 4"])
        #expect(order.filter { $0.hasPrefix("completed") } == (0..<5).map { "completed \($0)" })
        for index in [0, 2, 4] {
            #expect(order.firstIndex(of: "scheduled \(index)")! < order.firstIndex(of: "completed \(index)")!)
        }
    }

    @Test("a CPU signal submits the buffers held for it before the setter returns, on the setting thread")
    func cpuSignalSchedulesOnTheSettingThread() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 3, counter: counter, event: event)
        let threads = Locked<[pthread_t]>([])
        for cb in buffers {
            cb.addScheduledHandler { _ in threads.withLock { $0.append(pthread_self()) } }
            cb.commit()
        }
        #expect(buffers.allSatisfy { $0.status == .committed })
        event.signaledValue = 1
        #expect(buffers.allSatisfy { $0.status >= .scheduled })
        #expect(threads.current.count == 3)
        #expect(threads.current.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
        buffers.last?.waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 3)
    }

    @Test("a CPU signal that only releases held buffers wakes no listener thread; one that a notify block waits for does")
    func cpuSignalWakesTheListenerOnlyForItsOwnWaiters() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 2, counter: counter, event: event)
        for cb in buffers { cb.commit() }
        // Registering the held buffers started the listener, which wakes once to compare.
        while event.listenerWakeups == 0 { sched_yield() }
        let settled = event.listenerWakeups
        event.signaledValue = 1
        buffers.last?.waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 2)
        #expect(event.listenerWakeups == settled, "the setter submitted the buffers itself")
        let notified = DispatchSemaphore(value: 0)
        event.notify(atValue: 2) { _, _ in notified.signal() }
        while event.listenerWakeups == settled { sched_yield() }
        let beforeSignal = event.listenerWakeups
        event.signaledValue = 2
        notified.wait()
        #expect(event.listenerWakeups > beforeSignal)
    }

    @Test("a scheduled handler may wait for the buffer before it in the same run")
    func handlerWaitsForEarlierBuffer() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 3, counter: counter, event: event)
        let seen = Locked<[CommandBufferStatus]>([])
        for (index, cb) in buffers.enumerated() {
            if index > 0 {
                let earlier = buffers[index - 1]
                cb.addScheduledHandler { _ in
                    earlier.waitUntilCompleted()
                    seen.withLock { $0.append(earlier.status) }
                }
            }
            cb.commit()
        }
        event.signaledValue = 1
        buffers.last?.waitUntilCompleted()
        #expect(seen.current == [.completed, .completed])
        #expect(counter.contents().load(as: UInt32.self) == 3)
    }

    @Test("a failed batched submit fails every buffer of the run, and the queue goes on")
    func failedBatch() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 3, counter: counter, event: event)
        let handlers = Locked(0)
        for cb in buffers {
            cb.addScheduledHandler { _ in handlers.withLock { $0 += 1 } }
            cb.addCompletedHandler { _ in handlers.withLock { $0 += 1 } }
            cb.commit()
        }
        // One fault: had the three gone in three calls, only the first would fail.
        gpu.device.backend.faults.inject(.outOfHostMemory, at: .queueSubmit)
        event.signaledValue = 1
        for cb in buffers {
            cb.waitUntilCompleted()
            #expect(cb.status == .error)
            #expect(cb.error?.code == .outOfMemory)
        }
        #expect(handlers.current == 6)
        #expect(counter.contents().load(as: UInt32.self) == 0)
        let next = try gpu.incrementBuffer(counter)
        next.commit()
        next.waitUntilCompleted()
        #expect(next.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 1)
    }

    @Test("more held buffers than one submit takes go in several, all in order")
    func runLongerThanOneBatch() throws {
        let gpu = try TestGPU()
        let queue = try gpu.device.makeCommandQueue(maxCommandBufferCount: QueueEngine.batchLimit * 2 + 8)
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let count = QueueEngine.batchLimit * 2 + 3
        let completed = Locked<[Int]>([])
        let buffers = try heldBuffers(gpu, count: count, counter: counter, event: event, on: queue)
        for (index, cb) in buffers.enumerated() {
            cb.addCompletedHandler { _ in completed.withLock { $0.append(index) } }
            cb.commit()
        }
        event.signaledValue = 1
        buffers.last?.waitUntilCompleted()
        #expect(completed.current == Array(0..<count))
        #expect(counter.contents().load(as: UInt32.self) == UInt32(count))
    }

    // MARK: Submissions shared by consecutive buffers

    @Test("a released run held on one event value reaches the driver as one submission")
    func releasedRunIsOneSubmission() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 8, counter: counter, event: event)
        for cb in buffers { cb.commit() }
        let before = gpu.device.backend.submitInfoCount
        event.signaledValue = 1
        buffers.last?.waitUntilCompleted()
        #expect(gpu.device.backend.submitInfoCount - before == 1)
        #expect(buffers.allSatisfy { $0.status == .completed })
        #expect(counter.contents().load(as: UInt32.self) == 8)
    }

    @Test("a buffer that signals an event ends its submission: its signal does not wait for the buffers behind it")
    func eventSignalEndsTheSubmission() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let signalled = try gpu.device.makeSharedEvent()
        let buffers = try heldBuffers(gpu, count: 5, counter: counter, event: event)
        // The second buffer also signals: {0, 1} and {2, 3, 4} go as two submissions.
        buffers[1].encodeSignalEvent(signalled, value: 7)
        let completed = Locked<[Int]>([])
        for (index, cb) in buffers.enumerated() {
            cb.addCompletedHandler { _ in completed.withLock { $0.append(index) } }
            cb.commit()
        }
        let before = gpu.device.backend.submitInfoCount
        event.signaledValue = 1
        buffers.last?.waitUntilCompleted()
        #expect(gpu.device.backend.submitInfoCount - before == 2)
        #expect(signalled.signaledValue == 7)
        #expect(completed.current == Array(0..<5))
        #expect(counter.contents().load(as: UInt32.self) == 5)
    }

    @Test("a buffer joins the submission before it only when it waits, and the submission's waits cover its own")
    func waitsDecideTheSubmission() throws {
        // Waits for 2 then 1: the second buffer's wait is covered, one submission. Waits for
        // 1 then 2: the second waits for more than the first, two submissions. A wait, then
        // two buffers that wait for nothing (held behind it): each keeps its own submission.
        let cases: [([UInt64?], Int)] = [([2, 1], 1), ([1, 2], 2), ([1, nil, nil], 3)]
        for (values, expected) in cases {
            let gpu = try TestGPU()
            let counter = try gpu.device.makeBuffer(length: 4)
            let event = try gpu.device.makeSharedEvent()
            let buffers = try heldBuffers(gpu, count: values.count, counter: counter, event: event) { values[$0] }
            for cb in buffers { cb.commit() }
            #expect(buffers.allSatisfy { $0.status == .committed })
            let before = gpu.device.backend.submitInfoCount
            event.signaledValue = 2
            buffers.last?.waitUntilCompleted()
            #expect(gpu.device.backend.submitInfoCount - before == expected, "waits for \(values)")
            #expect(buffers.allSatisfy { $0.status == .completed })
            #expect(counter.contents().load(as: UInt32.self) == UInt32(values.count))
        }
    }
}
