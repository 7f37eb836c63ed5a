/// A queue's command-buffer slots: at most `limit` buffers alive and not finished at
/// once, and the recording contexts of finished ones, kept for the next buffers.
///
/// Guarded by the queue engine's lock; `makeCommandBuffer()` waits on that lock's
/// condition while every slot is taken.
struct CommandSlots {
    /// The queue's `maxCommandBufferCount`.
    let limit: Int
    /// Slots taken: buffers made and not yet finished or dropped.
    private(set) var live = 0
    /// Threads blocked in `makeCommandBuffer()` because every slot is taken.
    private(set) var blockedMakers = 0
    private var freeContexts: [CommandRecorder] = []

    init(limit: Int) {
        self.limit = limit
        freeContexts.reserveCapacity(Swift.min(limit, 64))
    }

    /// Whether every slot is taken.
    var isFull: Bool { live >= limit }

    /// Takes a slot; returns a pooled context if there is one (to be reset by the caller,
    /// outside the lock).
    mutating func take() -> CommandRecorder? {
        precondition(!isFull, "SwiftGPU internal error: slot taken while the queue is full")
        live += 1
        return freeContexts.popLast()
    }

    /// Gives a slot back, with its context for reuse when there is one (moved in: the
    /// caller's reference becomes the pool's).
    mutating func giveBack(_ context: consuming CommandRecorder?) {
        precondition(live > 0, "SwiftGPU internal error: slot given back twice")
        live -= 1
        if let context = context.take() { freeContexts.append(context) }
    }

    /// A maker starts or stops waiting for a slot.
    mutating func makerBlocked(_ blocked: Bool) { blockedMakers += blocked ? 1 : -1 }
}
