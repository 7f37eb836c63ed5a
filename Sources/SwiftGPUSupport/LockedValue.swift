/// A value behind a `ConditionLock`: the package's replacement for
/// `Synchronization.Mutex`, which ThreadSanitizer does not see on Linux.
///
/// The value lives in memory of its own rather than in a stored property, so that the
/// exclusive access `withLock` hands its body is the lock's alone: a class's stored
/// property would add a dynamic exclusivity check (a thread-local access set) to every
/// call. `withLock` is public for the reason `ConditionLock.withLock` is.
///
/// `@unchecked Sendable`: the value is only read or written inside `withLock`.
public final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let lock: ConditionLock
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    /// A lock of rank `rank` around `value`.
    package init(_ value: Value, rank: LockRank) {
        lock = ConditionLock(rank: rank)
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` on the value with the lock held. Never call out to a handler, a clock
    /// or another object's lock from `body`.
    @inlinable
    public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&storage.pointee) }
    }

    /// Runs `body`, which cannot throw, on the value with the lock held (see
    /// `ConditionLock.withLock(_:)` for why both exist).
    @inlinable
    public func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { () -> T in body(&storage.pointee) }
    }
}
