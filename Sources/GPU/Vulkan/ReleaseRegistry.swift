import SwiftGPUSupport

/// Counts SwiftGPU's live wrappers of objects a host lent it (an instance, a surface), by
/// handle, so that the host can wait until SwiftGPU has let go of one before destroying it.
///
/// `@unchecked Sendable`: `live` is guarded by `lock`, whose waiters are woken as each
/// wrapper goes.
final class ReleaseRegistry: @unchecked Sendable {
    private let lock = ConditionLock(rank: .leaf("ReleaseRegistry.lock"))
    private var live: [Int: Int] = [:]

    /// A wrapper of `handle` was made.
    func retain(_ handle: OpaquePointer) {
        lock.withLock { live[Int(bitPattern: handle), default: 0] += 1 }
    }

    /// A wrapper of `handle` went.
    func release(_ handle: OpaquePointer) {
        let key = Int(bitPattern: handle)
        lock.withLock {
            live[key, default: 1] -= 1
            if live[key] == 0 { live[key] = nil }
            lock.broadcast()
        }
    }

    /// Waits until no wrapper of `handle` is alive or `timeout` passes; whether none is.
    func waitUntilReleased(_ handle: OpaquePointer, timeout: Duration) -> Bool {
        let key = Int(bitPattern: handle)
        let (seconds, attoseconds) = timeout.components
        let deadline = HostClock.nanoseconds() + UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        return lock.withLock { lock.wait(until: { live[key] == nil }, deadline: deadline) }
    }
}
