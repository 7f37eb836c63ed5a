import CVulkan.XCB
import CXCBInput
import Foundation
@testable import GPUXCB
import GPUTestSupport
import PointerInput
import SwiftGPUSupport
import Testing

/// Pointer samples from XInput 2 on Xvfb, driven by XTest: positions, phases, and server
/// timestamps mapped onto the host's monotonic clock.
@Suite("XInput source on Xvfb")
struct XInputSourceTests {
    /// Hands every event the connection has to `source` until `done` holds (5 s at most).
    static func pump(_ x: XcbConnection, _ source: XInputSource, until done: () -> Bool) -> Bool {
        let deadline = HostClock.nanoseconds() + 5_000_000_000
        while !done() {
            guard HostClock.nanoseconds() < deadline else { return false }
            if let event = xcb_poll_for_event(x.connection) {
                source.handle(UnsafeRawPointer(event))
                free(event)
            } else {
                var ready = pollfd(fd: xcb_get_file_descriptor(x.connection), events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 50)
            }
        }
        return true
    }

    @Test("a press, two moves and a release: phases, window positions, and host times between injection and arrival")
    func pointerStroke() throws {
        let server = try XvfbServer(width: 256, height: 256)
        let x = try XcbConnection(display: server.display)
        let window = x.makeWindow(width: 200, height: 200)
        let source = try XInputSource(connection: x.connection, window: window)
        let samples = LockedValue<[InputSample]>([], rank: .leaf("XInputSourceTests.samples"))
        source.start { sample in samples.withLock { $0.append(sample) } }
        let raw = UnsafeMutableRawPointer(x.connection)
        // Host time before each injection and after its sample was handled: the event loop
        // reads each event as it comes, as an app's does.
        var injected: [(UInt64, UInt64)] = []
        func inject(_ action: () -> Void) {
            let before = HostClock.nanoseconds()
            let count = samples.withLock { $0.count }
            action()
            #expect(Self.pump(x, source) { samples.withLock { $0.count } > count })
            injected.append((before, HostClock.nanoseconds()))
        }
        inject { swiftgpu_xtest_motion(raw, x.screen.root, 10, 10) }
        inject { swiftgpu_xtest_button(raw, 1, 1) }
        inject { swiftgpu_xtest_motion(raw, x.screen.root, 20, 15) }
        inject { swiftgpu_xtest_motion(raw, x.screen.root, 30, 20) }
        inject { swiftgpu_xtest_button(raw, 1, 0) }
        let got = samples.withLock { $0 }
        #expect(got.map(\.phase) == [.hovering, .began, .moved, .moved, .ended])
        #expect(got.map(\.position) == [[10, 10], [10, 10], [20, 15], [30, 20], [30, 20]])
        #expect(got.allSatisfy { $0.device == .pointer && $0.contact == got[0].contact && $0.pressure == nil })
        // Each sample's time is the server's, mapped: from a millisecond before its injection
        // (the server counts whole milliseconds) to a millisecond after it was handled.
        for (sample, (before, after)) in zip(got, injected) {
            let time = sample.timestamp
            #expect(time >= .nanoseconds(Int64(before)) - .milliseconds(1), "\(time) against \(before)")
            #expect(time <= .nanoseconds(Int64(after)) + .milliseconds(1), "\(time) against \(after)")
        }
        source.stop()
        swiftgpu_xtest_motion(raw, x.screen.root, 40, 40)
        x.sync()
        var handled = false
        while let event = xcb_poll_for_event(x.connection) {
            handled = source.handle(UnsafeRawPointer(event)) || handled
            free(event)
        }
        #expect(handled, "the motion reached the source")
        #expect(samples.withLock { $0.count } == 5, "no sample after stop()")
    }

    @Test("raw motion: each pointer sample carries the device's own motion since the previous one, outside the window too")
    func rawMotion() throws {
        let server = try XvfbServer(width: 256, height: 256)
        let x = try XcbConnection(display: server.display)
        let window = x.makeWindow(width: 200, height: 200)
        let source = try XInputSource(connection: x.connection, window: window, rawMotion: true)
        let samples = LockedValue<[InputSample]>([], rank: .leaf("XInputSourceTests.samples"))
        source.start { sample in samples.withLock { $0.append(sample) } }
        let raw = UnsafeMutableRawPointer(x.connection)
        // XTest's pointer is a relative device; its relative fake motion is what a mouse's
        // counts are. (Its absolute fake motion reports positions as raw values: an XTest
        // quirk no real relative device has.)
        func move(_ steps: [(Int16, Int16)]) {
            let count = samples.withLock { $0.count }
            for (dx, dy) in steps { swiftgpu_xtest_relative_motion(raw, dx, dy) }
            #expect(Self.pump(x, source) { samples.withLock { $0.count } > count })
        }
        move([(5, 3)])
        move([(-20, 10)])
        // Out of the window (no sample there) and back: the travel outside is in the delta.
        move([(100, 0), (-50, -4)])
        let got = samples.withLock { $0 }
        #expect(got.map(\.unacceleratedDelta) == [[5, 3], [-20, 10], [50, -4]])
        // Xvfb does not accelerate these: each sample's position moved by its raw motion.
        #expect(got.count == 3 && got[1].position - got[0].position == [-20, 10] && got[2].position - got[1].position == [50, -4])
    }

    /// An unpacked event of `kind` at (`x`, `y`) with `valuators` (number: value).
    static func event(_ kind: SwiftGPUXIKind, detail: UInt32 = 1, x: Double = 0, y: Double = 0,
                      valuators: [(UInt16, Double)] = []) -> SwiftGPUXIEvent {
        var event = SwiftGPUXIEvent()
        event.kind = kind
        event.sourceid = 9
        event.detail = detail
        event.x = x
        event.y = y
        withUnsafeMutableBytes(of: &event.valuator_numbers) { numbers in
            withUnsafeMutableBytes(of: &event.valuator_values) { values in
                for (index, (number, value)) in valuators.enumerated() {
                    numbers.storeBytes(of: number, toByteOffset: index * 2, as: UInt16.self)
                    values.storeBytes(of: value, toByteOffset: index * 8, as: Double.self)
                }
            }
        }
        event.valuator_count = Int32(valuators.count)
        return event
    }

    @Test("XI 2.2 touches are touch contacts by touch id; a pen's pressure and tilt come from its labelled valuators")
    func touchAndPen() {
        // Xvfb has neither touch screens nor tablets (XTest makes neither): the events a
        // touch screen and a Wacom pen send, unpacked, go through the same mapping.
        var pressed = Set<UInt16>()
        let touches = [(SWIFTGPU_XI_TOUCH_BEGIN, 40, 1.5), (SWIFTGPU_XI_TOUCH_UPDATE, 40, 2.5),
                       (SWIFTGPU_XI_TOUCH_BEGIN, 41, 7.0), (SWIFTGPU_XI_TOUCH_END, 40, 3.0)]
            .compactMap { kind, id, x in
                XInputSource.sample(from: Self.event(kind, detail: UInt32(id), x: x, y: 4), axes: .init(),
                                    time: .milliseconds(1), pressed: &pressed)
            }
        #expect(touches.map(\.device) == [.touch, .touch, .touch, .touch])
        #expect(touches.map(\.contact) == [40, 40, 41, 40])
        #expect(touches.map(\.phase) == [.began, .moved, .began, .ended])
        #expect(touches.map(\.position.x) == [1.5, 2.5, 7.0, 3.0])
        #expect(pressed.isEmpty, "touches hold no button")

        var pen = XInputSource.Axes()
        pen.isPen = true
        pen.pressure = (2, 0, 2048)
        pen.tiltX = (3, -64, 63)
        pen.tiltY = (4, -64, 63)
        let down = XInputSource.sample(from: Self.event(SWIFTGPU_XI_BUTTON_PRESS, x: 10, y: 20,
                                                        valuators: [(0, 10), (1, 20), (2, 512), (3, 30), (4, -45)]),
                                       axes: pen, time: .milliseconds(2), pressed: &pressed)
        let move = XInputSource.sample(from: Self.event(SWIFTGPU_XI_MOTION, x: 11.25, y: 20, valuators: [(2, 1024)]),
                                       axes: pen, time: .milliseconds(3), pressed: &pressed)
        let other = XInputSource.sample(from: Self.event(SWIFTGPU_XI_BUTTON_PRESS, detail: 3), axes: pen,
                                        time: .milliseconds(4), pressed: &pressed)
        #expect(down?.device == .pen && down?.phase == .began && down?.pressure == 0.25)
        #expect(down?.tilt == SIMD2(30, -45) * (Double.pi / 180))
        #expect(move?.phase == .moved && move?.pressure == 0.5 && move?.position == [11.25, 20])
        #expect(move?.tilt == nil, "a motion without tilt valuators has no tilt")
        #expect(other == nil, "buttons other than the first make no sample")
    }

    @Test("raw motion of a relative device is summed until the next sample; an absolute one's first position is no motion")
    func rawMotionAccumulates() {
        func event(_ x: Double?, _ y: Double?) -> SwiftGPUXIEvent {
            Self.event(SWIFTGPU_XI_RAW_MOTION, valuators: [(UInt16(0), x), (1, y)].compactMap { number, value in
                value.map { (number, $0) }
            })
        }
        var relative = XInputSource.RawMotion()
        XInputSource.accumulate(event(3, -1), relative: true, into: &relative)
        XInputSource.accumulate(event(nil, 4), relative: true, into: &relative)
        XInputSource.accumulate(event(0.5, nil), relative: true, into: &relative)
        #expect(relative.pending == [3.5, 3])
        var absolute = XInputSource.RawMotion()
        XInputSource.accumulate(event(100, 50), relative: false, into: &absolute)
        #expect(absolute.pending == nil)
        XInputSource.accumulate(event(nil, 58), relative: false, into: &absolute)
        XInputSource.accumulate(event(97, nil), relative: false, into: &absolute)
        #expect(absolute.pending == [-3, 8])
        var unknown = XInputSource.RawMotion()
        XInputSource.accumulate(event(1, 1), relative: nil, into: &unknown)
        #expect(unknown.pending == nil && unknown.lastPosition == nil)
    }

    @Test("a window on a server without XInput's touch events, or not of the connection, is refused")
    func errors() throws {
        let server = try XvfbServer(width: 64, height: 64)
        let x = try XcbConnection(display: server.display)
        #expect(throws: XInputError.self) { try XInputSource(connection: x.connection, window: 0x0BAD_BEEF) }
        #expect("\(XInputError.selectionFailed(window: 7))" == "could not select XInput events on window 7")
    }
}
