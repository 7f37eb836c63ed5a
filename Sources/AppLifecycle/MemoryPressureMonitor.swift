import Dispatch
import Glibc
import SwiftGPUSupport

/// Delivers memory warnings from the kernel's pressure stall information, for where
/// low-memory-monitor is not on the system bus: a PSI trigger on `/proc/pressure/memory`
/// (some task stalled on memory for `stall` within `window`) wakes a thread blocked in
/// `poll`, which calls the lifecycle's `didReceiveMemoryWarning()`.
///
/// `@unchecked Sendable`: `stopping` is guarded by `lock`; the descriptors are fixed after
/// `init`.
public final class MemoryPressureMonitor: @unchecked Sendable {
    private let trigger: Int32
    private let wake: (read: Int32, write: Int32)
    private let lifecycle: AppLifecycle
    private let lock = ConditionLock(rank: .leaf("MemoryPressureMonitor.lock"))
    private var stopping = false
    private var thread: ServiceThread?

    /// Installs the trigger on `path`, or returns nil where the kernel has no PSI or
    /// refuses the trigger (an unprivileged trigger's window must be a multiple of 2 s).
    public init?(lifecycle: AppLifecycle, path: String = "/proc/pressure/memory",
                 stall: Duration = .milliseconds(150), window: Duration = .seconds(2)) {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let line = "some \(Int64(stall / .microseconds(1))) \(Int64(window / .microseconds(1)))"
        let written = line.withCString { write(fd, $0, strlen($0) + 1) }
        guard written > 0, let wake = closeOnExecPipe() else {
            close(fd)
            return nil
        }
        trigger = fd
        self.wake = wake
        self.lifecycle = lifecycle
        let started = ServiceThread.start(name: "SwiftGPU.memoryPressure", qos: .utility, running: self) { $0.watch() }
        lock.withLock { thread = started }
    }

    deinit {
        for fd in [trigger, wake.read, wake.write] { close(fd) }
    }

    /// Stops the watch and joins the thread.
    public func stop() {
        let running = lock.withLock { () -> ServiceThread? in
            stopping = true
            defer { thread = nil }
            return thread
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        running?.join()
    }

    private func watch() {
        var fds = [pollfd(fd: trigger, events: Int16(POLLPRI), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while !lock.withLock({ stopping }) {
            guard poll(&fds, 2, -1) > 0 else { continue }
            if fds[1].revents != 0 || fds[0].revents & Int16(POLLERR) != 0 { return }
            if fds[0].revents & Int16(POLLPRI) != 0 { lifecycle.didReceiveMemoryWarning() }
        }
    }
}
