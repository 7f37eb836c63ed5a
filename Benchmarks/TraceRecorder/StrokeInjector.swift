import CVulkan.XCB
import CXCBInput
import Foundation
import Glibc
import SwiftGPUSupport

/// Moves the X pointer with XTest along a path in real time, on a connection and thread
/// of its own: path time t is sent at host time `start` + t, rounded to a whole pixel, and
/// only when that differs from the last position sent, as a mouse reports only motion (X
/// delivers a motion event for every XTest motion, moved or not).
final class StrokeInjector: @unchecked Sendable {   // `injected` is written by the thread before `done` is signalled
    /// One position sent: the path time it stands for, the host time it was sent at, and where.
    struct Sent {
        var pathTime: Double
        var hostTime: UInt64
        var position: SIMD2<Double>
    }

    let path: @Sendable (Double) -> SIMD2<Double>
    let duration: Double
    let rate: Double
    /// Host time (CLOCK_MONOTONIC nanoseconds) of path time 0.
    let start: UInt64
    private(set) var injected: [Sent] = []
    private let done = DispatchSemaphore(value: 0)

    /// Sends `path` over 0...`duration` at `rate` positions a second, path time 0 at host
    /// time `start`: the pointer is put at the path's first position 150 ms before.
    init(path: @escaping @Sendable (Double) -> SIMD2<Double>, duration: Double, rate: Double, start: UInt64) {
        self.path = path
        self.duration = duration
        self.rate = rate
        self.start = start
    }

    /// Starts the injecting thread.
    func begin() {
        let thread = Thread { [self] in run() }
        thread.start()
    }

    /// Waits until the whole path was sent (once), then `injected` holds it.
    func wait() { done.wait() }

    /// The most a position was sent after its time (start + path time), in seconds.
    var lateness: Double {
        injected.dropFirst().map { Double(Int64($0.hostTime) - Int64(start)) / 1e9 - $0.pathTime }.max() ?? 0
    }

    private func run() {
        defer { done.signal() }
        // Real-time scheduling where the system allows it (root), so that a busy machine
        // wakes the sender on time; elsewhere late recordings are made again (`lateness`).
        var priority = sched_param(sched_priority: 10)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority)
        guard let connection = xcb_connect(nil, nil), xcb_connection_has_error(connection) == 0 else { return }
        defer { xcb_disconnect(connection) }
        let root = xcb_setup_roots_iterator(xcb_get_setup(connection)).data.pointee.root
        let raw = UnsafeMutableRawPointer(connection)
        let first = path(0).rounded(.toNearestOrEven)
        Self.sleep(until: start - 150_000_000)
        swiftgpu_xtest_motion(raw, root, Int16(first.x), Int16(first.y))
        injected.append(Sent(pathTime: 0, hostTime: HostClock.nanoseconds(), position: first))
        var index = 1
        while Double(index) / rate <= duration {
            let time = Double(index) / rate
            Self.sleep(until: start + UInt64((time * 1e9).rounded()))
            let position = path(time).rounded(.toNearestOrEven)
            index += 1
            guard position != injected[injected.count - 1].position else { continue }
            let sent = HostClock.nanoseconds()
            swiftgpu_xtest_motion(raw, root, Int16(position.x), Int16(position.y))
            injected.append(Sent(pathTime: time, hostTime: sent, position: position))
        }
        // Disconnecting at once can lose the motion just sent.
        Self.sleep(until: start + UInt64((duration * 1e9).rounded()) + 100_000_000)
    }

    /// Sleeps until host monotonic time `deadline` (nanoseconds).
    static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
