import CVulkan.XCB
import CXCBInput
import Foundation
import Glibc
import SwiftGPUSupport

/// Moves the X pointer with XTest along horizontal sweeps at a fixed rate and speed, on a
/// connection and thread of its own, and records when it put the pointer where.
final class Injector: @unchecked Sendable {   // `path` is written by the thread before `done` is signalled
    /// One injected position and the host time it was sent at.
    struct Point {
        var time: UInt64
        var x: Double
        var y: Double
        var sweep: Int
    }

    let rate: Double
    let speed: Double
    let rows: [Double]
    let span: ClosedRange<Double>
    private(set) var path: [Point] = []
    private let done = DispatchSemaphore(value: 0)

    /// Sweeps from `span.lowerBound` to `span.upperBound` at `speed` px/s along each of `rows`,
    /// `rate` positions a second.
    init(rate: Double, speed: Double, rows: [Double], span: ClosedRange<Double>) {
        self.rate = rate
        self.speed = speed
        self.rows = rows
        self.span = span
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.start()
    }

    /// Waits until every sweep was injected (once); the recorded path, also `path` after it.
    func finish() -> [Point] {
        done.wait()
        return path
    }

    private func run() {
        guard let connection = xcb_connect(nil, nil), xcb_connection_has_error(connection) == 0 else {
            done.signal()
            return
        }
        let root = xcb_setup_roots_iterator(xcb_get_setup(connection)).data.pointee.root
        let raw = UnsafeMutableRawPointer(connection)
        let interval = UInt64(1e9 / rate)
        var next = HostClock.nanoseconds() + 50_000_000
        for (sweep, y) in rows.enumerated() {
            // A pause between sweeps, so that each starts from rest.
            next += 200_000_000
            var x = span.lowerBound
            while x <= span.upperBound {
                Self.sleep(until: next)
                let time = HostClock.nanoseconds()
                swiftgpu_xtest_motion(raw, root, Int16(x.rounded()), Int16(y.rounded()))
                path.append(Point(time: time, x: x.rounded(), y: y.rounded(), sweep: sweep))
                next += interval
                x += speed / rate
            }
        }
        Self.sleep(until: next + 200_000_000)
        xcb_disconnect(connection)
        done.signal()
    }

    /// Sleeps until host monotonic time `deadline` (nanoseconds).
    static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
