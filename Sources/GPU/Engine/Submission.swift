import Glibc

/// The queue engine's record of one command buffer, from `makeCommandBuffer()` to its
/// terminal status: the one state machine every status change of a command buffer goes
/// through.
///
/// ```
/// notEnqueued ──enqueue──▶ enqueued ──┐
///      │                              ├─commit─▶ committed ──scheduled──▶ scheduled ──complete──▶ completed
///      └──────────────commit──────────┘              │                       │
///                                                    └─────fail──────────────┴──────fail──────▶ error
/// ```
///
/// Each transition is a `mutating` method here that checks where the buffer is; misuse
/// (a second commit, an encoder still open, a handler added after commit) stops with a
/// message. The record lives in its `CommandBuffer` (so a recycled buffer allocates none)
/// but belongs to the queue's `QueueEngine`: it is read and changed only under the
/// engine's lock, and only the engine calls the transitions.
struct Submission {
    /// The status the app sees.
    private(set) var status = CommandBufferStatus.notEnqueued
    /// Why the buffer failed, once it did.
    private(set) var error: CommandBufferError?
    /// The app's label.
    var label: String?

    // Recording.
    /// Set by `commit()` before the gate decides: no encoder, handler or event may be added.
    private(set) var isCommitting = false
    /// Whether `vkBeginCommandBuffer` has been recorded.
    private(set) var isRecording = false
    /// The kind of the encoder open now.
    private(set) var openEncoder: EncoderKind?
    /// The recording context: set while the buffer holds a slot of its queue, from
    /// `makeCommandBuffer()` until the terminal step gives it back.
    private(set) var context: CommandRecorder?
    /// `context`, unretained, for a caller that uses it only while the record holds it.
    var unretainedContext: Unmanaged<CommandRecorder>? {
        guard let context else { return nil }
        return .passUnretained(context)
    }
    /// The command buffer's own debug groups (`pushDebugGroup(_:)`) still open.
    private(set) var debugGroupDepth = 0
    /// A failure while recording or ending the buffer: it ends in `.error` when its turn
    /// to be submitted comes, without a Vulkan submission.
    private(set) var recordingFailure: CommandBufferError?

    // Handlers.
    private(set) var scheduledHandlers: [CommandBufferHandler] = []
    private(set) var completedHandlers: [CommandBufferHandler] = []
    /// The scheduled handlers have run (the completion thread waits for it).
    private(set) var scheduledHandlersDone = false
    /// The completed handlers have run: what `waitUntilCompleted()` waits for.
    private(set) var handlersDone = false
    /// Threads in `waitUntilScheduled()` or `waitUntilCompleted()` on this buffer: a change
    /// they wait for is broadcast on the engine's buffer condition only when there are any.
    var waitingThreads = 0
    /// The thread running the completed handlers, while it does.
    private(set) var handlerThread: pthread_t?
    private(set) var continuations: [CheckedContinuation<Void, Never>] = []

    // Synchronisation and presentation.
    /// Events the buffer waits for.
    private(set) var eventWaits: [(event: SharedEvent, value: UInt64)] = []
    /// Events the buffer signals: told when it completes.
    private(set) var eventSignals: [(event: SharedEvent, value: UInt64)] = []
    /// The event value the buffer is held for, once the scheduler found it unreached.
    var heldForValue: UInt64?
    /// Every event wait was found reached (event values only grow, so they stay so).
    private(set) var hasReachedWaits = false
    /// Swapchain images this buffer presents: moved to the present layout at its end,
    /// their present semaphores signalled by its submission.
    private(set) var presentedImages: [(swapchain: SwapchainPresenter, index: Int)] = []
    /// Textures the buffer writes: each notes the buffer as its last writer from commit
    /// to completion.
    private(set) var writtenTextures: [Texture] = []

    // Times.
    /// The queue timeline value that marks the buffer's work done.
    private(set) var timelineValue: UInt64 = 0
    private(set) var kernelStart: Double = 0
    private(set) var kernelEnd: Double = 0
    private(set) var gpuStart: Double = 0
    private(set) var gpuEnd: Double = 0

    /// A new record holding a slot with `context`.
    init(context: CommandRecorder) {
        self.context = context
    }

    /// Gives a cleared record (a recycled object's) a slot with `context`.
    mutating func restart(context: consuming CommandRecorder) {
        precondition(self.context == nil && status == .notEnqueued, "SwiftGPU internal error: restarting a \(status) record")
        self.context = context
    }

    /// Clears what a finished record holds, so its object can wait among its queue's
    /// spares; keeps the written-texture list's capacity.
    ///
    /// Every stored property is set back to its initial value here, one by one: assigning
    /// a new record released each list and string the old one held, empty or not (a dozen
    /// runtime calls for every recycled buffer). A property added to the record must be
    /// added here; `RecyclingTests` check that a recycled buffer starts as a new one.
    mutating func clear() {
        status = .notEnqueued
        if error != nil { error = nil }
        if label != nil { label = nil }
        isCommitting = false
        isRecording = false
        if openEncoder != nil { openEncoder = nil }
        context = nil
        debugGroupDepth = 0
        if recordingFailure != nil { recordingFailure = nil }
        if !scheduledHandlers.isEmpty { scheduledHandlers = [] }
        if !completedHandlers.isEmpty { completedHandlers = [] }
        scheduledHandlersDone = false
        handlersDone = false
        waitingThreads = 0
        handlerThread = nil
        if !continuations.isEmpty { continuations = [] }
        if !eventWaits.isEmpty { eventWaits = [] }
        if !eventSignals.isEmpty { eventSignals = [] }
        heldForValue = nil
        hasReachedWaits = false
        if !presentedImages.isEmpty { presentedImages = [] }
        writtenTextures.removeAllKeepingCapacity()
        timelineValue = 0
        kernelStart = 0
        kernelEnd = 0
        gpuStart = 0
        gpuEnd = 0
    }

    /// Whether recording calls are still allowed (before `commit()`).
    var isOpenForRecording: Bool { !isCommitting && status < .committed }

    // MARK: Recording

    /// `enqueue()`: reserves the buffer's place in the queue's order.
    mutating func enqueue() {
        guard status == .notEnqueued, !isCommitting else {
            misuse("enqueue() called on a command buffer that is already \(status)")
        }
        status = .enqueued
    }

    /// Opens an encoder of `kind`; returns the context to record into, unretained (the
    /// record holds it until the buffer ends, which cannot happen while an encoder is open),
    /// and whether recording must begin (the encoder is the buffer's first).
    mutating func openEncoder(_ kind: EncoderKind, call: String) -> (context: Unmanaged<CommandRecorder>, needsBegin: Bool) {
        if !isOpenForRecording { misuse("\(call) called after commit()") }
        if let open = openEncoder {
            misuse("\(call) called while a \(open.rawValue) command encoder is still open; call endEncoding() on it first")
        }
        guard let context else { misuse("\(call) called on a command buffer with no recording context") }
        openEncoder = kind
        let needsBegin = !isRecording
        isRecording = true
        return (.passUnretained(context), needsBegin)
    }

    /// A command recorded into the buffer itself, between encoders (a debug group):
    /// returns the context and whether recording must begin. Stops after `commit()` or
    /// while an encoder is open.
    mutating func recordBetweenEncoders(call: String) -> (context: CommandRecorder, needsBegin: Bool) {
        if !isOpenForRecording { misuse("\(call) called after commit()") }
        if let open = openEncoder { misuse("\(call) called while a \(open.rawValue) command encoder is open") }
        guard let context else { misuse("\(call) called on a command buffer with no recording context") }
        let needsBegin = !isRecording
        isRecording = true
        return (context, needsBegin)
    }

    /// Counts a debug group pushed (+1) or popped (-1); a pop with none open stops.
    mutating func changeDebugGroups(by change: Int, call: String) {
        guard debugGroupDepth + change >= 0 else { misuse("\(call) called with no debug group pushed") }
        debugGroupDepth += change
    }

    /// Undoes `openEncoder` after recording failed to begin.
    mutating func abandonEncoder() {
        openEncoder = nil
        isRecording = false
    }

    /// Marks the open encoder ended.
    mutating func closeEncoder() { openEncoder = nil }

    /// Adds a scheduled or completed handler; stops after `commit()`.
    mutating func addHandler(_ handler: @escaping CommandBufferHandler, scheduled: Bool, call: String) {
        guard isOpenForRecording else { misuse("\(call) called after commit()") }
        if scheduled { scheduledHandlers.append(handler) } else { completedHandlers.append(handler) }
    }

    /// Adds an event wait or signal; stops after `commit()` or with an encoder open.
    mutating func addEventOperation(_ event: SharedEvent, value: UInt64, isWait: Bool, call: String) {
        if !isOpenForRecording { misuse("\(call) called after commit()") }
        if let open = openEncoder { misuse("\(call) called while a \(open.rawValue) command encoder is open") }
        guard let context else { misuse("\(call) called on a command buffer with no recording context") }
        context.encoding.retained.append(event)
        let operation = TimelineOperation(timeline: event.timeline, value: value)
        if isWait {
            context.addWait(operation)
            eventWaits.append((event, value))
        } else {
            context.addSignal(operation)
            eventSignals.append((event, value))
        }
    }

    /// Notes a swapchain image the buffer presents; stops after `commit()`.
    mutating func addPresentedImage(_ swapchain: SwapchainPresenter, index: Int, call: String) {
        guard isOpenForRecording else { misuse("\(call) called after commit()") }
        presentedImages.append((swapchain, index))
    }

    /// A resource failure while encoding (the upload ring could not grow, say): the buffer
    /// ends in `.error` with the first such failure when its turn comes.
    mutating func failRecording(_ error: CommandBufferError) {
        if recordingFailure == nil { recordingFailure = error }
    }

    /// Notes a texture the recorded commands write.
    mutating func noteWrite(to texture: Texture) -> Bool {
        guard !writtenTextures.contains(where: { $0 === texture }) else { return false }
        writtenTextures.append(texture)
        return true
    }

    // MARK: Commit and scheduling

    /// The first step of `commit()`: stops on a second commit or an open encoder; from
    /// here on nothing more may be recorded.
    mutating func beginCommit() {
        if isCommitting || status >= .committed {
            misuse("commit() called on a command buffer that was already committed")
        }
        if let open = openEncoder {
            misuse("commit() called while a \(open.rawValue) command encoder is still open; call endEncoding() first")
        }
        guard debugGroupDepth == 0 else {
            misuse("commit() called with \(debugGroupDepth) debug group\(debugGroupDepth == 1 ? "" : "s") still pushed; "
                + "call popDebugGroup() first")
        }
        isCommitting = true
    }

    /// The buffer is committed: it waits for its turn in the queue's order. Returns
    /// whether it still needs a place in that order (it was never enqueued).
    mutating func commit(recordingFailure: CommandBufferError?) -> Bool {
        precondition(isCommitting && status < .committed, "SwiftGPU internal error: commit from \(status)")
        let needsPlace = status == .notEnqueued
        status = .committed
        self.recordingFailure = self.recordingFailure ?? recordingFailure
        return needsPlace
    }

    /// The scheduler found every event wait reached.
    mutating func waitsReached() { hasReachedWaits = true }

    /// The scheduler takes the buffer for submission at timeline `value`: returns its
    /// context. Only a committed buffer that still holds its slot can be taken.
    mutating func take(forSubmissionAt value: UInt64) -> Unmanaged<CommandRecorder> {
        guard status == .committed, let context else {
            preconditionFailure("SwiftGPU internal error: a \(status) command buffer taken for submission")
        }
        timelineValue = value
        return .passUnretained(context)
    }

    /// `vkQueueSubmit2` accepted the buffer at host time `start`; returns the scheduled
    /// handlers to run, or nil when there are none (and the buffer is done with them).
    mutating func scheduled(at start: Double) -> [CommandBufferHandler]? {
        precondition(status == .committed, "SwiftGPU internal error: scheduled from \(status)")
        status = .scheduled
        kernelStart = start
        if scheduledHandlers.isEmpty {
            scheduledHandlersDone = true
            return nil
        }
        return scheduledHandlers
    }

    /// The scheduled handlers have run.
    mutating func scheduledHandlersRan() { scheduledHandlersDone = true }

    // MARK: The end

    /// What ending a record leaves its engine to do.
    enum Ending {
        /// The buffer had already ended (failed by a lost device, then completed by the
        /// timeline): its handlers ran, or run, once.
        case alreadyEnded
        /// The buffer ended with no handler to run.
        case noHandlers
        /// The buffer ended; these handlers run now, scheduled ones first.
        case handlers(scheduled: [CommandBufferHandler], completed: [CommandBufferHandler])
    }

    /// Ends the buffer: `.completed` without `error`, `.error` with it. Returns the handlers
    /// to run, the scheduled ones too when `withScheduledHandlers` (a buffer that never
    /// reached the GPU); none when the buffer had already ended: handlers run once.
    mutating func end(error: CommandBufferError?, withScheduledHandlers: Bool, on thread: pthread_t) -> Ending {
        guard !status.isTerminal else { return .alreadyEnded }
        status = error == nil ? .completed : .error
        self.error = error
        handlerThread = thread
        let runsScheduled = withScheduledHandlers && !scheduledHandlers.isEmpty
        guard runsScheduled || !completedHandlers.isEmpty else { return .noHandlers }
        return .handlers(scheduled: runsScheduled ? scheduledHandlers : [], completed: completedHandlers)
    }

    /// What the engine finishes outside its lock once a buffer's handlers have run.
    struct Finished {
        /// The continuations to resume.
        var continuations: [CheckedContinuation<Void, Never>] = []
        /// The textures whose writer note ends here.
        var written: [Texture] = []
        /// The handlers, released by the caller after the lock: a handler may hold the last
        /// reference to an object whose deinit takes a lock above the engine's (a drawable's
        /// layer).
        var handlers: ([CommandBufferHandler], [CommandBufferHandler]) = ([], [])
    }

    /// The completed handlers have run: returns what the engine finishes outside its lock,
    /// or nil when there is nothing (no handler, continuation or written texture: most
    /// buffers), so that the common end builds and releases no empty lists.
    mutating func handlersRan() -> Finished? {
        handlersDone = true
        handlerThread = nil
        if scheduledHandlers.isEmpty && completedHandlers.isEmpty && continuations.isEmpty && writtenTextures.isEmpty {
            return nil
        }
        var finished = Finished()
        // Taken only when they hold something: most buffers have no handlers, and
        // emptying an empty array still releases its storage and makes a new one.
        if !scheduledHandlers.isEmpty { swap(&finished.handlers.0, &scheduledHandlers) }
        if !completedHandlers.isEmpty { swap(&finished.handlers.1, &completedHandlers) }
        if continuations.isEmpty && writtenTextures.isEmpty { return finished }
        finished.continuations = continuations
        finished.written = writtenTextures
        continuations.removeAll()
        writtenTextures.removeAllKeepingCapacity()
        return finished
    }

    /// Registers a continuation to resume once the handlers have run; false when they
    /// already have.
    mutating func awaitHandlers(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard !handlersDone else { return false }
        continuations.append(continuation)
        return true
    }

    /// Records the completion times (GPU ones where the device records timestamps, the
    /// kernel's otherwise).
    mutating func noteCompletion(at end: Double, gpuTimes: (start: Double, end: Double)?) {
        kernelEnd = end
        if let gpuTimes {
            (gpuStart, gpuEnd) = gpuTimes
        } else {
            (gpuStart, gpuEnd) = (kernelStart, end)
        }
    }

    /// Gives up the slot's context and what only the GPU work needed: a finished buffer
    /// the app keeps holds none of it. Returns the context, to be released.
    mutating func releaseResources() -> CommandRecorder? {
        if !eventWaits.isEmpty { eventWaits.removeAll() }
        if !eventSignals.isEmpty { eventSignals.removeAll() }
        if !presentedImages.isEmpty { presentedImages.removeAll() }
        return context.take()
    }
}
