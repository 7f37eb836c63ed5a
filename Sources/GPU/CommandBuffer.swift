import Foundation
import Glibc

/// A handler run when a command buffer is scheduled or completes.
public typealias CommandBufferHandler = @Sendable (CommandBuffer) -> Void

/// A buffer of GPU commands, Metal's `MTLCommandBuffer`.
///
/// Life: `.notEnqueued` → `.enqueued` → `.committed` → `.scheduled` → `.completed` or
/// `.error`. Every buffer reaches exactly one of the last two, and each handler runs
/// exactly once, in the order added, for errors too.
///
/// The object is recycled once the buffer finishes if nothing outside SwiftGPU can reach it
/// (no strong, weak or unowned reference: see `SoleReference`), so a steady loop of
/// command buffers allocates none; no program can tell a recycled object from a new one.
///
/// `@unchecked Sendable`: all mutable state is guarded by the queue engine's lock; the
/// recording context is used by the one encoder open at a time (checked under that lock).
/// `queue`, `descriptor` and `madeWhileNotActive` are set before the object is handed out
/// (new, or taken from the queue's spares under its lock) and not changed while any
/// program can reach it.
public final class CommandBuffer: @unchecked Sendable {
    /// The queue the buffer belongs to.
    public var commandQueue: CommandQueue { queue.unsafelyUnwrapped }
    /// The options it was made with.
    public private(set) var descriptor: CommandBufferDescriptor
    let engine: QueueEngine
    /// The queue; nil only while the object waits among its queue's spares (which must not
    /// keep the queue alive).
    private var queue: CommandQueue?
    /// Whether the buffer was made while the app was not active (the gate refuses such
    /// buffers while inactive).
    private(set) var madeWhileNotActive: Bool

    // Guarded by engine.lock.
    var state = State()
    /// The last compute encoder ended in this buffer, reused by the next one made in this
    /// object (in this buffer, or after recycling in a later one) when nothing else holds it.
    var spareComputeEncoder: ComputeCommandEncoder?

    struct State {
        var status = CommandBufferStatus.notEnqueued
        var error: CommandBufferError?
        var label: String?
        var isCommitting = false
        var isRecording = false
        var openEncoder: String?
        var context: VulkanCommandContext?
        var recordingFailure: CommandBufferError?
        var scheduledHandlers: [CommandBufferHandler] = []
        var completedHandlers: [CommandBufferHandler] = []
        var scheduledHandlersDone = false
        var handlersDone = false
        var handlerThread: pthread_t?
        var continuations: [CheckedContinuation<Void, Never>] = []
        /// Events the buffer waits for, and the value it waits on while held.
        var eventWaits: [(event: SharedEvent, value: UInt64)] = []
        /// Events this buffer signals: told when it completes.
        var eventSignals: [SharedEvent] = []
        var heldForValue: UInt64?
        /// Swapchain images this buffer presents: moved to the present layout at its end,
        /// their present semaphores signalled by its submission.
        var presentedImages: [(swapchain: VulkanSwapchain, index: Int)] = []
        /// Textures the buffer writes: each notes the buffer as its last writer from commit
        /// to completion.
        var writtenTextures: [Texture] = []
        var timelineValue: UInt64 = 0
        var kernelStart: Double = 0
        var kernelEnd: Double = 0
        var gpuStart: Double = 0
        var gpuEnd: Double = 0
    }

    init(queue: CommandQueue, context: VulkanCommandContext, descriptor: CommandBufferDescriptor) {
        self.queue = queue
        engine = queue.engine
        self.descriptor = descriptor
        madeWhileNotActive = queue.device.gate.isClosedToNewBuffers
        state.context = context
    }

    /// Makes a spare object (see `clearForReuse()`) a new command buffer of `queue`.
    func reuse(queue: CommandQueue, context: VulkanCommandContext, descriptor: CommandBufferDescriptor) {
        self.queue = queue
        self.descriptor = descriptor
        madeWhileNotActive = queue.device.gate.isClosedToNewBuffers
        state.context = context
    }

    /// Drops everything the finished buffer holds, its queue included, so the object can
    /// wait among the queue's spares. Called only where nothing else can reach it.
    func clearForReuse() {
        queue = nil
        var written = state.writtenTextures
        state = State()
        written.removeAll(keepingCapacity: true)
        state.writtenTextures = written
    }

    /// Notes that the recorded commands write `texture` (see `State.writtenTextures`).
    func noteWrite(to texture: Texture) {
        engine.lock.withLock {
            if !state.writtenTextures.contains(where: { $0 === texture }) { state.writtenTextures.append(texture) }
        }
    }

    deinit {
        // A buffer dropped before commit gives its slot and context back.
        if state.status == .notEnqueued, let context = state.context {
            engine.release(context)
        }
    }

    /// The device.
    public var device: Device { commandQueue.device }

    /// The current status.
    public var status: CommandBufferStatus { engine.lock.withLock { state.status } }

    /// Why the buffer failed, when `status == .error`.
    public var error: CommandBufferError? { engine.lock.withLock { state.error } }

    /// A label for debugging.
    public var label: String? {
        get { engine.lock.withLock { state.label } }
        set { engine.lock.withLock { state.label = newValue } }
    }

    /// When the GPU started the work, in host monotonic seconds; 0 until completed (and
    /// equal to `kernelStartTime` where the device records no timestamps: see
    /// `Device.recordsGPUTimestamps`).
    public var gpuStartTime: Double { engine.lock.withLock { state.gpuStart } }
    /// When the GPU finished the work, in host monotonic seconds; 0 until completed (and
    /// equal to `kernelEndTime` where the device records no timestamps).
    public var gpuEndTime: Double { engine.lock.withLock { state.gpuEnd } }
    /// When SwiftGPU handed the buffer to Vulkan (`vkQueueSubmit2`), in host monotonic
    /// seconds; 0 until scheduled.
    public var kernelStartTime: Double { engine.lock.withLock { state.kernelStart } }
    /// When the queue's completion thread saw the work finish, in host monotonic seconds;
    /// 0 until completed.
    public var kernelEndTime: Double { engine.lock.withLock { state.kernelEnd } }

    /// Reserves the buffer's place in the queue's order without committing it. Buffers
    /// committed after it wait (`.committed`) until it is committed and scheduled.
    public func enqueue() {
        engine.lock.withLock {
            guard state.status == .notEnqueued, !state.isCommitting else {
                misuse("enqueue() called on a command buffer that is already \(state.status)")
            }
            state.status = .enqueued
            engine.pending.append(self)
        }
    }

    /// Commits the buffer for execution (enqueuing it first if needed). It is scheduled
    /// once every buffer enqueued before it has been.
    public func commit() {
        let (context, isRecording, presented, written) = engine.lock.withLock {
            () -> (VulkanCommandContext?, Bool, [(swapchain: VulkanSwapchain, index: Int)], [Texture]) in
            if state.isCommitting || state.status >= .committed {
                misuse("commit() called on a command buffer that was already committed")
            }
            if let open = state.openEncoder {
                misuse("commit() called while a \(open) command encoder is still open; call endEncoding() first")
            }
            state.isCommitting = true
            return (state.context, state.isRecording, state.presentedImages, state.writtenTextures)
        }
        // The lifecycle gate decides before any Vulkan call is made for the buffer.
        if let refusal = device.gate.admit(self) {
            engine.refuse(self, error: refusal)
            return
        }
        // Before the buffer can finish: its completion forgets these notes.
        for texture in written { texture.noteCommittedWriter(self) }
        var failure: CommandBufferError?
        if let context {
            do {
                if !isRecording { try context.begin() }
                for (swapchain, index) in presented { context.preparePresent(swapchain, index: index) }
                context.restoreRestingLayouts()
                context.endOfBufferBarrier()
                try context.end()
            } catch {
                failure = CommandBufferError(error)
            }
        }
        engine.lock.withLock {
            if state.status == .notEnqueued { engine.pending.append(self) }
            state.status = .committed
            state.recordingFailure = failure
            engine.awaitingSchedule += 1
        }
        device.gate.admitted()
        engine.schedule()
    }

    /// Adds a handler run when the buffer is scheduled (or, if it fails first, just
    /// before its completed handlers). Stops if called after `commit()`.
    public func addScheduledHandler(_ handler: @escaping CommandBufferHandler) {
        engine.lock.withLock {
            guard !state.isCommitting, state.status < .committed else {
                misuse("addScheduledHandler(_:) called after commit()")
            }
            state.scheduledHandlers.append(handler)
        }
    }

    /// Adds a handler run on the queue's completion thread when the buffer completes or
    /// fails. Stops if called after `commit()`.
    public func addCompletedHandler(_ handler: @escaping CommandBufferHandler) {
        engine.lock.withLock {
            guard !state.isCommitting, state.status < .committed else {
                misuse("addCompletedHandler(_:) called after commit()")
            }
            state.completedHandlers.append(handler)
        }
    }

    /// Blocks the calling thread until the buffer is scheduled, completed or failed.
    public func waitUntilScheduled() {
        engine.lock.withLock {
            guard state.isCommitting || state.status >= .committed else {
                misuse("waitUntilScheduled() called before commit()")
            }
            engine.lock.wait { state.status >= .scheduled }
        }
    }

    /// Blocks the calling thread until the buffer completed or failed and its completed
    /// handlers have run. Never call it from a Swift concurrency task: use `completed()`.
    public func waitUntilCompleted() {
        engine.lock.withLock {
            guard state.isCommitting || state.status >= .committed else {
                misuse("waitUntilCompleted() called before commit()")
            }
            if let thread = state.handlerThread, pthread_equal(thread, pthread_self()) != 0 { return }
            engine.lock.wait { state.handlersDone }
        }
    }

    /// Waits, without blocking a thread, until the buffer completed or failed and its
    /// completed handlers have run.
    public func completed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = engine.lock.withLock { () -> Bool in
                guard state.isCommitting || state.status >= .committed else {
                    misuse("completed() awaited before commit()")
                }
                if state.handlersDone { return true }
                state.continuations.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Starts recording (on first use) and marks an encoder of `kind` open; returns the
    /// context to record into, and whether this encoder is the buffer's first (nothing
    /// earlier in the buffer to wait for: earlier buffers end with a barrier).
    func beginEncoder(_ kind: String, call: String) throws(GPUError) -> (context: VulkanCommandContext, startsBuffer: Bool) {
        let (context, needsBegin) = engine.lock.withLock { () -> (VulkanCommandContext?, Bool) in
            if state.isCommitting || state.status >= .committed {
                misuse("\(call) called after commit()")
            }
            if let open = state.openEncoder {
                misuse("\(call) called while a \(open) command encoder is still open; call endEncoding() on it first")
            }
            state.openEncoder = kind
            let needsBegin = !state.isRecording
            state.isRecording = true
            return (state.context, needsBegin)
        }
        guard let context else { misuse("\(call) called on a command buffer with no recording context") }
        if needsBegin {
            do {
                try context.begin()
            } catch {
                engine.lock.withLock { state.openEncoder = nil; state.isRecording = false }
                throw .vulkan(error)
            }
        }
        return (context, needsBegin)
    }

    /// Marks the open encoder ended; an ended compute encoder is kept for reuse.
    func endEncoder(keeping spare: ComputeCommandEncoder? = nil) {
        engine.lock.withLock {
            state.openEncoder = nil
            if let spare { spareComputeEncoder = spare }
        }
    }

    /// Takes the kept compute encoder.
    func takeSpareComputeEncoder() -> ComputeCommandEncoder? {
        engine.lock.withLock { spareComputeEncoder.take() }
    }
}
