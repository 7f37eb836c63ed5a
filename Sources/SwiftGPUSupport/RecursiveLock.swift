import Glibc

/// A recursive mutex: a queue's submission lock, held while scheduled handlers run, which
/// may commit further buffers on the same queue.
///
/// `@unchecked Sendable`: the pthread mutex is allocated once and is itself the primitive.
/// `withLock` is public for the reason `ConditionLock.withLock` is.
public final class RecursiveLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #if DEBUG
    /// Where this lock stands in the lock order, checked when it is taken (debug builds);
    /// re-entering it is always allowed.
    @usableFromInline let rank: LockRank
    #endif

    /// A free recursive lock of rank `rank` in SwiftGPU's lock order.
    package init(rank: LockRank) {
        #if DEBUG
        self.rank = rank
        #endif
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inlinable @inline(__always)
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        #if DEBUG
        rank.noteTaking(self)
        defer { LockRank.noteReleased(self) }
        #endif
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body`, which cannot throw, with the mutex held (see
    /// `ConditionLock.withLock(_:)` for why both exist).
    @inlinable @inline(__always)
    public func withLock<T>(_ body: () -> T) -> T {
        #if DEBUG
        rank.noteTaking(self)
        defer { LockRank.noteReleased(self) }
        #endif
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Runs `body` with the mutex held if it is free (or already held by this thread);
    /// returns false without waiting when another thread holds it.
    package func withLockIfAvailable(_ body: () -> Void) -> Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        #if DEBUG
        rank.noteTook(self)
        defer { LockRank.noteReleased(self) }
        #endif
        defer { pthread_mutex_unlock(mutex) }
        body()
        return true
    }
}
