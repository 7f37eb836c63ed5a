import FramePacing
import AppLifecycle

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
/// `@unchecked Sendable`: `engines` is guarded by `lock`; `lifecycle` is immutable.
final class LifecycleGate: LifecycleParticipant, @unchecked Sendable {
    let lifecycle: AppLifecycle
    private let lock = ConditionLock()
    private var engines: [WeakEngine] = []

    private struct WeakEngine {
        weak var engine: QueueEngine?
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

    /// Whether a buffer made now is made while the app is not active.
    var isClosedToNewBuffers: Bool { lifecycle.state != .active }

    /// Nil if `buffer` may be submitted now, else the error it ends with.
    func refusal(for buffer: CommandBuffer) -> CommandBufferError? {
        let error: CommandBufferError?
        switch lifecycle.state {
        case .active:
            error = nil
        case .inactive:
            let exempt = buffer.descriptor.criticalForDeactivation || buffer.descriptor.isInternal
            error = buffer.madeWhileNotActive && !exempt ? .refusedWhileInactive : nil
        case .background:
            error = lifecycle.allowsGPUWorkInBackground ? nil : .notPermittedInBackground
        }
        if error != nil { lifecycle.recordRefusal() }
        return error
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
    /// notes what each queue has waiting, before any observer runs.
    func lifecycleDidChange(_ transition: LifecycleTransition) {
        guard transition.event == .didEnterBackground else { return }
        for engine in lock.withLock({ engines.compactMap(\.engine) }) { engine.noteGateClosed() }
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
