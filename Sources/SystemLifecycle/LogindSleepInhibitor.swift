import AppLifecycle
import CSystemBus
import Glibc
import SwiftGPUSupport

/// Why a system-bus source could not start.
public enum SystemBusError: Error, Sendable, CustomStringConvertible {
    /// The bus could not be reached (a negative errno).
    case unreachable(errno: Int32)
    /// logind refused the inhibitor lock, or is not on the bus (a negative errno).
    case inhibitRefused(errno: Int32)
    /// The wake pipe could not be made.
    case resources

    /// A readable message.
    public var description: String {
        switch self {
        case .unreachable(let errno): "the D-Bus system bus could not be reached: \(String(cString: strerror(-errno)))"
        case .inhibitRefused(let errno): "logind refused a sleep inhibitor: \(String(cString: strerror(-errno)))"
        case .resources: "the bus thread's wake pipe could not be made"
        }
    }
}

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

/// Drains the app's GPU work before the machine suspends, as iOS's background task with
/// an expiration handler: it holds a logind `sleep` delay inhibitor lock; on
/// `PrepareForSleep(true)` it drives the lifecycle to the background (`willResignActive`,
/// `didEnterBackground`) with a deadline of logind's `InhibitDelayMaxUSec` less a margin,
/// then releases the lock, and logind suspends. On `PrepareForSleep(false)` it takes the
/// lock again and returns the app to where it was (`willEnterForeground`, and
/// `didBecomeActive` if it was active). `PrepareForShutdown(true)` is `willTerminate`.
///
/// One thread blocks on the bus connection (sd-bus, from libsystemd), woken only by the
/// bus or `stop()`.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the bus is used by the
/// thread alone after `init`.
public final class LogindSleepInhibitor: @unchecked Sendable {
    private let bus: OpaquePointer
    private let lifecycle: AppLifecycle
    private let who: String
    private let margin: Duration
    private let wake: (read: Int32, write: Int32)
    /// logind's longest delay for a delay lock; 5 s (logind's default) where it says none.
    public let inhibitDelayMax: Duration
    private let lock = ConditionLock()
    private var inhibitor: Int32 = -1
    private var wasActive = false
    private var records: [SleepRecord] = []
    private var stopping = false
    private var thread: ServiceThread?
    private var handler: (@Sendable (SleepRecord) -> Void)?

    /// Connects to the system bus, or the bus at `address` (`unix:path=...`), to drive
    /// `lifecycle`; `who` names the app in logind's list of inhibitors; the drain ends
    /// `margin` before logind's delay runs out.
    public init(lifecycle: AppLifecycle = .shared, address: String? = nil, who: String = "SwiftGPU",
                margin: Duration = .milliseconds(500)) throws(SystemBusError) {
        var error: Int32 = 0
        guard let bus = swiftgpu_bus_open(address, &error) else { throw .unreachable(errno: error) }
        guard let wake = closeOnExecPipe() else {
            swiftgpu_bus_close(bus)
            throw .resources
        }
        self.bus = bus
        self.wake = wake
        self.lifecycle = lifecycle
        self.who = who
        self.margin = margin
        let delay = swiftgpu_bus_inhibit_delay_max(bus)
        inhibitDelayMax = delay == 0 ? .seconds(5) : .microseconds(Int64(delay))
    }

    deinit {
        stop()
        lock.withLock { if inhibitor >= 0 { close(inhibitor) } }
        swiftgpu_bus_close(bus)
        close(wake.read)
        close(wake.write)
    }

    /// Takes the inhibitor lock and starts listening. Throws when logind refuses the lock
    /// (or is not there).
    public func start() throws(SystemBusError) {
        let fd = swiftgpu_bus_inhibit(bus, "sleep", who, "drain GPU work before sleep", "delay")
        guard fd >= 0 else { throw .inhibitRefused(errno: fd) }
        lock.withLock { inhibitor = fd }
        let started = ServiceThread.start(name: "SwiftGPU.logind", qos: .userInitiated, running: self) { $0.run() }
        lock.withLock { thread = started }
    }

    /// Stops listening and releases the lock.
    public func stop() {
        let running = lock.withLock { () -> ServiceThread? in
            stopping = true
            return thread
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        running?.join()
        lock.withLock {
            if inhibitor >= 0 { close(inhibitor) }
            inhibitor = -1
        }
    }

    /// Whether the inhibitor lock is held now.
    public var holdsInhibitor: Bool { lock.withLock { inhibitor >= 0 } }

    /// Every suspend so far, oldest first.
    public var sleeps: [SleepRecord] { lock.withLock { records } }

    /// Runs `handler` on the bus thread after each suspend's drain, once the lock is
    /// released: the timeline, for a log.
    public func onSleep(_ handler: @escaping @Sendable (SleepRecord) -> Void) { lock.withLock { self.handler = handler } }

    /// The bus thread: waits for PrepareForSleep and PrepareForShutdown and acts on them.
    private func run() {
        while !lock.withLock({ stopping }) {
            guard swiftgpu_bus_process(bus, wake.read) > 0 else { return }
            var kind: Int32 = 0, value: Int32 = 0
            while swiftgpu_bus_next_signal(bus, &kind, &value) == 1 {
                switch (Int(kind), value != 0) {
                case (Int(SWIFTGPU_BUS_SLEEP), true): prepareForSleep()
                case (Int(SWIFTGPU_BUS_SLEEP), false): resumed()
                case (Int(SWIFTGPU_BUS_SHUTDOWN), true): lifecycle.willTerminate()
                default: break
                }
            }
        }
    }

    private static var now: Duration { .nanoseconds(Int64(HostClock.nanoseconds())) }

    /// Before suspend: to the background with the drain bounded by logind's delay, then
    /// the lock goes.
    private func prepareForSleep() {
        let received = Self.now
        let deadline = max(inhibitDelayMax - margin, .zero)
        let active = lifecycle.state == .active
        lock.withLock { wasActive = active }
        if active { lifecycle.willResignActive() }
        let report = lifecycle.didEnterBackground(deadline: deadline)
        let drained = Self.now
        let (record, handler) = lock.withLock { () -> (SleepRecord, (@Sendable (SleepRecord) -> Void)?) in
            if inhibitor >= 0 { close(inhibitor) }
            inhibitor = -1
            let record = SleepRecord(received: received, drained: drained, released: Self.now, report: report, deadline: deadline)
            records.append(record)
            return (record, self.handler)
        }
        handler?(record)
    }

    /// After resume: the lock again, then back to where the app was.
    private func resumed() {
        let fd = swiftgpu_bus_inhibit(bus, "sleep", who, "drain GPU work before sleep", "delay")
        let active = lock.withLock { () -> Bool in
            if fd >= 0 { inhibitor = fd }
            return wasActive
        }
        lifecycle.willEnterForeground()
        if active { lifecycle.didBecomeActive() }
    }
}
