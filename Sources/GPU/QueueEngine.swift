import FramePacing
import Foundation
import Glibc

/// The machinery behind a `CommandQueue`: enqueue-order scheduling, submission, and a
/// completion thread that blocks in `vkWaitSemaphores` on the queue's timeline (no
/// polling, no timer) and finishes buffers in submission order.
///
/// The completion thread waits on that one semaphore only: lavapipe (like every Mesa
/// driver whose syncs lack wait-any) implements a wait for any of several semaphores as a
/// busy loop, which took a whole core here. Shutdown wakes it with an empty submission
/// that signals the next timeline value.
///
/// `@unchecked Sendable`: mutable state is guarded by `lock` (buffer states, the pending
/// and in-flight lists, the context pool) or by `submitLock` (`lastSubmitted`).
final class QueueEngine: @unchecked Sendable {
    let device: Device
    let lock = ConditionLock()
    private let submitLock = RecursiveLock()
    private let timeline: VulkanTimeline
    private let maxCommandBufferCount: Int
    /// Set once in `init`, read by `shutdown`.
    private var completionThread: ServiceThread?

    // Guarded by lock.
    /// Enqueued buffers not yet submitted, in enqueue order.
    var pending = FIFO<CommandBuffer>()
    /// Committed, accepted buffers not yet scheduled or failed: what a drain waits for.
    var awaitingSchedule = 0
    /// `awaitingSchedule` when the gate closed for the background.
    private var drainBaseline = 0
    private var inFlight = FIFO<CommandBuffer>()
    private var live = 0
    /// Threads blocked in `makeCommandBuffer` because the queue is at its maximum.
    private(set) var blockedMakers = 0
    private var freeContexts: [VulkanCommandContext] = []
    /// Finished command-buffer objects that nothing outside the queue can reach, for
    /// `makeCommandBuffer` to reuse; at most `maxCommandBufferCount`, none once stopping.
    /// Each addition is broadcast on `lock`.
    private(set) var spareBuffers: [CommandBuffer] = []
    /// Finished buffers the app still held when they completed (a loop that keeps its
    /// last buffer, or a driver that completes work before `commit()` returns), looked at
    /// again by `makeCommandBuffer`; at most `candidateLimit`, the oldest given up first,
    /// and all given up `candidateGrace` after the first of them came, so that they do not
    /// keep a dropped queue alive. Each addition is broadcast on `lock`.
    private(set) var candidates: [CommandBuffer] = []
    static let candidateLimit = 8
    static let candidateGrace = Duration.milliseconds(100)
    /// The timer that gives the candidates up; nil while there are none.
    private var giveUpTimer: ClockTimer?
    /// How many times the queue has given up its candidates; broadcast on `lock`.
    private(set) var candidateGiveUps = 0
    /// The clock of every queue's give-up timer: its one thread sleeps while no queue has
    /// candidates. Not the completion thread, which must stay in its untimed wait: a wait
    /// that timed out during process exit would wake inside the driver as it is torn down.
    private static let candidateClock = MonotonicClock()
    private var isLost = false
    /// Set when the queue goes; broadcast on `lock`.
    private(set) var isStopping = false

    // Guarded by submitLock.
    private var lastSubmitted: UInt64 = 0

    init(device: Device, maxCommandBufferCount: Int, label: String, qos: QualityOfService) throws(VulkanError) {
        self.device = device
        self.maxCommandBufferCount = maxCommandBufferCount
        timeline = try VulkanTimeline(device: device.backend)
        freeContexts.reserveCapacity(maxCommandBufferCount)
        spareBuffers.reserveCapacity(maxCommandBufferCount)
        candidates.reserveCapacity(Self.candidateLimit)
        completionThread = ServiceThread.start(name: "\(label).completion", qos: qos, running: self) { $0.completionLoop() }
    }

    // MARK: Command buffer slots

    /// Takes a slot, a recording context and a spare command-buffer object if there is one,
    /// blocking while the queue is at its maximum. A pooled context is reset here, on the
    /// recording thread; one that cannot be reset is dropped for a new one.
    func acquire() throws(VulkanError) -> (context: VulkanCommandContext, spare: CommandBuffer?) {
        let (reused, spare) = lock.withLock { () -> (VulkanCommandContext?, CommandBuffer?) in
            if live >= maxCommandBufferCount {
                blockedMakers += 1
                lock.broadcast()
                lock.wait { live < maxCommandBufferCount }
                blockedMakers -= 1
            }
            live += 1
            return (freeContexts.popLast(), spareBuffers.popLast() ?? takeDroppedCandidate())
        }
        if let reused, (try? reused.reset()) != nil { return (reused, spare) }
        do {
            return (try VulkanCommandContext(device: device.backend), spare)
        } catch {
            lock.withLock { live -= 1; lock.broadcast() }
            throw error
        }
    }

    /// A candidate the app has dropped since it completed, cleared for reuse; called under
    /// `lock` by `makeCommandBuffer`, whose caller holds the queue (so clearing the
    /// buffer's reference to it cannot end it here).
    private func takeDroppedCandidate() -> CommandBuffer? {
        for index in candidates.indices where SoleReference.isSole(&candidates[index]) {
            let buffer = candidates.remove(at: index)
            buffer.clearForReuse()
            return buffer
        }
        return nil
    }

    /// Gives back a slot and its context, whose retained objects are released now; the
    /// context goes back to the pool, to be reset when it is next taken.
    func release(_ context: VulkanCommandContext) {
        context.releaseReferences()
        lock.withLock {
            freeContexts.append(context)
            live -= 1
            lock.broadcast()
        }
    }

    // MARK: Scheduling

    /// Submits every committed buffer at the head of the enqueue order, in order. A buffer
    /// that waits for an event value not yet reached is held there until the event's
    /// listener reports it, with the buffers behind it.
    func schedule() {
        submitLock.withLock {
            while let head = lock.withLock({ () -> CommandBuffer? in
                guard let head = pending.first, head.state.status == .committed else { return nil }
                return head
            }) {
                if let (event, value, isNew) = unreachedWait(of: head) {
                    if isNew { event.whenReached(value) { [self] in schedule() } }
                    return
                }
                lock.withLock { _ = pending.removeFirst() }
                submit(head)
            }
        }
    }

    /// The first event wait of `buffer` whose value the event has not reached, and whether
    /// it is newly found (to be watched); nil when the buffer can be submitted.
    private func unreachedWait(of buffer: CommandBuffer) -> (SharedEvent, UInt64, Bool)? {
        let (waits, held, lost) = lock.withLock { (buffer.state.eventWaits, buffer.state.heldForValue, isLost) }
        guard !lost, let unreached = waits.first(where: { $0.event.signaledValue < $0.value }) else { return nil }
        if held == unreached.value { return (unreached.event, unreached.value, false) }
        lock.withLock { buffer.state.heldForValue = unreached.value }
        return (unreached.event, unreached.value, true)
    }

    /// Submits one buffer, or fails it without a Vulkan call. Called under `submitLock`.
    private func submit(_ buffer: CommandBuffer) {
        let (context, failure) = lock.withLock { () -> (VulkanCommandContext?, CommandBufferError?) in
            let failure = isLost
                ? CommandBufferError(.deviceRemoved, "The GPU device was lost; no further work can run on it")
                : buffer.state.recordingFailure
            return (buffer.state.context, failure)
        }
        if let failure {
            lock.withLock { awaitingSchedule -= 1 }
            finish(buffer, error: failure)
            return
        }
        guard let context else { return }
        // In flight before the submit: the completion thread may see the timeline pass
        // this value before vkQueueSubmit2 even returns.
        let value = lastSubmitted + 1
        lock.withLock {
            buffer.state.timelineValue = value
            inFlight.append(buffer)
        }
        let start = HostClock.seconds()
        do {
            context.signals.append(TimelineOperation(timeline: timeline, value: value))
            try device.backend.submit(context.commandBuffer, waits: context.waits, signals: context.signals,
                                      presentSignals: context.presentSignals)
        } catch {
            lock.withLock {
                _ = inFlight.removeLast()
                awaitingSchedule -= 1
            }
            if error.code == .deviceLost { deviceLost() }
            finish(buffer, error: CommandBufferError(error))
            return
        }
        lastSubmitted = value
        let handlers = lock.withLock { () -> [CommandBufferHandler] in
            buffer.state.status = .scheduled
            buffer.state.kernelStart = start
            awaitingSchedule -= 1
            lock.broadcast()
            return buffer.state.scheduledHandlers
        }
        for handler in handlers { handler(buffer) }
        lock.withLock {
            buffer.state.scheduledHandlersDone = true
            lock.broadcast()
        }
    }

    /// Ends a buffer the lifecycle gate refused at commit: no Vulkan call, handlers once,
    /// slot and retained objects released. A refused buffer that was enqueued leaves the
    /// order, which may let the buffers behind it go.
    func refuse(_ buffer: CommandBuffer, error: CommandBufferError) {
        let wasPending = lock.withLock { () -> Bool in
            pending.remove { $0 === buffer }
        }
        finish(buffer, error: error)
        if wasPending { schedule() }
    }

    /// Blocks until nothing this queue submitted is still running.
    func waitUntilIdle() {
        lock.withLock { lock.wait { inFlight.isEmpty } }
    }

    /// Notes how many accepted buffers wait to be scheduled as the gate closes for the
    /// background: the drain reports on those.
    func noteGateClosed() {
        lock.withLock { drainBaseline = awaitingSchedule }
    }

    /// Blocks until every accepted, committed buffer is scheduled or `deadline` expires;
    /// then ends the ones still waiting in error. Returns how many were scheduled and how
    /// many failed, of those waiting when the gate closed.
    func drain(until deadline: DrainDeadline) -> (scheduled: Int, failed: Int) {
        deadline.onExpiry { [weak self] in
            guard let self else { return }
            lock.withLock { lock.broadcast() }
        }
        let (waiting, stranded) = lock.withLock { () -> (Int, [CommandBuffer]) in
            let waiting = drainBaseline
            lock.wait { awaitingSchedule == 0 || deadline.isExpired }
            var stranded: [CommandBuffer] = []
            while let buffer = pending.first(where: { $0.state.status == .committed }) {
                _ = pending.remove { $0 === buffer }
                stranded.append(buffer)
            }
            awaitingSchedule -= stranded.count
            return (waiting, stranded)
        }
        for buffer in stranded { finish(buffer, error: .notScheduledBeforeBackground) }
        return (max(waiting - stranded.count, 0), stranded.count)
    }

    /// Marks the device lost: every buffer in flight ends in `.error` now (its context is
    /// recycled when the timeline passes it, or dropped), and later buffers fail at commit.
    private func deviceLost() {
        let failed = lock.withLock { () -> [CommandBuffer] in
            isLost = true
            return inFlight.elements.filter { !$0.state.status.isTerminal }
        }
        let error = CommandBufferError(.deviceRemoved, "The GPU device was lost while this command buffer was in flight")
        for buffer in failed { runTerminalHandlers(buffer, error: error, scheduled: false) }
    }

    /// Ends a buffer that never reached the GPU: status `.error`, scheduled then completed
    /// handlers, slot released.
    func finish(_ buffer: CommandBuffer, error: CommandBufferError) {
        runTerminalHandlers(buffer, error: error, scheduled: true)
        let context = lock.withLock { () -> VulkanCommandContext? in
            defer { buffer.state.context = nil }
            return buffer.state.context
        }
        if let context { release(context) }
    }

    /// Sets the terminal status and runs the handlers once, on the calling thread.
    private func runTerminalHandlers(_ buffer: CommandBuffer, error: CommandBufferError?, scheduled: Bool) {
        let (scheduledHandlers, completedHandlers) = lock.withLock { () -> ([CommandBufferHandler], [CommandBufferHandler]) in
            buffer.state.status = error == nil ? .completed : .error
            buffer.state.error = error
            buffer.state.handlerThread = pthread_self()
            lock.broadcast()
            return (scheduled ? buffer.state.scheduledHandlers : [], buffer.state.completedHandlers)
        }
        for handler in scheduledHandlers { handler(buffer) }
        for handler in completedHandlers { handler(buffer) }
        let continuations = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            buffer.state.handlersDone = true
            buffer.state.handlerThread = nil
            // The textures' notes of this writer end here (a texture's lock is never held
            // while taking this one).
            for texture in buffer.state.writtenTextures { texture.forgetWriter(buffer) }
            buffer.state.writtenTextures.removeAll(keepingCapacity: true)
            buffer.state.scheduledHandlers.removeAll()
            buffer.state.completedHandlers.removeAll()
            lock.broadcast()
            defer { buffer.state.continuations.removeAll() }
            return buffer.state.continuations
        }
        for continuation in continuations { continuation.resume() }
    }

    // MARK: Completion

    /// The completion thread: waits for the next timeline value, then finishes every
    /// buffer it covers, oldest first.
    func completionLoop() {
        var next: UInt64 = 1
        while true {
            let reached: UInt64
            do {
                _ = try timeline.wait(for: next)
                reached = try timeline.value()
            } catch {
                deviceLost()
                lock.withLock { _ = inFlight.removeAll() }
                return
            }
            guard ServiceActivity.begin() else { return }
            while let buffer = lock.withLock({ () -> CommandBuffer? in
                guard let head = inFlight.first, head.state.timelineValue <= reached else { return nil }
                return inFlight.removeFirst()
            }) {
                complete(buffer)
                recycle(consume buffer)
            }
            ServiceActivity.end()
            if lock.withLock({ isStopping && inFlight.isEmpty }) { return }
            next = reached + 1
        }
    }

    /// Finishes a buffer whose work the timeline says is done.
    private func complete(_ buffer: CommandBuffer) {
        // Scheduled handlers run before completed ones, even when the GPU is faster than
        // the thread that submitted.
        let context = lock.withLock { () -> VulkanCommandContext? in
            lock.wait { buffer.state.scheduledHandlersDone || buffer.state.status.isTerminal }
            return buffer.state.context
        }
        let end = HostClock.seconds()
        if let times = context?.gpuTimes() {
            lock.withLock {
                buffer.state.gpuStart = Double(times.start) / 1e9
                buffer.state.gpuEnd = Double(times.end) / 1e9
            }
        }
        // The buffer's event signals have happened: their listeners re-read the values.
        for event in lock.withLock({ buffer.state.eventSignals }) { event.gpuSignalled() }
        let alreadyFailed = lock.withLock { () -> Bool in
            buffer.state.kernelEnd = end
            if buffer.state.gpuStart == 0 {
                buffer.state.gpuStart = buffer.state.kernelStart
                buffer.state.gpuEnd = end
            }
            return buffer.state.status.isTerminal
        }
        if !alreadyFailed {
            let lost = lock.withLock { isLost }
            runTerminalHandlers(buffer, error: lost
                ? CommandBufferError(.deviceRemoved, "The GPU device was lost while this command buffer was in flight")
                : nil, scheduled: false)
        }
        // What the buffer needed until now; a finished buffer the app keeps holds none of it.
        lock.withLock {
            buffer.state.context = nil
            buffer.state.eventWaits.removeAll()
            buffer.state.eventSignals.removeAll()
            buffer.state.presentedImages.removeAll()
        }
        if let context { release(context) }
    }

    /// Keeps a finished buffer's object for `makeCommandBuffer` when the completion thread's
    /// reference is the only one left (the app has dropped it, and holds no weak or unowned
    /// reference either); else keeps it as a candidate, to be looked at again. The buffer
    /// moves into either list: the completion thread keeps no reference of its own.
    private func recycle(_ buffer: consuming CommandBuffer) {
        var slot: CommandBuffer? = consume buffer
        guard SoleReference.isSole(&slot!) else {
            // The oldest candidate, evicted, is released once the lock is: it may hold the last
            // reference to a dropped queue.
            _ = lock.withLock { () -> CommandBuffer? in
                guard !isStopping else { return nil }
                defer {
                    candidates.append(slot.take()!)
                    if giveUpTimer == nil {
                        let clock = Self.candidateClock
                        giveUpTimer = clock.schedule(at: clock.now + Self.candidateGrace, leeway: Self.candidateGrace / 10) {
                            [weak self] _ in self?.giveUpCandidates()
                        }
                    }
                    lock.broadcast()
                }
                return candidates.count == Self.candidateLimit ? candidates.removeFirst() : nil
            }
            return
        }
        keepSpare(slot.take()!)
    }

    /// Clears `buffer`, which nothing else reaches, and keeps it for `makeCommandBuffer`.
    /// Called outside `lock`: clearing drops the buffer's reference to its queue, which
    /// may be the last one, and a queue that goes shuts this engine down.
    private func keepSpare(_ buffer: consuming CommandBuffer) {
        buffer.clearForReuse()
        var slot: CommandBuffer? = consume buffer
        lock.withLock {
            if !isStopping, spareBuffers.count < maxCommandBufferCount {
                spareBuffers.append(slot.take()!)
                lock.broadcast()
            }
        }
    }

    /// `candidateGrace` after the first candidate came, on the give-up timer's thread:
    /// candidates the app has dropped become spares, the rest are given up (they are the
    /// app's). One at a time, each outside `lock`; not while the process exits (dropping a
    /// buffer may end its queue, which calls Vulkan).
    private func giveUpCandidates() {
        guard ServiceActivity.begin() else { return }
        defer { ServiceActivity.end() }
        lock.withLock { giveUpTimer = nil }
        while var buffer = lock.withLock({ candidates.popLast() }) {
            if SoleReference.isSole(&buffer) { keepSpare(consume buffer) }
        }
        lock.withLock {
            candidateGiveUps += 1
            lock.broadcast()
        }
    }

    /// Stops the completion thread once nothing is in flight, and joins it (unless called
    /// on it). Called when the queue goes away; the spare buffer objects go with it (each
    /// holds the engine).
    func shutdown() {
        lock.withLock {
            isStopping = true
            // No candidate can be left (each holds the queue that is going): only spares.
            spareBuffers.removeAll()
            giveUpTimer?.cancel()
            giveUpTimer = nil
            lock.broadcast()
            lock.wait { inFlight.isEmpty }
        }
        let wakeValue = submitLock.withLock { () -> UInt64? in
            // Signalled by the device where it can be: synchronization validation expects
            // the queue's timeline to be signalled by submissions. After a failed submit
            // (a lost device) the host signals it instead.
            let value = lastSubmitted + 1
            let signal = TimelineOperation(timeline: timeline, value: value)
            guard (try? device.backend.submit(nil, waits: [], signals: [signal])) != nil
                || (try? timeline.signal(value)) != nil else { return nil }
            lastSubmitted = value
            return value
        }
        guard let wakeValue else { return }
        completionThread?.join()
        // The completion thread may have stopped earlier (a lost device): the empty
        // submission must still be finished before the timeline is destroyed.
        _ = try? timeline.wait(for: wakeValue, timeoutNanoseconds: 1_000_000_000)
    }
}
