import SwiftGPUSupport

extension AppLifecycle {
    /// The system is short of memory (iOS's `applicationDidReceiveMemoryWarning`): every
    /// participant gives back what it can (a GPU device empties its volatile resources),
    /// then observers run, on the calling thread. On Linux `SystemLifecycle` delivers it
    /// from low-memory-monitor's `LowMemoryWarning`, or from the kernel's memory pressure
    /// stall trigger where that service is absent.
    public func didReceiveMemoryWarning() {
        for participant in participants() { participant.didReceiveMemoryWarning() }
        let observers = storage.withLock { $0.memoryWarningObservers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in observers { observer() }
    }

    /// Calls `handler` after each memory warning, until the returned token is cancelled or
    /// released.
    public func observeMemoryWarnings(_ handler: @escaping @Sendable () -> Void) -> LifecycleObservation {
        addObserver(handler, to: \.memoryWarningObservers)
    }
}
