/// A value behind a `ConditionLock`: the package's replacement for
/// `Synchronization.Mutex`, which ThreadSanitizer does not see on Linux.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`.
package final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let lock = ConditionLock()
    @usableFromInline var value: Value

    /// A lock around `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held. Never call out to a handler, a clock
    /// or another object's lock from `body`.
    @inlinable
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value) }
    }

    /// Runs `body`, which cannot throw, on the value with the lock held (see
    /// `ConditionLock.withLock(_:)` for why both exist).
    @inlinable
    package func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { () -> T in body(&value) }
    }
}
