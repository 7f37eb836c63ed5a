import FramePacing
import SwiftGPUSupport

extension QueueEngine {
    /// What the scheduler does with the head of the enqueue order.
    private enum Step {
        /// Nothing to do: the order is empty or its head is not committed.
        case idle
        /// The head was taken out of the order to fail without a Vulkan call.
        case fail(CommandBuffer, CommandBufferError)
        /// The head waits for events whose values must be read (outside the lock).
        case checkWaits(CommandBuffer, [(event: SharedEvent, value: UInt64)])
        /// The buffers now in `batch` were taken out of the order for submission.
        case submit
    }

    /// Submits every committed buffer at the head of the enqueue order, in order. A buffer
    /// that waits for an event value not yet reached is held there, with the buffers
    /// behind it, until the event's listener reports the value.
    ///
    /// The head is checked and taken in one critical section (`nextStep`), so a drain
    /// that strands buffers at its deadline never races with a submission: a buffer is
    /// either still in the order (and may be stranded) or taken (and is submitted).
    /// Consecutive buffers that may go (a run of held buffers whose event was reached, or
    /// buffers committed while another thread was submitting) are taken together and
    /// submitted in one `vkQueueSubmit2`; a released run shares one `VkSubmitInfo2` where
    /// `mayShareSubmission` allows.
    func schedule() {
        submitLock.withLock {
            // Event values read during this call: a value only grows, so a later buffer
            // waiting for a value at or below one read here needs no read of its own.
            var known: [(event: SharedEvent, value: UInt64)] = []
            while true {
                switch lock.withLock({ nextStep(known: known) }) {
                case .idle:
                    return
                case .fail(let buffer, let error):
                    end(buffer, error: error, withScheduledHandlers: true)
                case .checkWaits(let buffer, let waits):
                    var unreached: (event: SharedEvent, value: UInt64)?
                    for wait in waits {
                        let value = wait.event.signaledValue
                        known.append((wait.event, value))
                        if value < wait.value, unreached == nil { unreached = wait }
                    }
                    // Every wait reached: the next step takes the buffer.
                    guard let unreached else { continue }
                    let isNew = lock.withLock { () -> Bool in
                        defer { buffer.record.heldForValue = unreached.value }
                        return buffer.record.heldForValue != unreached.value
                    }
                    if isNew {
                        unreached.event.whenReached(unreached.value) { [self] mayWait in
                            if mayWait {
                                schedule()
                                return true
                            }
                            return scheduleIfNoneSubmitting()
                        }
                    }
                    return
                case .submit:
                    guard submitBatch() else { return }
                }
            }
        }
    }

    /// `schedule()`, unless another thread holds the submission lock (it may be inside a
    /// long call, or in a scheduled handler that waits for this thread): returns false then,
    /// without waiting.
    func scheduleIfNoneSubmitting() -> Bool {
        submitLock.withLockIfAvailable { schedule() }
    }

    /// Decides what to do with the head, taking it out of the order when it goes, and with
    /// it the committed buffers behind it that may go too, up to `batchLimit`: those
    /// buffers are left in `batch`. Called with `lock` and `submitLock` held.
    ///
    /// The head is read in place, without retaining it (a buffer's reference count is
    /// touched by the app's thread and the completion thread too, and its atomic updates
    /// were most of a drain's time); a buffer that goes moves from the order into
    /// `inFlight` with the order's reference.
    private func nextStep(known: [(event: SharedEvent, value: UInt64)]) -> Step {
        var value = lastSubmitted
        // Where the batch's last submission (its run of one timeline value) begins.
        var submissionStart = batch.count
        while batch.count < Self.batchLimit, let head = order.unretainedHead {
            let decision = head._withUnsafeGuaranteedRef { self.verdict(on: $0, known: known) }
            switch decision {
            case .stays:
                return batch.isEmpty ? .idle : .submit
            case .fails(let error):
                if !batch.isEmpty { return .submit }
                let failed = order.takeHead()
                order.left()
                return .fail(failed, error)
            case .waits(let waits):
                if !batch.isEmpty { return .submit }
                return .checkWaits(head.takeUnretainedValue(), waits)
            case .goes:
                let taken = order.takeHead()
                if batch.count == submissionStart || !mayShareSubmission(taken, from: submissionStart) {
                    value += 1
                    submissionStart = batch.count
                }
                let context = taken.record.take(forSubmissionAt: value)
                batch.append(BatchEntry(buffer: .passUnretained(taken), context: context, value: value))
                // In flight before the submit: the completion thread may see the timeline
                // pass this value before vkQueueSubmit2 even returns.
                inFlight.append(taken)
            }
        }
        return batch.isEmpty ? .idle : .submit
    }

    /// Whether `buffer` joins the submission that the batch's entries from `start` on make
    /// (one `VkSubmitInfo2`, one timeline value, completing together): when it was held
    /// for event values that the submission's first buffer waited for too (each of its
    /// waits is one of the first's, at that value or beyond: the submission starts after
    /// those waits anyway), and the buffer before it signals nothing of its own (an event
    /// or a drawable's semaphore would otherwise be signalled only once `buffer` is done
    /// too). So a run released by one event value goes to the driver as one submission,
    /// and the completion thread wakes once for it; a buffer that waits for nothing keeps
    /// a submission of its own, and with it its own completion (a frame committed while
    /// another thread submits the one before must not wait for the later one's work to
    /// complete). Called with `lock` held.
    private func mayShareSubmission(_ buffer: CommandBuffer, from start: Int) -> Bool {
        let lastSignals = batch[batch.count - 1].buffer._withUnsafeGuaranteedRef {
            !$0.record.eventSignals.isEmpty || !$0.record.presentedImages.isEmpty
        }
        if lastSignals || buffer.record.eventWaits.isEmpty { return false }
        return batch[start].buffer._withUnsafeGuaranteedRef { first in
            buffer.record.eventWaits.allSatisfy { wait in
                first.record.eventWaits.contains { $0.event === wait.event && $0.value >= wait.value }
            }
        }
    }

    /// What `nextStep` does with a head.
    private enum HeadVerdict {
        /// Not committed: it and the buffers behind it stay.
        case stays
        /// Fails without a Vulkan call (a recording failure, or a lost device).
        case fails(CommandBufferError)
        /// Waits for event values not known to be reached.
        case waits([(event: SharedEvent, value: UInt64)])
        /// Goes to the GPU now (its waits, if any, are reached).
        case goes
    }

    /// The verdict on `head`, read in place; notes waits found reached. Called with `lock`
    /// held.
    private func verdict(on head: CommandBuffer, known: [(event: SharedEvent, value: UInt64)]) -> HeadVerdict {
        guard head.record.status == .committed else { return .stays }
        if isLost || head.record.recordingFailure != nil {
            return .fails(head.record.recordingFailure ?? Self.lostBeforeSubmission)
        }
        if !head.record.eventWaits.isEmpty, !head.record.hasReachedWaits {
            let reached = head.record.eventWaits.allSatisfy { wait in
                known.contains { $0.event === wait.event && $0.value >= wait.value }
            }
            guard reached else { return .waits(head.record.eventWaits) }
            head.record.heldForValue = nil
            head.record.waitsReached()
        }
        return .goes
    }

    /// Submits the buffers in `batch` (taken at the timeline values after
    /// `lastSubmitted`, in order), marks them scheduled and runs their scheduled handlers,
    /// in order; or fails them all. Called with `submitLock` held; leaves `batch` empty
    /// before any handler runs (a handler may commit, which schedules again). Returns
    /// whether the order may hold more to do: false when, as the batch was marked
    /// scheduled, the head of the order was not committed and no handler ran since (a
    /// later commit, or an event reaching its value, schedules on its own).
    private func submitBatch() -> Bool {
        let start = HostClock.seconds()
        if let error = submitContexts() {
            // Strong references before the buffers leave the in-flight list.
            let failed = (0..<batch.count).map { batch[$0].buffer.takeUnretainedValue() }
            batch.removeAll()
            lock.withLock {
                for buffer in failed {
                    _ = inFlight.remove { $0 === buffer }
                    order.left()
                }
                lock.broadcast()
            }
            if error.code == .deviceLost { deviceLost() }
            for buffer in failed { end(buffer, error: CommandBufferError(error), withScheduledHandlers: true) }
            return true
        }
        lastSubmitted = batch[batch.count - 1].value
        // One critical section for the whole batch; a buffer without scheduled handlers is
        // done with them at once, the others after theirs ran.
        let (withHandlers, headIsCommitted) = lock.withLock { () -> ([(CommandBuffer, [CommandBufferHandler])], Bool) in
            var withHandlers: [(CommandBuffer, [CommandBufferHandler])] = []
            for index in 0..<batch.count {
                order.left()
                let handlers = batch[index].buffer._withUnsafeGuaranteedRef { buffer in
                    defer { wakeWaiters(of: buffer) }
                    return buffer.record.scheduled(at: start)
                }
                if let handlers { withHandlers.append((batch[index].buffer.takeUnretainedValue(), handlers)) }
            }
            lock.broadcast()
            return (withHandlers, order.unretainedHead?._withUnsafeGuaranteedRef { $0.record.status == .committed } ?? false)
        }
        batch.removeAll()
        for (buffer, handlers) in withHandlers {
            for handler in handlers { handler(buffer) }
            lock.withLock {
                buffer.record.scheduledHandlersRan()
                lock.broadcast()
            }
        }
        return headIsCommitted || !withHandlers.isEmpty
    }

    /// The `vkQueueSubmit2` of the contexts in `batch`, each signalling its entry's
    /// timeline value; the error, or nil once submitted.
    private func submitContexts() -> VulkanError? {
        guard batch.count == 1 else {
            do {
                try CommandRecorder.submit(backend, count: batch.count, timeline: timeline) {
                    (batch[$0].context, batch[$0].value)
                }
                return nil
            } catch {
                return error
            }
        }
        var failure: VulkanError?
        let value = batch[0].value
        batch[0].context._withUnsafeGuaranteedRef { context in
            do throws(VulkanError) {
                try context.submitAlone(on: backend, timeline: timeline, value: value)
            } catch {
                failure = error
            }
        }
        return failure
    }

    // MARK: The background drain

    /// Notes how many admitted buffers wait to be scheduled as the gate closes for the
    /// background: the drain reports on those.
    func noteGateClosed() {
        lock.withLock { order.noteGateClosed() }
    }

    /// Blocks until every admitted, committed buffer is scheduled or `deadline` expires;
    /// then ends the ones still in the order in error, and waits for the ones already
    /// taken for submission to be scheduled (a submission in progress is not stopped).
    /// Returns how many were scheduled and how many failed, of those waiting when the
    /// gate closed.
    func drain(until deadline: DrainDeadline) -> (scheduled: Int, failed: Int) {
        // What may go now (buffers held for an event value the GPU reached, whose listener
        // thread has not woken yet) goes on this thread. Only when no other thread is
        // submitting: the drain must keep its deadline.
        _ = scheduleIfNoneSubmitting()
        // The gate is closed, so the count only falls: with nothing waiting, the drain
        // needs no deadline (and starts no timer).
        if lock.withLock({ order.awaitingSchedule > 0 }) {
            deadline.onExpiry { [weak self] in
                guard let self else { return }
                lock.withLock { lock.broadcast() }
            }
        }
        let (waiting, stranded) = lock.withLock { () -> (Int, [CommandBuffer]) in
            let waiting = order.drainBaseline
            lock.wait { order.awaitingSchedule == 0 || deadline.isExpired }
            let stranded = order.strand { $0.record.status == .committed }
            lock.wait { order.awaitingSchedule == 0 }
            return (waiting, stranded)
        }
        for buffer in stranded { end(buffer, error: .notScheduledBeforeBackground, withScheduledHandlers: true) }
        return (max(waiting - stranded.count, 0), stranded.count)
    }
}
