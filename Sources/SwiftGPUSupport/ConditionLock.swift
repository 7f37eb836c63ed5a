import Glibc

/// A mutex with a condition variable, for state shared between user threads and a
/// queue's completion thread or a clock's timer thread. Waiting on the condition blocks the calling thread: it is
/// never used from the Swift concurrency pool.
///
/// It is SwiftGPU's one lock idiom (with `LockedValue` over it for a value, and
/// `RecursiveLock` where a lock must be re-entered): a pthread mutex, which
/// ThreadSanitizer sees. `Synchronization.Mutex` is not used: on Linux, with Swift 6.3,
/// ThreadSanitizer does not see it, and reports every access under it as a race.
///
/// `@unchecked Sendable`: the pthread objects are allocated once, never moved, and are
/// themselves the synchronisation primitive.
///
/// `withLock` and `broadcast` are public, where the rest of this module is `package`: Swift
/// 6.3 inlines an `@inlinable` function into another module only when it is public, and
/// GPU's hot paths (every commit and completion) take this lock a dozen times. The module
/// is no product; nothing outside the package imports it.
public final class ConditionLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    /// How many threads wait on the condition; guarded by the mutex. `broadcast` wakes
    /// nobody when it is 0, which is most of the time (each commit and completion
    /// broadcasts a few times in case a thread waits). The mutex makes every access
    /// exclusive, so it skips the run-time exclusivity check.
    @usableFromInline @exclusivity(unchecked) var waiters = 0

    package init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)   // timed waits on host monotonic time
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inlinable @inline(__always)
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body`, which cannot throw, with the mutex held: the overload most calls take.
    @inlinable @inline(__always)
    public func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Blocks until `isDone` holds; must be called with the mutex held (inside `withLock`).
    package func wait(until isDone: () -> Bool) {
        while !isDone() {
            waiters += 1
            pthread_cond_wait(condition, mutex)
            waiters -= 1
        }
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
            var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            waiters += 1
            pthread_cond_timedwait(condition, mutex, &time)
            waiters -= 1
        }
        return true
    }

    /// Wakes every waiter; call with the mutex held after changing state they wait on.
    @inlinable
    public func broadcast() {
        if waiters > 0 { pthread_cond_broadcast(condition) }
    }
}
