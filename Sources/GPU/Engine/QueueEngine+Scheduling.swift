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
        /// The head was taken out of the order for submission at this timeline value.
        case submit(CommandBuffer, VulkanCommandContext, UInt64)
    }

    /// Submits every committed buffer at the head of the enqueue order, in order. A buffer
    /// that waits for an event value not yet reached is held there, with the buffers
    /// behind it, until the event's listener reports the value.
    ///
    /// The head is checked and taken in one critical section (`nextStep`), so a drain
    /// that strands buffers at its deadline never races with a submission: a buffer is
    /// either still in the order (and may be stranded) or taken (and is submitted).
    func schedule() {
        submitLock.withLock {
            while true {
                switch lock.withLock({ nextStep() }) {
                case .idle:
                    return
                case .fail(let buffer, let error):
                    end(buffer, error: error, withScheduledHandlers: true)
                case .checkWaits(let buffer, let waits):
                    guard let unreached = waits.first(where: { $0.event.signaledValue < $0.value }) else {
                        lock.withLock { buffer.record.heldForValue = nil; buffer.record.waitsReached() }
                        continue
                    }
                    let isNew = lock.withLock { () -> Bool in
                        defer { buffer.record.heldForValue = unreached.value }
                        return buffer.record.heldForValue != unreached.value
                    }
                    if isNew { unreached.event.whenReached(unreached.value) { [self] in schedule() } }
                    return
                case .submit(let buffer, let context, let value):
                    submit(buffer, context: context, value: value)
                }
            }
        }
    }

    /// Decides what to do with the head, taking it out of the order when it goes. Called
    /// with `lock` and `submitLock` held.
    private func nextStep() -> Step {
        guard let head = order.head, head.record.status == .committed else { return .idle }
        if isLost || head.record.recordingFailure != nil {
            _ = order.takeHead(ifIs: head)
            order.left()
            return .fail(head, head.record.recordingFailure ?? Self.lostBeforeSubmission)
        }
        if !head.record.eventWaits.isEmpty, !head.record.hasReachedWaits {
            return .checkWaits(head, head.record.eventWaits)
        }
        _ = order.takeHead(ifIs: head)
        let value = lastSubmitted + 1
        let context = head.record.take(forSubmissionAt: value)
        // In flight before the submit: the completion thread may see the timeline pass
        // this value before vkQueueSubmit2 even returns.
        inFlight.append(head)
        return .submit(head, context, value)
    }

    /// Submits a taken buffer, runs its scheduled handlers, or fails it. Called with
    /// `submitLock` held.
    private func submit(_ buffer: CommandBuffer, context: VulkanCommandContext, value: UInt64) {
        let start = HostClock.seconds()
        do {
            context.signals.append(TimelineOperation(timeline: timeline, value: value))
            try backend.submit(context.commandBuffer, waits: context.waits, signals: context.signals,
                                      presentSignals: context.presentSignals)
        } catch {
            lock.withLock {
                _ = inFlight.remove { $0 === buffer }
                order.left()
                lock.broadcast()
            }
            if error.code == .deviceLost { deviceLost() }
            end(buffer, error: CommandBufferError(error), withScheduledHandlers: true)
            return
        }
        lastSubmitted = value
        let handlers = lock.withLock { () -> [CommandBufferHandler] in
            order.left()
            lock.broadcast()
            return buffer.record.scheduled(at: start)
        }
        for handler in handlers { handler(buffer) }
        lock.withLock {
            buffer.record.scheduledHandlersRan()
            lock.broadcast()
        }
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
        deadline.onExpiry { [weak self] in
            guard let self else { return }
            lock.withLock { lock.broadcast() }
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
