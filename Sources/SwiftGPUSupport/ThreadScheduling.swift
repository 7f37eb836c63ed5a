import Dispatch
import Glibc

/// What a quality of service means for a thread on Linux, where Foundation's
/// `Thread.qualityOfService` changes nothing. Each of the package's own threads applies its
/// class when it starts:
///
/// | class | scheduling |
/// |---|---|
/// | `.userInteractive` | `SCHED_RR` at priority 1 where the process may (`RLIMIT_RTPRIO` ≥ 1 or `CAP_SYS_NICE`, and a control group with a real-time budget), else nice −10 where it may, else unchanged |
/// | `.userInitiated` | nice −5 where the process may, else unchanged |
/// | `.default` | unchanged |
/// | `.utility` | nice 5 |
/// | `.background` | nice 10 |
///
/// Raising a thread above the default needs a privilege the process may lack; lowering it
/// never does. A raised thread is marked `SCHED_RESET_ON_FORK`, so threads it starts (a
/// driver's) get the default scheduling rather than inheriting its own.
package enum ThreadScheduling {
    /// The scheduling a thread ended up with.
    package enum Applied: Equatable, Sendable {
        /// A real-time policy (`SCHED_RR`) at `priority`.
        case realTime(priority: Int32)
        /// The default policy at `nice`.
        case nice(Int32)
    }

    /// Linux's flag (sched.h, `__USE_GNU`, which Glibc's module lacks) that gives a raised
    /// thread's children the default scheduling.
    private static let resetOnFork: Int32 = 0x4000_0000

    /// Applies `qos` to the calling thread as the table above says; returns what it got.
    @discardableResult
    package static func apply(_ qos: DispatchQoS.QoSClass) -> Applied {
        switch qos {
        case .userInteractive:
            var parameters = sched_param(sched_priority: 1)
            if sched_setscheduler(0, SCHED_RR | resetOnFork, &parameters) == 0 { return .realTime(priority: 1) }
            return setNice(-10)
        case .userInitiated: return setNice(-5)
        case .utility: return setNice(5)
        case .background: return setNice(10)
        default: return current()
        }
    }

    /// The calling thread's scheduling now.
    package static func current() -> Applied {
        var parameters = sched_param()
        if sched_getparam(0, &parameters) == 0, sched_getscheduler(0) & ~resetOnFork == SCHED_RR {
            return .realTime(priority: parameters.sched_priority)
        }
        return .nice(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    }

    /// Sets the calling thread's nice value (Linux keeps one per thread) to `value`, and
    /// marks it reset-on-fork when raised; keeps the current one where not permitted.
    private static func setNice(_ value: Int32) -> Applied {
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value) == 0, value < 0 {
            var parameters = sched_param(sched_priority: 0)
            _ = sched_setscheduler(0, SCHED_OTHER | resetOnFork, &parameters)
        }
        return current()
    }
}
