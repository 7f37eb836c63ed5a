import AppLifecycle
import CSystemBus
import Glibc
import SwiftGPUSupport

/// Suspend and resume through logind's `sleep` delay inhibitor lock, as iOS's background
/// task with an expiration handler.
extension SystemBusMonitor {
    /// Whether the inhibitor lock is held now.
    public var holdsInhibitor: Bool { lock.withLock { state.inhibitor >= 0 } }

    /// Every suspend so far, oldest first.
    public var sleeps: [SleepRecord] { lock.withLock { state.records } }

    /// Runs `handler` on the bus thread after each suspend's drain, once the lock is
    /// released: the timeline, for a log.
    public func onSleep(_ handler: @escaping @Sendable (SleepRecord) -> Void) {
        lock.withLock { state.handler = handler }
    }

    /// Takes the lock: its descriptor, or a negative errno.
    func takeInhibitor() -> Int32 {
        let fd = swiftgpu_bus_inhibit(bus, "sleep", who, "drain GPU work before sleep", "delay")
        if fd >= 0 { lock.withLock { state.inhibitor = fd } }
        return fd
    }

    /// Closes the lock's descriptor: logind may suspend.
    func releaseInhibitor() {
        lock.withLock {
            if state.inhibitor >= 0 { close(state.inhibitor) }
            state.inhibitor = -1
        }
    }

    /// Before suspend: to the background with the drain bounded by logind's delay, then
    /// the lock goes.
    func prepareForSleep() {
        let received = Self.now
        let deadline = max(inhibitDelayMax - margin, .zero)
        let active = lifecycle.state == .active
        lock.withLock {
            state.wasActive = active
            state.asleep = true
        }
        if active { lifecycle.willResignActive() }
        let report = lifecycle.didEnterBackground(deadline: deadline)
        let drained = Self.now
        releaseInhibitor()
        let (record, handler) = lock.withLock { () -> (SleepRecord, (@Sendable (SleepRecord) -> Void)?) in
            let record = SleepRecord(received: received, drained: drained, released: Self.now, report: report,
                                     deadline: deadline)
            state.records.append(record)
            return (record, state.handler)
        }
        handler?(record)
    }

    /// After resume: the lock again, then back to where the app was.
    func resumed() {
        _ = takeInhibitor()
        let active = lock.withLock { () -> Bool in
            state.asleep = false
            return state.resumeActivates()
        }
        lifecycle.willEnterForeground()
        if active { lifecycle.didBecomeActive() }
    }
}
