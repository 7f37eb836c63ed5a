import FramePacing
import Glibc
import SwiftGPUSupport

extension QueueEngine {
    /// The completion thread: blocks in `vkWaitSemaphores` on the queue's timeline (no
    /// polling, no timer), then finishes every buffer the reached value covers, oldest
    /// first, and hands each to the recycler.
    ///
    /// It waits on that one semaphore only: lavapipe (like every Mesa driver whose syncs
    /// lack wait-any) implements a wait for any of several semaphores as a busy loop.
    /// Shutdown wakes it with an empty submission that signals the next timeline value, and
    /// so does the process's exit (``wakeForExit()``), after which it stops.
    func completionLoop() {
        lock.withLock { completionThreadID = pthread_self() }
        // Copied once: the wait below reads it each round without a count of its own.
        let timeline = timeline
        var next: UInt64 = 1
        // Whether a burst of work (the last round's) is in progress.
        var inBurst = false
        while true {
            // The last round's burst ends as the wait starts, and the wait's end starts this
            // round's, each in one critical section of `ServiceActivity`'s.
            guard ServiceActivity.startWait(endingBurst: inBurst) else { return }
            let reached: UInt64
            do throws(VulkanError) {
                _ = try timeline.wait(for: next)
                reached = try timeline.value()
            } catch {
                ServiceActivity.endWait(beginningBurst: false)
                // The timeline can no longer be waited for: end what is in flight and stop.
                deviceLost(stoppingCompletion: true)
                return
            }
            guard ServiceActivity.endWait(beginningBurst: true) else { return }
            inBurst = true
            // Set by the critical section that finds no more finished buffers: waiters for
            // an emptier list are woken there too.
            var stop = false
            while let (buffer, ready) = lock.withLock({ () -> (CommandBuffer, Finishing?)? in
                guard let buffer = inFlight.removeFirst(if: { $0.record.timelineValue <= reached }) else {
                    lock.broadcast()
                    stop = isStopping && inFlight.isEmpty
                    return nil
                }
                // Usually the submitter is long done with the scheduled handlers: what the
                // buffer's end needs is read in the same critical section.
                let ready = buffer.record.scheduledHandlersDone || buffer.record.status.isTerminal
                return (buffer, ready ? Finishing(buffer.record) : nil)
            }) {
                complete(buffer, ready)
                recycle(consume buffer)
            }
            if stop {
                ServiceActivity.end()
                return
            }
            next = reached + 1
        }
    }

    /// What finishing a buffer reads from its record once its scheduled handlers ran,
    /// without reference counting in the common case.
    struct Finishing {
        /// The recording context, unretained: the record holds it until the buffer's end,
        /// and only the completion thread ends a buffer in flight (a submitter that finds
        /// the device lost ends it keeping the slot), so it outlives every use here.
        var context: Unmanaged<CommandRecorder>?
        /// The event signals; nil when there are none (most buffers).
        var signals: [(event: SharedEvent, value: UInt64)]?

        /// Reads `record`; called with the engine's lock held.
        init(_ record: borrowing Submission) {
            if let context = record.context { self.context = .passUnretained(context) } else { context = nil }
            signals = record.eventSignals.isEmpty ? nil : record.eventSignals
        }
    }

    /// Finishes a buffer whose work the timeline says is done; `ready` is what its end
    /// needs, when its scheduled handlers had already run as it was taken from the list.
    private func complete(_ buffer: CommandBuffer, _ ready: Finishing?) {
        // Scheduled handlers run before completed ones, even when the GPU is faster than
        // the thread that submitted.
        let finishing = ready ?? lock.withLock { () -> Finishing in
            lock.wait { buffer.record.scheduledHandlersDone || buffer.record.status.isTerminal }
            return Finishing(buffer.record)
        }
        let end = HostClock.seconds()
        let gpuTimes = finishing.context?._withUnsafeGuaranteedRef { $0.gpuTimes() }
            .map { (Double($0.start) / 1e9, Double($0.end) / 1e9) }
        // Indirect arguments the GPU found out of range: the buffer ends in `.error`.
        let invalidArguments = finishing.context?._withUnsafeGuaranteedRef { $0.invalidIndirectArguments() }
            .map(CommandBufferError.init)
        // The buffer's event signals have happened: their listeners re-read the values.
        if let signals = finishing.signals {
            for signal in signals { signal.event.gpuSignalled() }
        }
        // The objects the work used go now, before the lock (a deinit may take other locks):
        // a buffer without handlers then ends, gives its slot back and wakes its waiters in
        // one critical section. This thread owns the context until the end below.
        finishing.context?._withUnsafeGuaranteedRef { $0.releaseReferences() }
        // The completion's note and the end in one critical section.
        self.end(buffer, withScheduledHandlers: false, referencesReleased: true) { engine, record in
            record.noteCompletion(at: end, gpuTimes: gpuTimes)
            return engine.isLost ? Self.lostWhileInFlight : invalidArguments
        }
    }

    /// Marks the device lost: every buffer in flight ends in `.error` now, and later
    /// buffers fail at their turn without entering the in-flight list.
    ///
    /// A submitter whose submission found the device lost (`stoppingCompletion` false)
    /// leaves the ended buffers in the list, holding their slots: the completion thread
    /// passes over them and gives their slots back once the timeline passes them. The
    /// completion thread, when its own wait failed, will not wait again: it waits for the
    /// Vulkan queue to go idle (at once on a lost device), gives every slot back, empties
    /// the list and wakes every waiter. It takes `submitLock` for the marking, so no
    /// submission is in progress when it reads the list; a submitter already holds it.
    func deviceLost(stoppingCompletion: Bool = false) {
        let failed = submitLock.withLock {
            lock.withLock { () -> [CommandBuffer] in
                isLost = true
                return inFlight.elements
            }
        }
        if stoppingCompletion { try? backend.waitForQueueIdle() }
        for buffer in failed {
            end(buffer, error: Self.lostWhileInFlight, withScheduledHandlers: false, releasingSlot: stoppingCompletion)
        }
        guard stoppingCompletion else { return }
        lock.withLock {
            _ = inFlight.removeAll()
            lock.broadcast()
        }
    }
}
