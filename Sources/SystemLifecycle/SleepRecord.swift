import AppLifecycle

/// What happened around one suspend, in host monotonic time.
public struct SleepRecord: Sendable, Hashable {
    /// `PrepareForSleep(true)` arrived.
    public var received: Duration
    /// The drain ended (its report is `report`).
    public var drained: Duration
    /// The inhibitor lock was released: logind may suspend.
    public var released: Duration
    /// The drain.
    public var report: DrainReport
    /// The deadline the drain had: logind's `InhibitDelayMaxUSec` less the margin.
    public var deadline: Duration
}
