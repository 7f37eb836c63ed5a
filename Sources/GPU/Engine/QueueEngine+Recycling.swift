import SwiftGPUSupport

extension QueueEngine {
    /// Keeps a finished buffer's object for `makeCommandBuffer()` when the completion
    /// thread's reference is the only one left (the app has dropped it, and holds no weak
    /// or unowned reference either); else keeps it as a candidate, to be looked at again.
    /// The buffer moves into the recycler: the completion thread keeps no reference.
    func recycle(_ buffer: consuming CommandBuffer) {
        var slot: CommandBuffer? = consume buffer
        guard SoleReference.isSole(&slot!) else {
            let (evicted, startTimer) = lock.withLock { () -> (CommandBuffer?, Bool) in
                defer { lock.broadcast() }
                return recycler.keepCandidate(&slot)
            }
            // Released outside the lock: the evicted candidate may hold the last reference
            // to a dropped queue.
            _ = consume evicted
            if startTimer { startGiveUpTimer() }
            return
        }
        keepSpare(&slot)
    }

    /// Clears `buffer`, which nothing else reaches, and keeps it for `makeCommandBuffer()`.
    /// Cleared outside `lock`: clearing drops the buffer's reference to its queue, which
    /// may be the last one, and a queue that goes shuts this engine down.
    private func keepSpare(_ buffer: inout CommandBuffer?) {
        buffer?.clearForReuse()
        lock.withLock {
            if recycler.keepSpare(&buffer) { lock.broadcast() }
        }
    }

    /// Starts the timer that gives the candidates up `Recycler.candidateGrace` from now,
    /// unless one was started meanwhile.
    private func startGiveUpTimer() {
        let clock = candidateClock
        let timer = clock.schedule(at: clock.now + Recycler.candidateGrace, leeway: Recycler.candidateGrace / 10) {
            [weak self] _ in self?.giveUpCandidates()
        }
        let superseded = lock.withLock { () -> Bool in
            guard recycler.giveUpTimer == nil, !recycler.isClosed else { return true }
            recycler.giveUpTimer = timer
            lock.broadcast()
            return false
        }
        if superseded { timer.cancel() }
    }

    /// `candidateGrace` after the first candidate came, on the give-up timer's thread:
    /// candidates the app has dropped become spares, the rest are given up (they are the
    /// app's). One at a time, each outside `lock`; not while the process exits (dropping a
    /// buffer may end its queue, which calls Vulkan).
    private func giveUpCandidates() {
        guard ServiceActivity.begin() else { return }
        defer { ServiceActivity.end() }
        lock.withLock { recycler.giveUpTimer = nil }
        while var buffer = lock.withLock({ recycler.popCandidate() }) {
            if SoleReference.isSole(&buffer) {
                var slot: CommandBuffer? = consume buffer
                keepSpare(&slot)
            }
        }
        lock.withLock {
            recycler.gaveUp()
            lock.broadcast()
        }
    }
}
