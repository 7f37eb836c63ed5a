import Glibc
import SwiftGPUSupport

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
/// `queue`, `options` and `madeWhileNotActive` are set before the object is handed out
/// (new, or taken from the queue's spares under its lock) and not changed while any
/// program can reach it.
public final class CommandBuffer: @unchecked Sendable {
    /// The queue the buffer belongs to.
    public var commandQueue: CommandQueue { queue.unsafelyUnwrapped }
    /// The options it was made with (a new descriptor holding them).
    public var descriptor: CommandBufferDescriptor {
        CommandBufferDescriptor(criticalForDeactivation: options.criticalForDeactivation,
                                validatesIndirectArguments: options.validatesIndirectArguments)
    }
    /// The options it was made with.
    private(set) var options: CommandBufferOptions
    let engine: QueueEngine
    /// The queue; nil only while the object waits among its queue's spares (which must not
    /// keep the queue alive).
    private var queue: CommandQueue?
    /// Whether the buffer was made while the app was not active (the gate refuses such
    /// buffers while inactive).
    private(set) var madeWhileNotActive: Bool

    /// The engine's record of this buffer: read and changed only by the engine, under its
    /// lock (which makes every access exclusive, so Swift's run-time check is skipped).
    @exclusivity(unchecked) var record: Submission
    /// The last compute encoder ended in this buffer, reused by the next one made in this
    /// object (in this buffer, or after recycling in a later one) when nothing else holds
    /// it. Guarded by the engine's lock.
    var spareComputeEncoder: ComputeCommandEncoder?

    init(queue: CommandQueue, context: CommandRecorder, options: CommandBufferOptions) {
        self.queue = queue
        engine = queue.engine
        self.options = options
        madeWhileNotActive = queue.engine.gate.isClosedToNewBuffers
        record = Submission(context: context)
    }

    /// Runs `body` under the engine's lock, the one that guards `record`. The lock is read in
    /// place: the buffer holds its engine, and the engine its lock, for the buffer's whole
    /// life, so a critical section costs no retain and release of the lock.
    @inline(__always)
    func withEngineLock<T>(_ body: () -> T) -> T {
        Unmanaged.passUnretained(engine.lock)._withUnsafeGuaranteedRef { $0.withLock(body) }
    }

    /// Makes a spare object (see `clearForReuse()`) a new command buffer of `queue`.
    func reuse(queue: CommandQueue, context: consuming CommandRecorder, options: CommandBufferOptions) {
        self.queue = queue
        self.options = options
        // The gate lives as long as the engine, which this buffer holds: read without the
        // retain and release the call would otherwise cost (the gate has a side table, so
        // each takes the runtime's slow path).
        madeWhileNotActive = Unmanaged.passUnretained(engine.gate)._withUnsafeGuaranteedRef { $0.isClosedToNewBuffers }
        record.restart(context: context)
    }

    /// Drops everything the finished buffer holds, its queue included, so the object can
    /// wait among the queue's spares. Called only where nothing else can reach it.
    func clearForReuse() {
        // The app's last reads of the record (`status`, under the engine lock) come before it
        // let the object go, which the reference count's acquiring load orders. Debug builds,
        // which the sanitizer runs are (scripts/sanitize.sh), also pass through the lock,
        // which orders them in a way ThreadSanitizer sees (the Swift runtime's counts are not
        // instrumented); a release build takes no lock for an order it already has. Cleared
        // after it: what the record holds may take other locks as it goes.
        #if DEBUG
        withEngineLock {}
        #endif
        queue = nil
        record.clear()
    }

    /// Notes that the recorded commands write `texture` (see `Submission.writtenTextures`);
    /// for a view, its parent, whose image it writes.
    func noteWrite(to texture: Texture) {
        let texture = texture.imageTexture
        if withEngineLock({ record.noteWrite(to: texture) }) { texture.noteRenderer() }
    }

    /// Records a resource failure met while encoding: the buffer ends in `.error` with it
    /// when committed, as Metal reports such failures on the command buffer.
    func recordFailure(_ error: CommandBufferError) {
        withEngineLock { record.failRecording(error) }
    }

    deinit {
        // A buffer dropped before commit gives its slot and context back, and no longer
        // holds up a present asked for while it rendered.
        if record.status == .notEnqueued {
            for texture in record.writtenTextures { texture.rendererLeft()?.presentByItself() }
            if let context = record.context { engine.releaseSlot(context) }
        }
    }

    /// The device.
    public var device: Device { commandQueue.device }

    /// The current status.
    public var status: CommandBufferStatus { withEngineLock { record.status } }

    /// Why the buffer failed, when `status == .error`.
    public var error: CommandBufferError? { withEngineLock { record.error } }

    /// A label for debugging.
    public var label: String? {
        get { withEngineLock { record.label } }
        set { withEngineLock { record.label = newValue } }
    }

    /// When the GPU started the work, in host monotonic seconds; 0 until completed (and
    /// equal to `kernelStartTime` where the device records no timestamps: see
    /// `Device.recordsGPUTimestamps`).
    public var gpuStartTime: Double { withEngineLock { record.gpuStart } }
    /// When the GPU finished the work, in host monotonic seconds; 0 until completed (and
    /// equal to `kernelEndTime` where the device records no timestamps).
    public var gpuEndTime: Double { withEngineLock { record.gpuEnd } }
    /// When SwiftGPU handed the buffer to Vulkan (`vkQueueSubmit2`), in host monotonic
    /// seconds; 0 until scheduled.
    public var kernelStartTime: Double { withEngineLock { record.kernelStart } }
    /// When the queue's completion thread saw the work finish, in host monotonic seconds;
    /// 0 until completed.
    public var kernelEndTime: Double { withEngineLock { record.kernelEnd } }

    /// Reserves the buffer's place in the queue's order without committing it. Buffers
    /// committed after it wait (`.committed`) until it is committed and scheduled.
    public func enqueue() { engine.enqueue(self) }

    /// Commits the buffer for execution (enqueuing it first if needed). It is scheduled
    /// once every buffer enqueued before it has been.
    public func commit() {
        // Most buffers write no texture: they are committed here, with the queue's lock taken
        // once for the check and the commit's first step. The others come back with the
        // textures they write.
        guard let written = engine.commit(self, unlessWritingTextures: true) else { return }
        // A drawable presented by itself while this buffer rendered into it is presented by
        // this buffer, when it is the last that renders into it: after the rendering, as
        // Metal presents a drawable only once the work that renders it is scheduled.
        for texture in written {
            if let deferred = texture.takeDeferredPresent() { presentDeferred(deferred) }
        }
        engine.commit(self)
        for texture in written { texture.rendererLeft()?.presentByItself() }
    }

    /// Adds a handler run when the buffer is scheduled (or, if it fails first, just
    /// before its completed handlers). Stops if called after `commit()`.
    public func addScheduledHandler(_ handler: @escaping CommandBufferHandler) {
        withEngineLock { record.addHandler(handler, scheduled: true, call: #function) }
    }

    /// Adds a handler run on the queue's completion thread when the buffer completes or
    /// fails. Stops if called after `commit()`.
    public func addCompletedHandler(_ handler: @escaping CommandBufferHandler) {
        withEngineLock { record.addHandler(handler, scheduled: false, call: #function) }
    }

    /// Blocks the calling thread until the buffer is scheduled, completed or failed.
    public func waitUntilScheduled() { engine.waitUntilScheduled(self) }

    /// Blocks the calling thread until the buffer completed or failed and its completed
    /// handlers have run. Never call it from a Swift concurrency task: use `completed()`.
    public func waitUntilCompleted() { engine.waitUntilCompleted(self) }

    /// Waits, without blocking a thread, until the buffer completed or failed and its
    /// completed handlers have run.
    public func completed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            engine.whenCompleted(self, continuation)
        }
    }

    /// Opens a debug group named `string` between encoders (a `VK_EXT_debug_utils` label
    /// region around the encoders that follow). Stops after `commit()` or with an encoder
    /// open; every group must be popped before `commit()`.
    public func pushDebugGroup(_ string: String) {
        recordDebugLabel(.begin, string, change: 1, call: #function)
    }

    /// Closes the innermost debug group; stops when none is open.
    public func popDebugGroup() {
        recordDebugLabel(.end, "", change: -1, call: #function)
    }

    /// Records a debug label into the buffer itself, beginning its recording if needed.
    private func recordDebugLabel(_ kind: CommandRecorder.DebugLabel, _ name: String, change: Int, call: String) {
        let (context, needsBegin) = withEngineLock { () -> (CommandRecorder, Bool) in
            record.changeDebugGroups(by: change, call: call)
            return record.recordBetweenEncoders(call: call)
        }
        if needsBegin {
            do {
                try context.begin()
            } catch {
                recordFailure(CommandBufferError(error))
                return
            }
        }
        context.debugLabel(kind, name)
    }

    /// Starts recording (on first use) and marks an encoder of `kind` open; returns the
    /// context to record into, and whether this encoder is the buffer's first (nothing
    /// earlier in the buffer to wait for: earlier buffers end with a barrier).
    func beginEncoder(_ kind: EncoderKind, call: String) throws(GPUError) -> (context: CommandRecorder, startsBuffer: Bool) {
        let begun = try beginEncoder(kind, call: call, takingSpare: false)
        return (begun.context.takeUnretainedValue(), begun.startsBuffer)
    }

    /// `beginEncoder`, taking the kept compute encoder (if any) in the same critical
    /// section: a compute pass takes the queue's lock once to begin. The context comes
    /// unretained: the buffer's record holds it until the buffer ends, which cannot happen
    /// while the encoder is open.
    func beginComputeEncoder(call: String) throws(GPUError)
        -> (context: Unmanaged<CommandRecorder>, spare: ComputeCommandEncoder?) {
        let begun = try beginEncoder(.compute, call: call, takingSpare: true)
        return (begun.context, begun.spare)
    }

    private func beginEncoder(_ kind: EncoderKind, call: String, takingSpare: Bool) throws(GPUError)
        -> (context: Unmanaged<CommandRecorder>, startsBuffer: Bool, spare: ComputeCommandEncoder?) {
        let (context, needsBegin, taken) = withEngineLock {
            () -> (Unmanaged<CommandRecorder>, Bool, ComputeCommandEncoder?) in
            let (context, needsBegin) = record.openEncoder(kind, call: call)
            return (context, needsBegin, takingSpare ? spareComputeEncoder.take() : nil)
        }
        var spare = consume taken
        if needsBegin, let failure = context._withUnsafeGuaranteedRef({ $0.beginReportingFailure() }) {
            withEngineLock {
                record.abandonEncoder()
                if spare != nil { spareComputeEncoder = spare.take() }
            }
            throw .vulkan(failure)
        }
        return (context, needsBegin, spare)
    }

    /// Marks the open encoder ended; an ended compute encoder is kept for reuse.
    func endEncoder(keeping spare: consuming ComputeCommandEncoder? = nil) {
        withEngineLock {
            record.closeEncoder()
            // Moved in: the buffer takes the caller's reference.
            if spare != nil { spareComputeEncoder = spare.take() }
        }
    }
}
