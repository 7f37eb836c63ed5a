import Dispatch
import FoundationEssentials
import FramePacing
import Glibc
import SwiftGPUSupport

/// The machinery behind a `CommandQueue`, and the owner of every command buffer's
/// `Submission` record: each status change and counter update happens here, under `lock`,
/// and each check-and-remove of a buffer in one critical section.
///
/// Its parts, each a type of its own guarded by `lock`:
/// - `CommandSlots`: the in-flight limit and the pooled recording contexts;
/// - `EnqueueOrder`: enqueue order, event holds and the drain count (the scheduling
///   itself is in `QueueEngine+Scheduling.swift`);
/// - the in-flight list and the completion thread (`QueueEngine+Completion.swift`);
/// - `Recycler`: finished command-buffer objects kept for reuse
///   (`QueueEngine+Recycling.swift`).
///
/// Locks, in the order they may be taken (see ARCHITECTURE.md): `submitLock` (one
/// submitter at a time, in order; recursive, since scheduled handlers may commit), then
/// `lock`. No handler, clock, event or texture is called with `lock` held.
///
/// `@unchecked Sendable`: mutable state is guarded by `lock`, except `lastSubmitted` and
/// `batch`, guarded by `submitLock`; the rest is immutable after `init`.
final class QueueEngine: @unchecked Sendable {
    /// The Vulkan device and the lifecycle gate: the engine holds no `Device`, so a device
    /// can keep a queue of its own without a reference cycle.
    let backend: DeviceBackend
    let gate: LifecycleGate
    let lock = ConditionLock(rank: .queueEngine)
    /// What `waitUntilScheduled()` and `waitUntilCompleted()` sleep on: woken when a buffer
    /// a thread waits for is scheduled or ends, not by every other change under `lock` (a
    /// thread waiting for the last of many buffers would wake at each completion).
    let bufferCondition: LockCondition
    let submitLock: RecursiveLock
    let timeline: QueueSubmitter
    /// Set once in `init`, read by `shutdown`.
    private var completionThread: ServiceThread?

    // Guarded by lock. The lock already makes every access to these exclusive, so they
    // skip Swift's run-time exclusivity checks (each a call into the runtime, several per
    // buffer on the scheduling path).
    @exclusivity(unchecked) var slots: CommandSlots
    @exclusivity(unchecked) var order = EnqueueOrder<CommandBuffer>()
    /// Submitted buffers not yet finished, in submission (and timeline) order.
    @exclusivity(unchecked) var inFlight = FIFO<CommandBuffer>()
    @exclusivity(unchecked) var recycler: Recycler
    /// The clock of the recycler's give-up timer: `Recycler.candidateClock`, or a virtual
    /// clock a test advances.
    let candidateClock: any DisplayClock
    /// Set when the device is lost; later buffers fail at their turn.
    var isLost = false
    /// Set when the queue goes; broadcast on `lock`.
    private(set) var isStopping = false
    /// The completion thread, once it runs: a wait on it for a buffer of this queue would
    /// never end.
    var completionThreadID: pthread_t?

    // Guarded by submitLock (no run-time exclusivity checks, as above).
    /// The last timeline value handed to a submission.
    @exclusivity(unchecked) var lastSubmitted: UInt64 = 0
    /// The buffers taken for the submission in progress, with their contexts, unretained:
    /// each buffer is in `inFlight` and holds its context until its end, which waits for
    /// the submission's critical section (`submitBatch`). Kept with its storage, so that
    /// scheduling allocates nothing; freed in `deinit`.
    @exclusivity(unchecked) var batch = ScratchList<BatchEntry>(capacity: QueueEngine.batchLimit)
    /// The most buffers one `vkQueueSubmit2` takes.
    static let batchLimit = 64

    init(device: Device, maxCommandBufferCount: Int, label: String, qos: DispatchQoS.QoSClass,
         submitRank: LockRank = .queueSubmit, candidateClock: any DisplayClock = Recycler.candidateClock) throws(VulkanError) {
        submitLock = RecursiveLock(rank: submitRank)
        backend = device.backend
        self.candidateClock = candidateClock
        gate = device.gate
        bufferCondition = LockCondition(on: lock)
        slots = CommandSlots(limit: maxCommandBufferCount)
        recycler = Recycler(spareLimit: maxCommandBufferCount)
        timeline = try QueueSubmitter(device: backend)
        completionThread = ServiceThread.start(name: "\(label).completion", qos: qos, running: self) { $0.completionLoop() }
        ServiceActivity.register(self)
    }

    deinit { batch.deallocate() }

    /// A buffer taken for submission and its recording context (see `batch`).
    struct BatchEntry {
        let buffer: Unmanaged<CommandBuffer>
        let context: Unmanaged<CommandRecorder>
        /// The timeline value at which the buffer completes: shared with the buffers before
        /// it that go in the same `VkSubmitInfo2`.
        let value: UInt64
    }

    static let lostWhileInFlight = CommandBufferError(
        .deviceRemoved, "The GPU device was lost while this command buffer was in flight")
    static let lostBeforeSubmission = CommandBufferError(
        .deviceRemoved, "The GPU device was lost; no further work can run on it")

    // MARK: Slots

    /// Takes a slot, a recording context and a recycled command-buffer object if there is
    /// one, blocking while every slot is taken. A pooled context is reset here, on the
    /// recording thread; one that cannot be reset is dropped for a new one.
    func acquire() throws(VulkanError) -> (context: CommandRecorder, spare: CommandBuffer?) {
        let (pooled, recycled) = lock.withLock { () -> (CommandRecorder?, (buffer: CommandBuffer, needsClearing: Bool)?) in
            if slots.isFull {
                slots.makerBlocked(true)
                lock.broadcast()
                lock.wait { !slots.isFull }
                slots.makerBlocked(false)
            }
            return (slots.take(), recycler.take())
        }
        // The caller holds the queue, so clearing a candidate's reference to it ends nothing.
        if let recycled, recycled.needsClearing { recycled.buffer.clearForReuse() }
        // Moved, so that the reset uses this function's reference, not a copy.
        if let reused = consume pooled, (try? reused.reset()) != nil { return (reused, recycled?.buffer) }
        do {
            return (try CommandRecorder(device: backend), recycled?.buffer)
        } catch {
            lock.withLock {
                slots.giveBack(nil)
                lock.broadcast()
            }
            throw error
        }
    }

    /// Gives a slot back with its context, whose retained objects are released now; the
    /// context is reset when it is next taken.
    func releaseSlot(_ context: CommandRecorder) {
        context.releaseReferences()
        lock.withLock {
            slots.giveBack(context)
            lock.broadcast()
        }
    }

    // MARK: Recording

    /// `enqueue()`: the buffer takes its place in the order.
    func enqueue(_ buffer: CommandBuffer) {
        lock.withLock {
            buffer.record.enqueue()
            order.append(buffer)
        }
    }

    /// `commit()`: the gate decides first, before any Vulkan call for the buffer; an
    /// admitted buffer ends its recording and joins the order, and every buffer at the
    /// head that may go is submitted.
    ///
    /// With `unlessWritingTextures`, a buffer still recording that writes textures is not
    /// committed: its textures come back (for the drawables they present to be handed to
    /// this buffer first), and the caller commits it again without the flag. Nil otherwise.
    @discardableResult
    func commit(_ buffer: CommandBuffer, unlessWritingTextures: Bool = false) -> [Texture]? {
        // The context is read unretained: the record holds it until the buffer ends, and
        // nothing ends it before it joins the order below (only a refusal, on this thread).
        // The lists are copied only when they hold something.
        var writers: [Texture]?
        let begun = lock.withLock {
            () -> (Unmanaged<CommandRecorder>?, Bool, [(swapchain: SwapchainPresenter, index: Int)]?, [Texture]?)? in
            if unlessWritingTextures, buffer.record.isOpenForRecording, !buffer.record.writtenTextures.isEmpty {
                writers = buffer.record.writtenTextures
                return nil
            }
            buffer.record.beginCommit()
            return (buffer.record.unretainedContext, buffer.record.isRecording,
                    buffer.record.presentedImages.isEmpty ? nil : buffer.record.presentedImages,
                    buffer.record.writtenTextures.isEmpty ? nil : buffer.record.writtenTextures)
        }
        guard let (context, isRecording, presented, written) = begun else { return writers }
        if let refusal = gate.admit(buffer) {
            refuse(buffer, error: refusal)
            return nil
        }
        // Before the buffer can finish: its terminal step forgets these notes.
        if let written {
            for texture in written { texture.noteCommittedWriter(buffer) }
        }
        let failure = context?._withUnsafeGuaranteedRef {
            Self.endRecording($0, begun: isRecording, presenting: presented)
        }
        lock.withLock {
            if buffer.record.commit(recordingFailure: failure) { order.append(buffer) }
            order.admitted()
            lock.broadcast()
            if !buffer.record.eventSignals.isEmpty { checkSignalsDoNotUnblockEarlierBuffers(of: buffer) }
        }
        gate.admitted()
        schedule()
        return nil
    }

    /// Ends the recording of a committed buffer: begins it first if no encoder did, moves
    /// the images it presents to the present layout, leaves its resources in their resting
    /// layouts and ends it with the barrier every buffer ends with. Returns the failure, if
    /// a Vulkan call failed.
    private static func endRecording(_ context: CommandRecorder, begun: Bool,
                                     presenting presented: [(swapchain: SwapchainPresenter, index: Int)]?) -> CommandBufferError? {
        do throws(VulkanError) {
            if !begun { try context.begin() }
            if let presented {
                for (swapchain, index) in presented { context.preparePresent(swapchain, index: index) }
            }
            context.restoreRestingLayouts()
            context.endOfBufferBarrier()
            try context.end()
            return nil
        } catch {
            return CommandBufferError(error)
        }
    }

    /// Stops when `buffer` signals an event value that a buffer ahead of it in this queue's
    /// order waits for: buffers of a queue run in order, so the earlier one would wait
    /// forever. Called with `lock` held (it reads the events' values, a driver query that
    /// takes no lock of SwiftGPU's).
    private func checkSignalsDoNotUnblockEarlierBuffers(of buffer: CommandBuffer) {
        for signal in buffer.record.eventSignals {
            let current = signal.event.signaledValue
            guard let held = order.first(before: buffer, where: { earlier in
                earlier.record.eventWaits.contains { $0.event === signal.event && $0.value > current && $0.value <= signal.value }
            }) else { continue }
            let wait = held.record.eventWaits.first { $0.event === signal.event }!
            misuse("commit() of a command buffer that signals an event to \(signal.value), which a command buffer enqueued "
                + "before it on the same queue waits for (value \(wait.value)): buffers of a queue run in order, so that one "
                + "would wait forever; signal the event from another queue or the CPU")
        }
    }

    /// Ends a buffer the lifecycle gate refused at commit: no Vulkan call, handlers once,
    /// slot and retained objects released. A refused buffer that was enqueued leaves the
    /// order, which may let the buffers behind it go.
    private func refuse(_ buffer: CommandBuffer, error: CommandBufferError) {
        let wasInOrder = lock.withLock { order.remove(buffer) }
        end(buffer, error: error, withScheduledHandlers: true)
        if wasInOrder { schedule() }
    }

    // MARK: Waiting

    /// Blocks until nothing this queue submitted is still running.
    func waitUntilIdle() {
        lock.withLock { lock.wait { inFlight.isEmpty } }
    }

    /// Blocks until `buffer` is scheduled or has ended.
    func waitUntilScheduled(_ buffer: CommandBuffer) {
        lock.withLock {
            guard !buffer.record.isOpenForRecording else { misuse("waitUntilScheduled() called before commit()") }
            buffer.record.waitingThreads += 1
            bufferCondition.wait { buffer.record.status >= .scheduled }
            buffer.record.waitingThreads -= 1
        }
    }

    /// Blocks until `buffer` has ended and its completed handlers have run; returns at
    /// once when called from one of those handlers.
    func waitUntilCompleted(_ buffer: CommandBuffer) {
        lock.withLock {
            guard !buffer.record.isOpenForRecording else { misuse("waitUntilCompleted() called before commit()") }
            if let thread = buffer.record.handlerThread, pthread_equal(thread, pthread_self()) != 0 { return }
            if !buffer.record.handlersDone, let completion = completionThreadID, pthread_equal(completion, pthread_self()) != 0 {
                misuse("waitUntilCompleted() called from a completed handler of the same queue on a command buffer that has not "
                    + "completed: it would wait forever, since that handler holds the queue's completion thread")
            }
            buffer.record.waitingThreads += 1
            bufferCondition.wait { buffer.record.handlersDone }
            buffer.record.waitingThreads -= 1
        }
    }

    /// Resumes `continuation` once `buffer` has ended and its completed handlers have run.
    func whenCompleted(_ buffer: CommandBuffer, _ continuation: CheckedContinuation<Void, Never>) {
        let registered = lock.withLock { () -> Bool in
            guard !buffer.record.isOpenForRecording else { misuse("completed() awaited before commit()") }
            return buffer.record.awaitHandlers(continuation)
        }
        if !registered { continuation.resume() }
    }

    // MARK: The terminal step

    /// Ends `buffer`, once: status `.completed` (no `error`) or `.error`; the slot goes back
    /// before the handlers run (as Metal frees it), then the scheduled handlers (for a
    /// buffer that never reached the GPU) and the completed ones run on this thread, then
    /// waiters wake. A buffer that had already ended (failed by a lost device) only gives
    /// its slot back. A buffer the GPU may still be running keeps its slot
    /// (`releasingSlot` false) until the completion thread finishes it.
    func end(_ buffer: CommandBuffer, error: CommandBufferError?, withScheduledHandlers: Bool, releasingSlot: Bool = true) {
        end(buffer, withScheduledHandlers: withScheduledHandlers, releasingSlot: releasingSlot) { _, _ in error }
    }

    /// `end`, with the error decided by `decide`, which runs on the record under `lock` in
    /// the critical section that ends the buffer (the completion thread notes the
    /// completion there). A buffer without handlers gives its slot back and is done with
    /// its handlers in one more critical section, or in the same one when the caller let
    /// the context's retained objects go already (`referencesReleased`: the completion
    /// thread, which owns the context until this end). `decide` is handed the engine, so
    /// that it need not capture it (a capture costs the engine a retain and a release).
    func end(_ buffer: CommandBuffer, withScheduledHandlers: Bool, releasingSlot: Bool = true, referencesReleased: Bool = false,
             deciding decide: (QueueEngine, inout Submission) -> CommandBufferError?) {
        var endedAtOnce = false
        var (ending, context, finished) = lock.withLock { () -> (Submission.Ending, CommandRecorder?, Submission.Finished?) in
            let error = decide(self, &buffer.record)
            let ending = buffer.record.end(error: error, withScheduledHandlers: withScheduledHandlers, on: pthread_self())
            var context = releasingSlot ? buffer.record.releaseResources() : nil
            var finished: Submission.Finished?
            if referencesReleased, case .noHandlers = ending {
                // Moved into the pool: no count changes hands.
                if context != nil { slots.giveBack(context.take()) }
                finished = buffer.record.handlersRan()
                endedAtOnce = true
            }
            lock.broadcast()
            wakeWaiters(of: buffer)
            return (ending, context, finished)
        }
        if !endedAtOnce {
            switch ending {
            case .alreadyEnded:
                if let context { releaseSlot(context) }
                return
            case .noHandlers:
                context?.releaseReferences()
                finished = lock.withLock {
                    // Moved into the pool: no count changes hands.
                    if context != nil { slots.giveBack(context.take()) }
                    defer {
                        lock.broadcast()
                        wakeWaiters(of: buffer)
                    }
                    return buffer.record.handlersRan()
                }
            case .handlers(let scheduled, let completed):
                if let context { releaseSlot(context) }
                for handler in scheduled { handler(buffer) }
                for handler in completed { handler(buffer) }
                finished = lock.withLock { () -> Submission.Finished? in
                    defer {
                        lock.broadcast()
                        wakeWaiters(of: buffer)
                    }
                    return buffer.record.handlersRan()
                }
            }
        }
        guard let finished else { return }
        // The textures' notes of this writer end here, outside the engine's lock.
        for texture in finished.written { texture.forgetWriter(buffer) }
        for continuation in finished.continuations { continuation.resume() }
    }

    /// Wakes the threads waiting for `buffer` to be scheduled or completed, if any; called
    /// with `lock` held wherever what they wait for changes.
    func wakeWaiters(of buffer: CommandBuffer) {
        if buffer.record.waitingThreads > 0 { bufferCondition.broadcast() }
    }

    // MARK: Shutdown

    /// Stops the completion thread once nothing is in flight, and joins it (unless called
    /// on it). Called when the queue goes away; the spare objects go with it (each holds
    /// the engine).
    func shutdown() {
        ServiceActivity.unregister(self)
        // Dropping the spares here is safe: a cleared object holds no slot, so its deinit
        // does not take this lock.
        let timer = lock.withLock { () -> ClockTimer? in
            isStopping = true
            let timer = recycler.close()
            lock.broadcast()
            lock.wait { inFlight.isEmpty }
            return timer
        }
        timer?.cancel()
        guard let wakeValue = submitWake() else { return }
        completionThread?.join()
        // The completion thread may have stopped earlier (a lost device): the empty
        // submission must still be finished before the timeline is destroyed.
        _ = try? timeline.wait(for: wakeValue, timeoutNanoseconds: 1_000_000_000)
    }

    /// Submits nothing but a signal of the timeline one past the last submission, which
    /// wakes the completion thread once the work before it is done; the value, or nil when
    /// it could not be signalled.
    private func submitWake() -> UInt64? {
        submitLock.withLock { () -> UInt64? in
            // Signalled by the device where it can be: synchronization validation expects
            // the queue's timeline to be signalled by submissions. After a failed submit
            // (a lost device) the host signals it instead.
            let value = lastSubmitted + 1
            let signal = TimelineOperation(timeline: timeline, value: value)
            let submitted = withUnsafePointer(to: signal) { signal in
                (try? backend.submit(nil, signals: UnsafeBufferPointer(start: signal, count: 1))) != nil
            }
            guard submitted
                || (try? timeline.signal(value)) != nil else { return nil }
            lastSubmitted = value
            return value
        }
    }
}

extension QueueEngine: ExitWaking {
    /// The process exits: wakes the completion thread, which then stops, so that no thread
    /// of the queue is inside the driver when the driver's destructors run.
    func wakeForExit() { _ = submitWake() }
}
