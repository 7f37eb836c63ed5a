import FramePacing
import Foundation
import SwiftGPUSupport
import Testing

@Suite("Monotonic clock thread")
struct MonotonicClockThreadTests {
    @Test("the monotonic clock's timers run on a userInitiated thread (they run display-link callbacks: not real-time)")
    func clockThread() async {
        let expected = await withCheckedContinuation { (continuation: CheckedContinuation<ThreadScheduling.Applied, Never>) in
            Thread { continuation.resume(returning: ThreadScheduling.apply(.userInitiated)) }.start()
        }
        let clock = MonotonicClock()
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<ThreadScheduling.Applied, Never>) in
            _ = clock.schedule(at: clock.now, leeway: .zero) { _ in continuation.resume(returning: ThreadScheduling.current()) }
        }
        #expect(seen == expected)
    }
}
