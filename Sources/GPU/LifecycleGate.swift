import FramePacing
import AppLifecycle
import SwiftGPUSupport

/// The GPU side of a device's lifecycle: decides at commit whether a command buffer may
/// run, and drains the device's queues when the app enters the background.
///
/// | state | commit |
/// |---|---|
/// | active | accepted |
/// | inactive | refused if the buffer was made while not active, unless `criticalForDeactivation` |
/// | background | refused (`notPermitted`), unless a background task with `usesGPU` runs |
///
/// A refused buffer makes no submission: it ends in `.error`, its handlers run once and
/// what it retained is released.
///
/// Admission and counting are one step as far as the background is concerned: a commit
/// admitted before the app entered the background may still be on its way to its queue;
/// entering the background waits for it to be counted, so that the drain schedules it
/// rather than letting it run after the drain returned.
///
/// Volatile resources (`setPurgeableState(.volatile)`) are emptied on a memory warning and
/// on entering the background.
///
/// `@unchecked Sendable`: `engines`, `admitting` and `volatiles` are guarded by `lock`;
/// `lifecycle` is immutable.
final class LifecycleGate: LifecycleParticipant, @unchecked Sendable {
    let lifecycle: AppLifecycle
    private let lock = ConditionLock(rank: .lifecycleGate)
    private var engines: [WeakEngine] = []
    /// Commits admitted and not yet counted by their queue (`admitted()` not yet called).
    private var admitting = 0

    /// Buffers and textures set volatile since the last purge (some may be nonvolatile
    /// again).
    private var volatiles: [WeakResource] = []

    private struct WeakEngine {
        weak var engine: QueueEngine?
    }

    private struct WeakResource {
        weak var resource: (any PurgeableResource)?
    }

    init(lifecycle: AppLifecycle) {
        self.lifecycle = lifecycle
        lifecycle.register(self)
    }

    /// Adds a queue whose buffers the gate drains.
    func add(_ engine: QueueEngine) {
        lock.withLock {
            engines.removeAll { $0.engine == nil }
            engines.append(WeakEngine(engine: engine))
        }
    }

    /// How many queues of the device are alive.
    var liveEngineCount: Int { lock.withLock { engines.filter { $0.engine != nil }.count } }

    /// Whether a buffer made now is made while the app is not active.
    var isClosedToNewBuffers: Bool { lifecycle.state != .active }

    /// Nil if `buffer` may be submitted now, else the error it ends with. An admitted
    /// buffer must be counted by its queue and then reported with `admitted()`.
    func admit(_ buffer: CommandBuffer) -> CommandBufferError? {
        lock.withLock {
            let error: CommandBufferError?
            switch lifecycle.state {
            case .active:
                error = nil
            case .inactive:
                let exempt = buffer.options.criticalForDeactivation || buffer.options.isInternal
                error = buffer.madeWhileNotActive && !exempt ? .refusedWhileInactive : nil
            case .background:
                error = lifecycle.allowsGPUWorkInBackground ? nil : .notPermittedInBackground
            }
            if error != nil {
                lifecycle.recordRefusal()
            } else {
                admitting += 1
            }
            return error
        }
    }

    /// Reports that a buffer `admit` let through is counted by its queue.
    func admitted() {
        lock.withLock {
            admitting -= 1
            lock.broadcast()
        }
    }

    /// Drains every queue of the device; see `QueueEngine.drain(until:)`.
    func drain(until deadline: DrainDeadline) -> DrainReport {
        let live = lock.withLock { engines.compactMap(\.engine) }
        var report = DrainReport()
        for engine in live {
            let (scheduled, failed) = engine.drain(until: deadline)
            report.scheduled += scheduled
            report.failedAtDeadline += failed
        }
        return report
    }

    /// The gate reads the lifecycle's state at each commit; on entering the background it
    /// waits for commits admitted before to be counted, then notes what each queue has
    /// waiting, before any observer runs, and empties the volatile resources.
    func lifecycleDidChange(_ transition: LifecycleTransition) {
        guard transition.event == .didEnterBackground else { return }
        let live = lock.withLock { () -> [QueueEngine] in
            lock.wait { admitting == 0 }
            return engines.compactMap(\.engine)
        }
        for engine in live { engine.noteGateClosed() }
        emptyVolatileResources()
    }

    /// A memory warning empties the volatile resources.
    func didReceiveMemoryWarning() { emptyVolatileResources() }

    /// Remembers `resource`, just set volatile, for the next purge.
    func noteVolatile(_ resource: any PurgeableResource) {
        lock.withLock {
            volatiles.removeAll { $0.resource == nil }
            if !volatiles.contains(where: { $0.resource === resource }) { volatiles.append(WeakResource(resource: resource)) }
        }
    }

    /// Discards the contents of every buffer and texture still volatile, with no gate lock
    /// held.
    private func emptyVolatileResources() {
        let resources = lock.withLock { () -> [any PurgeableResource] in
            defer { volatiles.removeAll() }
            return volatiles.compactMap(\.resource)
        }
        for resource in resources { resource.discard() }
    }
}

extension CommandBufferError {
    /// The refusal of a buffer made after `willResignActive`.
    static let refusedWhileInactive = CommandBufferError(
        .notPermitted, "Insufficient permission (the app is inactive; command buffers made after willResignActive "
            + "are refused unless criticalForDeactivation)")

    /// A committed buffer that could not be scheduled before the background drain's deadline.
    static let notScheduledBeforeBackground = CommandBufferError(
        .notPermitted, "Insufficient permission (the command buffer could not be scheduled before the app entered "
            + "the background)")
}
