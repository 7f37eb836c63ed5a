import SwiftGPUSupport
import Synchronization

/// What makes a `VirtualDisplay` made with `realTime:` advance by itself: one wakeup on a
/// `MonotonicClock` at the display's next event, and a flag that keeps advances from two
/// threads (the clock's and a presenting one) from interleaving. A thread that finds an
/// advance in progress skips its own (display time is then at most that advance old):
/// so a display link's callback or an image's handler may present or read the time
/// without deadlocking.
final class RealTimeDriver: Sendable {
    let clock: MonotonicClock
    private let start: Duration
    private let wakeup = LockedValue<ClockTimer?>(nil, rank: .leaf("RealTimeDriver.wakeup"))
    private let advancing = Atomic(false)

    init(clock: MonotonicClock) {
        self.clock = clock
        start = clock.now
    }

    /// Display time now: the time since the display was made.
    var displayTime: Duration { clock.now - start }

    /// Runs `body` unless another advance is in progress.
    func serialized(_ body: () -> Void) {
        guard advancing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { advancing.store(false, ordering: .releasing) }
        body()
    }

    /// Replaces the pending wakeup with one at display time `time` (none when nil).
    func arm(at time: Duration?, _ action: @escaping @Sendable () -> Void) {
        let timer = time.map { clock.schedule(at: start + $0, leeway: .zero) { _ in action() } }
        // The replaced timer is cancelled after the lock is let go: no lock is held while
        // calling out to the clock.
        let replaced = wakeup.withLock { pending -> ClockTimer? in
            defer { pending = timer }
            return pending
        }
        replaced?.cancel()
    }
}
