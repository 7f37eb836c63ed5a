import CVulkan.XCB
import CWaylandInput
import CXCBInput
import Foundation
import GPU
@testable import GPUWayland
import GPUTestSupport
import PointerInput
import SwiftGPUSupport
import Testing

/// Pointer samples from a Wayland seat: Weston on its X11 backend takes the X server's
/// pointer motion, which XTest makes; the toplevel is fullscreen, so the pointer is over it.
@Suite("Wayland input source on Weston", .validated)
struct WaylandInputSourceTests {
    @Test("a press, moves and a release through wl_pointer frames: phases, surface positions, nanosecond timestamps")
    func pointerStroke() throws {
        let server = try XvfbServer(width: 1280, height: 800)
        let weston = try WestonServer(xDisplay: server.display)
        let gpu = try TestGPU()
        let window = try WaylandToplevel(socketPath: weston.socketPath, adapter: nil, fullscreen: true)
        let surface = try #require(window.surface)
        // Weston's X11 output is 1024×600; the fullscreen toplevel maps with its first frame.
        let layer = try Layer(device: gpu.device, surface: .wayland(display: window.display, surface: surface))
        layer.drawableSize = Size2D(width: 1024, height: 600)
        let waiter = PresentWaiter()
        try gpu.present(try #require(layer.nextDrawable()), red: 0, waiter: waiter)
        #expect(waiter.wait(for: 1))
        window.roundtrip()

        let source = try WaylandInputSource(display: window.display, surface: surface)
        #expect(source.capabilities.contains(.pointer))
        #expect(source.capabilities.contains(.timestamps), "Weston offers zwp_input_timestamps_v1")
        let samples = LockedValue<[InputSample]>([], rank: .leaf("WaylandInputSourceTests.samples"))
        let arrived = DispatchSemaphore(value: 0)
        source.start { sample in
            samples.withLock { $0.append(sample) }
            arrived.signal()
        }
        // On every way out, a failed wait included: the source's thread stops before the
        // connection, the compositor and the X server go.
        defer {
            source.stop()
            withExtendedLifetime((window, weston, server)) {}
        }
        let x = try XcbConnection(display: server.display)
        let raw = UnsafeMutableRawPointer(x.connection)
        // Weston gives a surface the pointer's focus when its pointer moves over it, and at
        // a repaint after the surface can be picked, which may come before or after the
        // first injection as the machine is loaded; and its X11 backend moves its pointer
        // by the X pointer's motion since the last X event it took, clamped to the output.
        // Beside other tests' servers, one of the first X motions sometimes moves neither
        // Weston's pointer nor reaches a client (seen in its protocol log: no event, while
        // the next motion moves the pointer by the difference from that one). So the stroke
        // waits until the surface has the focus (a sample came, by an enter or a motion),
        // then makes a small motion, back and forth, until one came to it as a motion.
        /// Waits until the samples so far satisfy `condition`: at most `patience` for each
        /// sample, dispatching the toplevel's own queue every 10 ms meanwhile, and once more
        /// at the end, as a host's event loop does: the desktop shell pings a client whose
        /// surface gets the pointer's focus, and one that does not answer within 200 ms is
        /// busy, its pointer motion taken by the shell's busy-cursor grab. A wait that runs
        /// out records an issue when `what` names what it waited for.
        func wait(for what: String?, patience: Int = 5_000, until condition: ([InputSample]) -> Bool) -> Bool {
            var quiet = 0
            while !samples.withLock({ condition($0) }) {
                window.roundtrip()
                if arrived.wait(timeout: .now() + .milliseconds(10)) == .success {
                    quiet = 0
                    continue
                }
                quiet += 10
                guard quiet < patience else {
                    if let what {
                        Issue.record("\(what) did not come: \(samples.withLock { $0 })\nweston.log:\n\(weston.logTail())")
                    }
                    return false
                }
            }
            window.roundtrip()
            return true
        }
        swiftgpu_xtest_motion(raw, x.screen.root, 80, 90)
        x.sync()
        guard wait(for: "the pointer's focus", until: { !$0.isEmpty }) else { return }
        for attempt in 1...20 {
            swiftgpu_xtest_motion(raw, x.screen.root, 90, 95)
            x.sync()
            if wait(for: nil, patience: 250, until: { $0.last?.unacceleratedDelta == [10, 5] }) { break }
            guard attempt < 20 else {
                Issue.record("no motion over the surface came in 20 tries: \(samples.withLock { $0 })\nweston.log:\n\(weston.logTail())")
                return
            }
            swiftgpu_xtest_motion(raw, x.screen.root, 80, 90)
            x.sync()
        }
        let before = samples.withLock { $0.count }
        var injected: [UInt64] = []
        /// The samples made since the first injection of the stroke.
        func made() -> [InputSample] { samples.withLock { Array($0.dropFirst(before)) } }
        /// Injects one action and waits for the sample it makes.
        func inject(_ action: () -> Void) {
            injected.append(HostClock.nanoseconds())
            action()
            x.sync()
            _ = wait(for: "a sample for injection \(injected.count)") { $0.count - before >= injected.count }
        }
        inject { swiftgpu_xtest_motion(raw, x.screen.root, 100, 100) }
        inject { swiftgpu_xtest_button(raw, 1, 1) }
        inject { swiftgpu_xtest_motion(raw, x.screen.root, 150, 120) }
        inject { swiftgpu_xtest_motion(raw, x.screen.root, 200, 140) }
        inject { swiftgpu_xtest_button(raw, 1, 0) }
        source.stop()
        let got = made()
        #expect(got.map(\.phase) == [.hovering, .began, .moved, .moved, .ended], "\(got.map(\.phase))")
        // The positions follow the injected ones from the first.
        let origin = try #require(got.first).position
        #expect(got.map { $0.position - origin } == [[0, 0], [0, 0], [50, 20], [100, 40], [100, 40]])
        #expect(got.allSatisfy { $0.device == .pointer && $0.contact == 0 })
        // The seat's own motion, unaccelerated, with the motion it came with: it adds up to
        // the pointer's travel.
        #expect(source.capabilities.contains(.relativeMotion))
        #expect(got.map(\.unacceleratedDelta) == [[10, 5], nil, [50, 20], [50, 20], nil])
        let travel = got.compactMap(\.unacceleratedDelta).reduce(SIMD2<Double>.zero, +)
        #expect(travel == [110, 45], "\(got.map(\.unacceleratedDelta))")
        // Times are the compositor's nanoseconds, mapped: after each injection, and before the
        // next one was made.
        for (index, sample) in got.prefix(injected.count).enumerated() {
            #expect(sample.timestamp >= .nanoseconds(Int64(injected[index])) - .milliseconds(1), "sample \(index)")
            if index + 1 < injected.count {
                #expect(sample.timestamp <= .nanoseconds(Int64(injected[index + 1])) + .milliseconds(1), "sample \(index)")
            }
        }
        withExtendedLifetime((layer, window)) {}
    }

    @Test("touch records are touch contacts by id; a pen's pressure (0–65535) and tilt (degrees) are scaled")
    func touchAndPenRecords() {
        // Weston's X11 and headless backends have no touch screen or tablet: records as the
        // wl_touch and tablet-tool frames make them go through the same mapping.
        var touch = SwiftGPUWaylandInputRecord()
        touch.kind = SWIFTGPU_WL_TOUCH
        touch.phase = 2
        touch.contact = 5
        touch.x = 12.5
        touch.y = 3
        let lifted = WaylandInputSource.sample(from: touch, time: .milliseconds(7))
        #expect(lifted.device == .touch && lifted.contact == 5 && lifted.phase == .ended && lifted.position == [12.5, 3])
        #expect(lifted.pressure == nil && lifted.tilt == nil && lifted.unacceleratedDelta == nil)
        #expect(lifted.timestamp == .milliseconds(7))

        var pen = SwiftGPUWaylandInputRecord()
        pen.kind = SWIFTGPU_WL_PEN
        pen.phase = 1
        pen.pressure = 65535.0 / 4
        pen.has_pressure = 1
        pen.tilt_x = 90
        pen.tilt_y = -30
        pen.has_tilt = 1
        let moved = WaylandInputSource.sample(from: pen, time: .zero)
        #expect(moved.device == .pen && moved.phase == .moved && moved.pressure == 0.25)
        #expect(moved.tilt == [Double.pi / 2, -Double.pi / 6])
        pen.phase = 4
        #expect(WaylandInputSource.sample(from: pen, time: .zero).phase == .hovering)
    }
}
