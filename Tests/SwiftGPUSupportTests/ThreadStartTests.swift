import Glibc
import Testing
import SwiftGPUSupport

@Suite struct ThreadStartTests {
    /// Notes when it is released.
    private final class Tracked: Sendable {
        let released: ConditionLockedFlag

        init(_ released: ConditionLockedFlag) { self.released = released }

        deinit { released.set() }
    }

    /// A flag a thread can wait on.
    final class ConditionLockedFlag: @unchecked Sendable {
        // `@unchecked Sendable`: `value` is guarded by `lock`.
        private let lock = ConditionLock(rank: .leaf("ThreadStartTests.lock"))
        private var value = false

        func set() {
            lock.withLock {
                value = true
                lock.broadcast()
            }
        }

        func wait() { lock.withLock { lock.wait { value } } }
    }

    @Test("runs its body on a thread of its own, then releases what the body captured")
    func runsOnAnotherThreadAndReleases() {
        let ran = ConditionLockedFlag()
        let released = ConditionLockedFlag()
        let caller = pthread_self()
        let thread = LockedValue<pthread_t?>(nil, rank: .leaf("ThreadStartTests.thread"))
        do {
            let tracked = Tracked(released)
            startThread {
                withExtendedLifetime(tracked) {
                    thread.withLock { $0 = pthread_self() }
                    ran.set()
                }
            }
        }
        ran.wait()
        released.wait()
        #expect(thread.withLock { $0 }.map { pthread_equal($0, caller) == 0 } == true)
    }
}
