import CFutex
import Synchronization

/// A mutex with a condition, for state shared between user threads and a queue's
/// completion thread or a clock's timer thread. Waiting on the condition blocks the calling
/// thread: it is never used from the Swift concurrency pool.
///
/// It is SwiftGPU's one lock idiom (with `LockedValue` over it for a value, and
/// `RecursiveLock` where a lock must be re-entered). Both the mutex and the condition are
/// a 32-bit word each, changed with atomic instructions and slept on with Linux futexes:
/// taking and letting go of a free mutex is one atomic instruction each, inlined, where a
/// pthread mutex is two calls into glibc (about 55 instructions together; a command
/// buffer takes about twenty locks on its way through a queue). The kernel is entered only
/// when a thread must sleep or be woken. ThreadSanitizer sees the atomics (they are inlined
/// into the instrumented modules), so it orders what the lock orders.
/// `Synchronization.Mutex` is not used: on Linux, with Swift 6.3, its lock and unlock are
/// calls ThreadSanitizer does not see, and it reports every access under it as a race; and
/// it has no condition.
///
/// The mutex word: 0 free, 1 held, 2 held with threads that may sleep on it (whoever lets
/// go of it then wakes one). The condition word counts broadcasts: a waiter reads it with
/// the mutex held, lets go of the mutex and sleeps unless the count moved.
///
/// `@unchecked Sendable`: the words are allocated once, never moved, and only changed
/// atomically; `waiters` is guarded by the mutex.
///
/// Debug builds check SwiftGPU's lock order at each `withLock` (`LockRank`); a wait on the
/// condition keeps the lock counted as held.
///
/// `withLock` and `broadcast` are public, where the rest of this module is `package`: Swift
/// 6.3 inlines an `@inlinable` function into another module only when it is public, and
/// GPU's hot paths (every commit and completion) take this lock a dozen times. The module
/// is no product; nothing outside the package imports it.
public final class ConditionLock: @unchecked Sendable {
    /// The mutex word, then the condition word.
    @usableFromInline let words: UnsafeMutablePointer<Atomic<UInt32>>
    /// How many threads sleep on the condition that no broadcast has woken yet; guarded by
    /// the mutex. `broadcast` makes no system call when it is 0, which is most of the time:
    /// each commit and completion broadcasts a few times in case a thread waits, and a
    /// broadcast sets it to 0 as it wakes them, so the broadcasts that follow before a woken
    /// thread runs (a completion thread finishing a burst of buffers while the submitter
    /// waits for a slot) wake nobody again. The mutex makes every access exclusive, so it
    /// skips the run-time exclusivity check.
    @usableFromInline @exclusivity(unchecked) var waiters = 0
    #if DEBUG
    /// Where this lock stands in the lock order, checked at each `withLock` (debug builds).
    @usableFromInline let rank: LockRank
    #endif

    /// A free lock of rank `rank` in SwiftGPU's lock order.
    package init(rank: LockRank) {
        #if DEBUG
        self.rank = rank
        #endif
        words = .allocate(capacity: 2)
        words.initialize(to: Atomic(0))
        (words + 1).initialize(to: Atomic(0))
    }

    deinit {
        words.deinitialize(count: 2)
        words.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inlinable @inline(__always)
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        #if DEBUG
        rank.noteTaking(self)
        defer { LockRank.noteReleased(self) }
        #endif
        lock()
        defer { unlock() }
        return try body()
    }

    /// Runs `body`, which cannot throw, with the mutex held: the overload most calls take.
    @inlinable @inline(__always)
    public func withLock<T>(_ body: () -> T) -> T {
        #if DEBUG
        rank.noteTaking(self)
        defer { LockRank.noteReleased(self) }
        #endif
        lock()
        defer { unlock() }
        return body()
    }

    /// Takes the mutex: one compare-and-swap when it is free.
    @inlinable @inline(__always)
    func lock() {
        if !words.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockContended()
        }
    }

    /// Takes a mutex another thread holds: marks it contended and sleeps until the mark
    /// found it free. The thread that lets go of a contended mutex wakes one sleeper,
    /// which marks it contended again (others may still sleep).
    @usableFromInline @inline(never)
    func lockContended() {
        while words.pointee.exchange(2, ordering: .acquiring) != 0 {
            swiftgpu_futex_wait(UnsafeRawPointer(words), 2, 0)
        }
    }

    /// Lets go of the mutex, waking one thread that sleeps on it.
    @inlinable @inline(__always)
    func unlock() {
        if words.pointee.exchange(0, ordering: .releasing) == 2 { wakeLocker() }
    }

    @usableFromInline @inline(never)
    func wakeLocker() {
        swiftgpu_futex_wake(UnsafeRawPointer(words), 1)
    }

    /// Blocks until `isDone` holds; must be called with the mutex held (inside `withLock`).
    package func wait(until isDone: () -> Bool) {
        while !isDone() { sleepOnCondition(deadline: 0) }
    }

    /// Blocks until `isDone` holds or host monotonic time reaches `deadline` (nanoseconds;
    /// nil: no limit); returns whether `isDone` holds. Call with the mutex held.
    package func wait(until isDone: () -> Bool, deadline: UInt64?) -> Bool {
        guard let deadline else {
            wait(until: isDone)
            return true
        }
        while !isDone() {
            guard HostClock.nanoseconds() < deadline else { return false }
            sleepOnCondition(deadline: deadline)
        }
        return true
    }

    /// Lets go of the mutex, sleeps until a broadcast (or `deadline` on CLOCK_MONOTONIC,
    /// when not 0, or a spurious wake-up) and takes the mutex again. The broadcast count
    /// is read with the mutex held and a broadcast advances it with the mutex held, so a
    /// broadcast after this thread's check of its condition always finds it counted
    /// (`waiters`) and moves the word it sleeps on.
    private func sleepOnCondition(deadline: UInt64) {
        waiters += 1
        if !sleep(on: words + 1, deadline: deadline) { waiters -= 1 }
    }

    /// Lets go of the mutex, sleeps until `word` moves from the value it has now (or until
    /// `deadline`, when not 0, or a spurious wake-up) and takes the mutex again; returns
    /// whether the word moved, that is whether a broadcast woke this thread and so no
    /// longer counts it as waiting. Call with the mutex held; `word` is only moved with the
    /// mutex held.
    fileprivate func sleep(on word: UnsafeMutablePointer<Atomic<UInt32>>, deadline: UInt64) -> Bool {
        let broadcasts = word.pointee.load(ordering: .relaxed)
        unlock()
        swiftgpu_futex_wait(UnsafeRawPointer(word), broadcasts, deadline)
        lock()
        return word.pointee.load(ordering: .relaxed) != broadcasts
    }

    /// Wakes every waiter; call with the mutex held after changing state they wait on.
    @inlinable
    public func broadcast() {
        if waiters > 0 { wakeWaiters() }
    }

    /// How many threads sleep on the condition that no broadcast has woken yet; read with
    /// the mutex held.
    package var sleepingWaiters: Int { waiters }

    /// Moves the condition word and wakes every thread sleeping on it; they no longer count
    /// as waiting (each one that sleeps again counts itself again).
    @usableFromInline @inline(never)
    func wakeWaiters() {
        waiters = 0
        words[1].wrappingAdd(1, ordering: .relaxed)
        swiftgpu_futex_wake(UnsafeRawPointer(words + 1), Int32.max)
    }
}

/// A further condition on a `ConditionLock`'s mutex, with waiters of its own: a broadcast
/// on the lock does not wake them, nor one on this condition the lock's. For waits that
/// are satisfied rarely among the lock's many state changes (a thread waiting for one
/// command buffer, while the queue's other buffers complete one by one).
///
/// `@unchecked Sendable`: the word is allocated once and only changed atomically, with the
/// lock's mutex held; `waiters` is guarded by that mutex.
package final class LockCondition: @unchecked Sendable {
    private let lock: ConditionLock
    /// The count of broadcasts.
    private let word: UnsafeMutablePointer<Atomic<UInt32>>
    @exclusivity(unchecked) private var waiters = 0

    /// A condition on `lock`'s mutex.
    package init(on lock: ConditionLock) {
        self.lock = lock
        word = .allocate(capacity: 1)
        word.initialize(to: Atomic(0))
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// Blocks until `isDone` holds; call with the lock's mutex held.
    package func wait(until isDone: () -> Bool) {
        while !isDone() {
            waiters += 1
            if !lock.sleep(on: word, deadline: 0) { waiters -= 1 }
        }
    }

    /// Wakes this condition's waiters; call with the lock's mutex held after changing state
    /// they wait on. Nothing happens when none waits.
    package func broadcast() {
        guard waiters > 0 else { return }
        // The woken no longer count, as with the lock's own condition.
        waiters = 0
        word.pointee.wrappingAdd(1, ordering: .relaxed)
        swiftgpu_futex_wake(UnsafeRawPointer(word), Int32.max)
    }
}
