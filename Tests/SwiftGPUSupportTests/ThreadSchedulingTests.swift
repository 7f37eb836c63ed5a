import Foundation
import Glibc
import Testing
import SwiftGPUSupport

/// What this process may do, read from the kernel independently of `ThreadScheduling`: its
/// effective capabilities and its limits.
enum SchedulingPermissions {
    /// Whether `CAP_SYS_NICE` (capability 23) is in the effective set.
    static var hasSysNice: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 23) != 0
    }

    /// The soft limit of resource `resource`.
    static func limit(_ resource: __rlimit_resource) -> UInt64 {
        var value = rlimit()
        getrlimit(__rlimit_resource_t(resource.rawValue), &value)
        return UInt64(value.rlim_cur)
    }

    /// Whether a thread of this process may take `SCHED_RR`: the privilege (`CAP_SYS_NICE` or
    /// `RLIMIT_RTPRIO` ≥ 1), and a kernel that grants it. Under cgroup v2 with real-time group
    /// scheduling, a control group without a real-time budget refuses even root, so the
    /// kernel is asked, on a thread that ends right after.
    static let mayUseRealTime: Bool = (hasSysNice || limit(__RLIMIT_RTPRIO) >= 1) && onNewThread {
        var parameters = sched_param(sched_priority: 1)
        return pthread_setschedparam(pthread_self(), SCHED_RR, &parameters) == 0
    }

    /// Whether the process may set a thread's nice value to `value` from `current`
    /// (`RLIMIT_NICE` holds 20 − the lowest nice value allowed).
    static func maySetNice(_ value: Int32, from current: Int32) -> Bool {
        value >= current || hasSysNice || limit(__RLIMIT_NICE) >= UInt64(20 - value)
    }

    /// The scheduling the table in `ThreadScheduling`'s notes promises for `qos` on a new
    /// thread started by one at nice `base`.
    static func expected(_ qos: DispatchQoS.QoSClass, base: Int32) -> ThreadScheduling.Applied {
        let nice = { (value: Int32) in ThreadScheduling.Applied.nice(maySetNice(value, from: base) ? value : base) }
        switch qos {
        case .userInteractive: return mayUseRealTime ? .realTime(priority: 1) : nice(-10)
        case .userInitiated: return nice(-5)
        case .utility: return nice(5)
        case .background: return nice(10)
        default: return .nice(base)
        }
    }
}

/// Runs `body` on a new thread and returns its result.
func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let result = LockedValue<T?>(nil, rank: .leaf("ThreadSchedulingTests.result"))
    let done = DispatchSemaphore(value: 0)
    Thread {
        let value = body()   // run before the lock: the body may take locks of its own
        result.withLock { $0 = value }
        done.signal()
    }.start()
    done.wait()
    return result.withLock { $0! }
}

@Suite("Thread scheduling for quality of service")
struct ThreadSchedulingTests {
    static let classes: [DispatchQoS.QoSClass] = [.userInteractive, .userInitiated, .default, .utility, .background]

    @Test("each class gets the scheduling the table promises where this process may, and never more", arguments: classes)
    func mapping(qos: DispatchQoS.QoSClass) {
        let base = onNewThread { ThreadScheduling.current() }
        guard case .nice(let baseNice) = base else {
            Issue.record("the test process runs with a real-time policy: \(base)")
            return
        }
        let (applied, seen) = onNewThread { (ThreadScheduling.apply(qos), ThreadScheduling.current()) }
        #expect(applied == SchedulingPermissions.expected(qos, base: baseNice))
        #expect(seen == applied)
    }

    @Test("threads a raised thread starts get the default scheduling")
    func childrenReset() {
        let base = onNewThread { ThreadScheduling.current() }
        let (parent, child) = onNewThread {
            (ThreadScheduling.apply(.userInteractive), onNewThread { ThreadScheduling.current() })
        }
        print("userInteractive here: \(parent); its child: \(child)")
        #expect(child == base)
    }
}
