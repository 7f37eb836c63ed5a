import FramePacing

/// Finished command-buffer objects a queue keeps for `makeCommandBuffer()`, so a steady
/// loop of command buffers allocates none.
///
/// - *Spares*: finished objects nothing outside SwiftGPU can reach (`SoleReference`),
///   cleared, ready to be handed out again; at most the queue's slot count.
/// - *Candidates*: finished objects the app still held at completion (a loop that keeps
///   its last buffer, or a driver that completes work before `commit()` returns); looked
///   at again by `makeCommandBuffer()`, at most `candidateLimit`, the oldest given up
///   first, and all given up `candidateGrace` after the first came, so they never keep a
///   dropped queue alive.
///
/// Guarded by the queue engine's lock; every change is broadcast on it (tests wait for
/// them). Objects are cleared outside the lock (clearing drops the buffer's reference to
/// its queue, which may be the last).
struct Recycler {
    /// Cleared objects ready for reuse.
    private(set) var spares: [CommandBuffer] = []
    /// Finished objects the app still held when they completed.
    private(set) var candidates: [CommandBuffer] = []
    /// The timer that gives the candidates up; nil while there are none.
    var giveUpTimer: ClockTimer?
    /// How many times the candidates were given up.
    private(set) var giveUps = 0
    /// Set when the queue goes: nothing more is kept.
    private(set) var isClosed = false
    private let spareLimit: Int

    static let candidateLimit = 8
    static let candidateGrace = Duration.milliseconds(100)
    /// The clock of the queues' give-up timers (a test may give a queue a virtual one): its
    /// one thread sleeps while no queue has candidates. Not the completion thread, which
    /// must stay in its untimed wait: a wait that timed out during process exit would wake
    /// inside the driver as it is torn down.
    static let candidateClock = MonotonicClock()

    init(spareLimit: Int) {
        self.spareLimit = Swift.min(spareLimit, 64)
        spares.reserveCapacity(self.spareLimit)
        candidates.reserveCapacity(Self.candidateLimit)
    }

    /// A spare, or a candidate the app has dropped since it completed (to be cleared by
    /// the caller outside the lock), for a new command buffer.
    mutating func take() -> (buffer: CommandBuffer, needsClearing: Bool)? {
        if let spare = spares.popLast() { return (spare, false) }
        for index in candidates.indices where SoleReference.isSole(&candidates[index]) {
            return (candidates.remove(at: index), true)
        }
        return nil
    }

    /// Keeps a cleared object; false (the caller drops it) when closed or full.
    mutating func keepSpare(_ buffer: inout CommandBuffer?) -> Bool {
        guard !isClosed, spares.count < spareLimit, buffer != nil else { return false }
        // Moved in: the list takes the caller's reference.
        spares.append(buffer.take().unsafelyUnwrapped)
        return true
    }

    /// Keeps an object the app still holds; returns the oldest candidate when the list is
    /// full (released by the caller outside the lock) and whether a give-up timer must be
    /// started.
    mutating func keepCandidate(_ buffer: inout CommandBuffer?) -> (evicted: CommandBuffer?, startTimer: Bool) {
        guard !isClosed, let kept = buffer.take() else { return (nil, false) }
        let evicted = candidates.count == Self.candidateLimit ? candidates.removeFirst() : nil
        candidates.append(kept)
        return (evicted, giveUpTimer == nil)
    }

    /// The next candidate to look at when giving them up.
    mutating func popCandidate() -> CommandBuffer? { candidates.popLast() }

    /// The candidates were given up.
    mutating func gaveUp() { giveUps += 1 }

    /// The queue goes: drops the spares (each holds the engine) and stops keeping objects;
    /// returns the timer to cancel.
    mutating func close() -> ClockTimer? {
        isClosed = true
        spares.removeAll()
        defer { giveUpTimer = nil }
        return giveUpTimer
    }
}
