import SwiftGPUSupport

/// Names a background task, as `UIBackgroundTaskIdentifier`.
public struct BackgroundTaskIdentifier: Hashable, Sendable {
    /// The raw number; 0 is invalid.
    public let rawValue: UInt64
    /// An identifier that names no task.
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
}

/// A task the app asked to finish in the background.
struct BackgroundTask {
    var name: String
    var usesGPU: Bool
    var expirationHandler: (@Sendable () -> Void)?
    var isExpired = false
    var cancelTimer: (@Sendable () -> Void)?
}

extension AppLifecycle {
    /// How long a background task may run in the background before it expires (default
    /// 30 s, on the lifecycle's clock). Each entry into the background starts the budget
    /// anew for every task that has not expired.
    public var backgroundTaskBudget: Duration {
        get { storage.withLock { $0.backgroundTaskBudget } }
        set { storage.withLock { $0.backgroundTaskBudget = newValue } }
    }

    /// Starts a task that may keep running in the background until it ends or its budget
    /// runs out; then `expirationHandler` runs once. With `usesGPU`, the GPU gate lets
    /// commits through in the background while the task lasts.
    public func beginBackgroundTask(name: String, usesGPU: Bool = false,
                                    expirationHandler: (@Sendable () -> Void)? = nil) -> BackgroundTaskIdentifier {
        let (id, inBackground) = storage.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            state.tasks[state.nextID] = BackgroundTask(name: name, usesGPU: usesGPU, expirationHandler: expirationHandler)
            return (state.nextID, state.current == .background)
        }
        if inBackground { startTimer(for: id) }
        return BackgroundTaskIdentifier(rawValue: id)
    }

    /// Ends a task. Ending one that has ended, or `.invalid`, does nothing.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        let task = storage.withLock { $0.tasks.removeValue(forKey: identifier.rawValue) }
        task?.cancelTimer?()
    }

    /// Whether a running, unexpired background task declared GPU use.
    public var allowsGPUWorkInBackground: Bool {
        storage.withLock { $0.tasks.values.contains { $0.usesGPU && !$0.isExpired } }
    }

    /// The names of the tasks that have begun and not ended.
    public var backgroundTaskNames: [String] {
        storage.withLock { $0.tasks.sorted { $0.key < $1.key }.map(\.value.name) }
    }

    func startBackgroundTaskTimers() {
        let ids = storage.withLock { state in state.tasks.filter { !$0.value.isExpired }.map(\.key) }
        for id in ids { startTimer(for: id) }
    }

    func cancelBackgroundTaskTimers() {
        let cancels = storage.withLock { state -> [@Sendable () -> Void] in
            var cancels: [@Sendable () -> Void] = []
            for id in state.tasks.keys {
                if let cancel = state.tasks[id]?.cancelTimer { cancels.append(cancel) }
                state.tasks[id]?.cancelTimer = nil
            }
            return cancels
        }
        for cancel in cancels { cancel() }
    }

    private func startTimer(for id: UInt64) {
        let budget = storage.withLock { $0.backgroundTaskBudget }
        let cancel = clock.after(budget) { [weak self] in self?.expire(id) }
        let stale = storage.withLock { state -> (@Sendable () -> Void)? in
            guard state.tasks[id] != nil else { return cancel }
            defer { state.tasks[id]?.cancelTimer = cancel }
            return state.tasks[id]?.cancelTimer
        }
        stale?()
    }

    private func expire(_ id: UInt64) {
        let handler = storage.withLock { state -> (@Sendable () -> Void)?? in
            guard var task = state.tasks[id], !task.isExpired else { return nil }
            task.isExpired = true
            task.cancelTimer = nil
            defer { task.expirationHandler = nil; state.tasks[id] = task }
            return .some(task.expirationHandler)
        }
        if case .some(let handler?) = handler { handler() }
    }
}
