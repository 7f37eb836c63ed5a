import FramePacing
import Foundation
import GPUTestSupport
import Testing
@testable import GPU
import SwiftGPUSupport

@Suite("Command buffer model", .validated)
struct CommandBufferTests {
    @Test("states move notEnqueued → enqueued → committed → scheduled → completed")
    func stateTransitions() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let first = try gpu.incrementBuffer(counter)
        let second = try gpu.incrementBuffer(counter)
        #expect(first.status == .notEnqueued)
        first.enqueue()
        #expect(first.status == .enqueued)
        let seen = Locked<[String]>([])
        second.addScheduledHandler { cb in seen.withLock { $0.append("scheduled \(cb.status)") } }
        second.addCompletedHandler { cb in seen.withLock { $0.append("completed \(cb.status)") } }
        second.commit()
        // Behind an enqueued, uncommitted buffer: committed, not scheduled.
        #expect(second.status == .committed)
        #expect(seen.current.isEmpty)
        first.commit()
        second.waitUntilScheduled()
        #expect(second.status >= .scheduled)
        second.waitUntilCompleted()
        #expect(first.status == .completed)
        #expect(second.status == .completed)
        #expect(seen.current == ["scheduled scheduled", "completed completed"])
        #expect(counter.contents().load(as: UInt32.self) == 2)
    }

    @Test("a queue's quality of service schedules its completion thread: completed handlers run with it",
          arguments: [DispatchQoS.QoSClass.utility, .background, .default, .userInteractive])
    func completionThreadScheduling(qos: DispatchQoS.QoSClass) async throws {
        let expected = await schedulingOfNewThread(qos)
        let gpu = try TestGPU()
        let queue = try gpu.device.makeCommandQueue(label: "qos", qos: qos)
        let commandBuffer = try queue.makeCommandBuffer()
        let seen = Locked<ThreadScheduling.Applied?>(nil)
        commandBuffer.addCompletedHandler { _ in seen.withLock { $0 = ThreadScheduling.current() } }
        commandBuffer.commit()
        await commandBuffer.completed()
        #expect(seen.current == expected)
    }

    @Test("commit implies enqueue; an empty command buffer completes")
    func emptyBuffer() async throws {
        let gpu = try TestGPU()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        commandBuffer.label = "empty"
        #expect(commandBuffer.label == "empty")
        commandBuffer.commit()
        await commandBuffer.completed()
        #expect(commandBuffer.status == .completed)
        #expect(commandBuffer.error == nil)
    }

    @Test("several handlers run in the order added, exactly once")
    func handlerOrder() throws {
        let gpu = try TestGPU()
        let commandBuffer = try gpu.incrementBuffer(try gpu.device.makeBuffer(length: 4))
        let calls = Locked<[String]>([])
        for i in 0..<3 {
            commandBuffer.addScheduledHandler { _ in calls.withLock { $0.append("s\(i)") } }
            commandBuffer.addCompletedHandler { _ in calls.withLock { $0.append("c\(i)") } }
        }
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        commandBuffer.waitUntilCompleted()
        #expect(calls.current == ["s0", "s1", "s2", "c0", "c1", "c2"])
    }

    @Test("enqueue order decides scheduling order, whatever the commit order")
    func enqueueOrderScheduling() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let buffers = try (0..<5).map { _ in try gpu.incrementBuffer(counter) }
        let order = Locked<[Int]>([])
        for (i, buffer) in buffers.enumerated() {
            buffer.enqueue()
            buffer.addScheduledHandler { _ in order.withLock { $0.append(i) } }
        }
        for buffer in buffers.reversed() { buffer.commit() }
        for buffer in buffers.dropFirst() { #expect(buffer.status >= .committed) }
        buffers.last!.waitUntilCompleted()
        #expect(order.current == [0, 1, 2, 3, 4])
    }

    @Test("1,000 command buffers complete in commit order")
    func completionOrder() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let completed = Locked<[Int]>([])
        var last: CommandBuffer?
        for i in 0..<1000 {
            let commandBuffer = try gpu.incrementBuffer(counter)
            commandBuffer.addCompletedHandler { cb in
                #expect(cb.status == .completed)
                completed.withLock { $0.append(i) }
            }
            commandBuffer.commit()
            last = commandBuffer
        }
        last!.waitUntilCompleted()
        #expect(completed.current == Array(0..<1000))
        #expect(counter.contents().load(as: UInt32.self) == 1000)
    }

    @Test("makeCommandBuffer blocks at maxCommandBufferCount until one completes")
    func maxCountBlocks() throws {
        let gpu = try TestGPU(maxCommandBufferCount: 2)
        let event = try gpu.device.makeSharedEvent()
        let first = try gpu.queue.makeCommandBuffer()
        first.encodeWaitForEvent(event, value: 1)
        let second = try gpu.queue.makeCommandBuffer()
        first.commit()
        let returned = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let queue = gpu.queue
        Thread.detachNewThread {
            let third = try? queue.makeCommandBuffer()
            returned.withLock { $0 = true }
            third?.commit()
            done.signal()
        }
        // Wait (on a condition, not a clock) until the maker is blocked in the queue.
        gpu.queue.engine.lock.withLock { gpu.queue.engine.lock.wait { gpu.queue.engine.slots.blockedMakers == 1 } }
        #expect(returned.current == false)
        #expect(first.status == .committed, "held until the event reaches 1")
        event.signaledValue = 1
        done.wait()
        #expect(returned.current)
        #expect(first.status == .completed)
        second.commit()
        second.waitUntilCompleted()
    }

    @Test("a command buffer dropped before commit gives its slot back")
    func droppedBufferReleasesSlot() throws {
        let gpu = try TestGPU(maxCommandBufferCount: 1)
        for _ in 0..<3 {
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            _ = try commandBuffer.makeComputeCommandEncoder()
        }
        let last = try gpu.queue.makeCommandBuffer()
        last.commit()
        last.waitUntilCompleted()
        #expect(last.status == .completed)
    }

    @Test("shared events order work across two queues and notify the CPU")
    func eventsAcrossQueues() throws {
        let gpu = try TestGPU()
        let otherQueue = try gpu.device.makeCommandQueue(label: "other")
        let event = try gpu.device.makeSharedEvent()
        let source = try gpu.device.makeBuffer(length: 16)
        let destination = try gpu.device.makeBuffer(length: 16)

        // Queue A: waits for the event, then copies what queue B wrote.
        let reader = try gpu.queue.makeCommandBuffer()
        reader.encodeWaitForEvent(event, value: 1)
        let blit = try reader.makeBlitCommandEncoder()
        blit.copy(from: source, sourceOffset: 0, to: destination, destinationOffset: 0, size: 16)
        blit.endEncoding()
        reader.encodeSignalEvent(event, value: 2)
        reader.commit()
        #expect(reader.status == .committed, "held until the event reaches 1")

        let notified = DispatchSemaphore(value: 0)
        let notifiedValue = Locked<UInt64>(0)
        event.notify(atValue: 2) { event, value in
            notifiedValue.withLock { $0 = value }
            #expect(event.signaledValue >= 2)
            notified.signal()
        }

        // Queue B: fills the source, then signals.
        let writer = try otherQueue.makeCommandBuffer()
        let fill = try writer.makeBlitCommandEncoder()
        fill.fill(buffer: source, range: 0..<16, value: 0x5A)
        fill.endEncoding()
        writer.encodeSignalEvent(event, value: 1)
        writer.commit()

        reader.waitUntilCompleted()
        notified.wait()
        #expect(notifiedValue.current == 2)
        #expect(event.signaledValue == 2)
        #expect(UnsafeRawBufferPointer(start: destination.contents(), count: 16).allSatisfy { $0 == 0x5A })
    }

    @Test("notify for a value already reached fires at once; the CPU can signal")
    func notifyReached() throws {
        let gpu = try TestGPU()
        let event = try gpu.device.makeSharedEvent()
        event.signaledValue = 3
        let fired = DispatchSemaphore(value: 0)
        event.notify(atValue: 2) { _, _ in fired.signal() }
        fired.wait()
        #expect(event.signaledValue == 3)
    }

    @Test("debug groups and signposts on a command buffer and its encoders record labels, balanced, with no validation message")
    func debugGroups() throws {
        let gpu = try TestGPU()
        let counter = try gpu.device.makeBuffer(length: 4)
        let cb = try gpu.queue.makeCommandBuffer()
        cb.label = "frame"
        cb.pushDebugGroup("frame 1")
        let compute = try cb.makeComputeCommandEncoder()
        compute.label = "increment"
        #expect(compute.label == "increment")
        compute.pushDebugGroup("dispatches")
        compute.setComputePipelineState(try gpu.pipeline("increment.comp"))
        compute.setBuffer(counter, offset: 0, index: 0)
        var amount: UInt32 = 2
        compute.setBytes(&amount, length: 4, index: 3)
        compute.insertDebugSignpost("before the dispatch")
        compute.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        compute.popDebugGroup()
        compute.endEncoding()
        let blit = try cb.makeBlitCommandEncoder()
        blit.pushDebugGroup("fill")
        blit.fill(buffer: try gpu.device.makeBuffer(length: 16), range: 0..<16, value: 1)
        blit.popDebugGroup()
        blit.endEncoding()
        cb.popDebugGroup()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 2)
        #expect(gpu.device.backend.debugLabels != nil, "lavapipe's loader offers VK_EXT_debug_utils")
    }

    @Test("a completed handler may make a command buffer on a queue at its maxCommandBufferCount: the slot is free before handlers run")
    func makeInCompletedHandlerAtMaximum() throws {
        let gpu = try TestGPU(maxCommandBufferCount: 1)
        let counter = try gpu.device.makeBuffer(length: 4)
        let first = try gpu.incrementBuffer(counter)
        let made = Locked(false)
        let queue = gpu.queue
        first.addCompletedHandler { _ in
            // Blocks forever if the finished buffer still held the queue's only slot.
            let next = try? queue.makeCommandBuffer()
            made.withLock { $0 = next != nil }
        }
        first.commit()
        first.waitUntilCompleted()
        #expect(made.current)
    }

    @Test("signalling an event that a buffer of another queue waits for is allowed, as is a later buffer waiting for an earlier one's signal")
    func legitimateEventOrders() throws {
        let gpu = try TestGPU()
        let other = try gpu.device.makeCommandQueue()
        let counter = try gpu.device.makeBuffer(length: 4)
        let event = try gpu.device.makeSharedEvent()
        let waiter = try gpu.incrementBuffer(counter, on: other)
        waiter.encodeWaitForEvent(event, value: 1)
        waiter.commit()
        let signaller = try gpu.incrementBuffer(counter)
        signaller.encodeSignalEvent(event, value: 1)
        signaller.commit()
        let follower = try gpu.incrementBuffer(counter)
        follower.encodeWaitForEvent(event, value: 1)
        follower.commit()
        for buffer in [waiter, signaller, follower] { buffer.waitUntilCompleted() }
        #expect([waiter, signaller, follower].allSatisfy { $0.status == .completed })
        #expect(counter.contents().load(as: UInt32.self) == 3)
    }
}
