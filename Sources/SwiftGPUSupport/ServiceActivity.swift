import Glibc

/// A service thread's owner that can end the thread's blocking wait in the driver: called
/// once while the process exits, on the exiting thread, with no lock held.
package protocol ExitWaking: AnyObject, Sendable {
    /// Makes the owner's thread return from its blocking wait soon (an empty submission
    /// that signals what it waits for, say). The thread then finds the process exiting.
    func wakeForExit()
}

/// Keeps service threads out of Vulkan while the process exits, when the driver's own
/// destructors run: a thread inside the driver then can crash the exit (NVIDIA's driver
/// does, in a wait on a semaphore).
///
/// A thread brackets each burst of work (finishing buffers, running notifications) with
/// `begin()`/`end()`, and each wait that blocks in the driver with `blocking(_:)`, whose
/// owner registers to be woken. An `atexit` handler, registered once the driver is loaded
/// so that it runs before the driver's destructors, refuses new bursts and waits, wakes
/// every registered owner, waits for bursts in progress, and for blocked waits to return
/// (at most ``exitWaitLimit``: a GPU that never finishes must not hang the exit).
package enum ServiceActivity {
    private static let lock = ConditionLock(rank: .leaf("ServiceActivity.lock"))
    // Guarded by `lock`.
    private nonisolated(unsafe) static var busy = 0
    private nonisolated(unsafe) static var blocked = 0
    private nonisolated(unsafe) static var exiting = false
    private nonisolated(unsafe) static var owners: [ObjectIdentifier: WeakOwner] = [:]
    private nonisolated(unsafe) static var installed: Set<String> = []

    /// How long the exit waits for blocked waits to return: 2 s.
    private static let exitWaitLimit: UInt64 = 2_000_000_000

    private struct WeakOwner {
        weak var owner: (any ExitWaking)?
    }

    /// Starts a burst of work; false once the process is exiting (the caller stops).
    package static func begin() -> Bool {
        lock.withLock {
            if exiting { return false }
            busy += 1
            return true
        }
    }

    /// Ends a burst of work.
    package static func end() {
        lock.withLock {
            busy -= 1
            lock.broadcast()
        }
    }

    /// Runs `wait`, a call that may block in the driver until its owner's `wakeForExit()`
    /// ends it; nil, without running it, once the process is exiting (the caller stops).
    package static func blocking<T, Failure: Error>(_ wait: () throws(Failure) -> T) throws(Failure) -> T? {
        guard startWait(endingBurst: false) else { return nil }
        defer { endWait(beginningBurst: false) }
        return try wait()
    }

    /// `blocking(_:)` in two calls, for a thread that waits in the driver and works in turn:
    /// counts a wait, after ending the caller's burst in progress when `endingBurst`, in one
    /// critical section; false, counting nothing, once the process is exiting (the caller
    /// stops). Each true is followed by `endWait(beginningBurst:)` once the wait returns or
    /// throws. Non-generic, so that the round costs no generic calls either.
    package static func startWait(endingBurst: Bool) -> Bool {
        lock.withLock {
            if endingBurst {
                busy -= 1
                lock.broadcast()
            }
            if exiting { return false }
            blocked += 1
            return true
        }
    }

    /// Ends a wait `startWait(endingBurst:)` counted; with `beginningBurst`, starts a burst
    /// (`begin()`) in the same critical section unless the process is exiting. Returns
    /// whether it started one (false: the caller stops).
    @discardableResult
    package static func endWait(beginningBurst: Bool) -> Bool {
        lock.withLock {
            blocked -= 1
            lock.broadcast()
            guard beginningBurst, !exiting else { return false }
            busy += 1
            return true
        }
    }

    /// Registers `owner` to be woken when the process exits; it is held weakly.
    package static func register(_ owner: any ExitWaking) {
        lock.withLock { owners[ObjectIdentifier(owner)] = WeakOwner(owner: owner) }
    }

    /// Forgets `owner`: its thread has stopped.
    package static func unregister(_ owner: any ExitWaking) {
        lock.withLock { _ = owners.removeValue(forKey: ObjectIdentifier(owner)) }
    }

    /// Service threads blocked in the driver now.
    package static var blockedCount: Int { lock.withLock { blocked } }

    /// Installs the exit handler once per `moment` (the instance made, the first device
    /// made): `atexit` handlers run in reverse order of registration, so a handler
    /// registered after the driver registered its own teardown runs before it. A driver
    /// registers its teardown as it loads or as it makes its first device; later devices
    /// add nothing, and registering again for each would only grow the list.
    package static func installExitHandler(after moment: String) {
        let isNew = lock.withLock { installed.insert(moment).inserted }
        if isNew { atexit { ServiceActivity.processExits() } }
    }

    /// The exit: refuses new bursts and waits, wakes the owners, waits for the bursts in
    /// progress and (within ``exitWaitLimit``) for the blocked waits.
    private static func processExits() {
        let toWake = lock.withLock { () -> [any ExitWaking] in
            let first = !exiting
            exiting = true
            return first ? owners.values.compactMap(\.owner) : []
        }
        for owner in toWake { owner.wakeForExit() }
        lock.withLock {
            lock.wait { busy == 0 }
            _ = lock.wait(until: { blocked == 0 }, deadline: HostClock.nanoseconds() + exitWaitLimit)
        }
    }
}
