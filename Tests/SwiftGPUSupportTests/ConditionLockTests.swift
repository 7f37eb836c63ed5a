import Foundation
import Testing
import SwiftGPUSupport

/// A counter and a flag that only `lock` guards (no atomics of their own), so a broken
/// mutex shows as a lost update and a broken condition as a missed wake-up (a hang).
private final class Shared: @unchecked Sendable {   // guarded by `lock`
    let lock = ConditionLock(rank: .leaf("ConditionLockTests.lock"))
    var count = 0
    var turn = 0
    var generation = 0
    var woken = 0
}

/// Runs `body(i)` on `count` new threads at once and returns when every one has returned.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}

/// Starts a thread that, with `shared.lock` held, sets `turn` to 1 (it has arrived: it
/// leaves the mutex only inside its wait), broadcasts, and waits with `wait` until
/// `generation` is 1, counting each evaluation of that predicate in `woken`; the group
/// is left when the thread returns.
private func startWaiter(_ shared: Shared, wait: @escaping @Sendable (() -> Bool) -> Void) -> DispatchGroup {
    let done = DispatchGroup()
    done.enter()
    Thread {
        shared.lock.withLock {
            shared.turn = 1
            shared.lock.broadcast()
            wait {
                shared.woken += 1
                return shared.generation == 1
            }
        }
        done.leave()
    }.start()
    return done
}

@Suite struct ConditionLockTests {
    @Test func mutualExclusionUnderContention() {
        let shared = Shared()
        let threads = 4, increments = 20_000
        onThreads(threads) { _ in
            for _ in 0..<increments {
                // A read, a yield point and a write: two threads inside at once lose updates.
                shared.lock.withLock {
                    let seen = shared.count
                    shared.count = seen &+ 1
                }
            }
        }
        #expect(shared.lock.withLock { shared.count } == threads * increments)
    }

    @Test func waitersTakeTurnsWithoutLosingAWakeUp() {
        // Two threads hand a turn back and forth: each waits for its turn, takes it and
        // broadcasts. A wake-up lost between a check and the sleep would hang here.
        let shared = Shared()
        let rounds = 5_000
        onThreads(2) { me in
            for _ in 0..<rounds {
                shared.lock.withLock {
                    shared.lock.wait { shared.turn == me }
                    shared.count += 1
                    shared.turn = 1 - me
                    shared.lock.broadcast()
                }
            }
        }
        #expect(shared.lock.withLock { shared.count } == 2 * rounds)
    }

    @Test func broadcastWakesEveryWaiter() {
        let shared = Shared()
        let waiters = 4
        let arrived = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<waiters {
            done.enter()
            Thread {
                shared.lock.withLock {
                    shared.count += 1
                    arrived.signal()
                    shared.lock.wait { shared.generation == 1 }
                    shared.woken += 1
                }
                done.leave()
            }.start()
        }
        for _ in 0..<waiters { arrived.wait() }
        shared.lock.withLock {
            shared.generation = 1
            shared.lock.broadcast()
        }
        done.wait()
        #expect(shared.lock.withLock { shared.woken } == waiters)
    }

    @Test func aLockConditionSleepsThroughTheLocksBroadcasts() {
        // A waiter on a LockCondition is woken by that condition's broadcast, not by the
        // lock's: it evaluates its predicate once before sleeping and once after (spurious
        // wake-ups aside), however many changes the lock's own waiters are told about.
        let shared = Shared()
        let condition = LockCondition(on: shared.lock)
        let done = startWaiter(shared) { condition.wait(until: $0) }
        shared.lock.withLock { shared.lock.wait { shared.turn == 1 } }
        for _ in 0..<1_000 {
            shared.lock.withLock {
                shared.count += 1
                shared.lock.broadcast()
            }
        }
        shared.lock.withLock {
            shared.generation = 1
            condition.broadcast()
        }
        done.wait()
        #expect(shared.lock.withLock { shared.woken } <= 3)
    }

    @Test func aBroadcastWakesASleeperOnce() {
        // The first broadcast wakes the sleeper and stops counting it, so the broadcasts
        // that follow before it runs again make no system call; a waiter whose deadline
        // passes without a broadcast stops counting itself.
        let shared = Shared()
        let done = startWaiter(shared) { shared.lock.wait(until: $0) }
        let counts = shared.lock.withLock { () -> [Int] in
            shared.lock.wait { shared.turn == 1 }
            let asleep = shared.lock.sleepingWaiters
            shared.generation = 1
            shared.lock.broadcast()
            let woken = shared.lock.sleepingWaiters
            shared.lock.broadcast()
            return [asleep, woken, shared.lock.sleepingWaiters]
        }
        done.wait()
        #expect(counts == [1, 0, 0])
        #expect(shared.lock.withLock { shared.woken } == 2)
        let timedOut = shared.lock.withLock { () -> Int in
            _ = shared.lock.wait(until: { false }, deadline: HostClock.nanoseconds() + 1_000_000)
            return shared.lock.sleepingWaiters
        }
        #expect(timedOut == 0)
    }

    @Test func timedWaitEndsAtItsDeadline() {
        let shared = Shared()
        // A deadline already passed returns at once; one just ahead returns once the
        // monotonic clock reached it (the futex takes the deadline as CLOCK_MONOTONIC).
        let past = shared.lock.withLock { shared.lock.wait(until: { false }, deadline: HostClock.nanoseconds()) }
        #expect(!past)
        let deadline = HostClock.nanoseconds() + 2_000_000
        let reached = shared.lock.withLock { shared.lock.wait(until: { false }, deadline: deadline) }
        #expect(!reached)
        #expect(HostClock.nanoseconds() >= deadline)
        let satisfied = shared.lock.withLock { shared.lock.wait(until: { true }, deadline: deadline) }
        #expect(satisfied)
    }
}
