import CXCBInput
import Foundation
import PointerInput
import SwiftGPUSupport

/// Why an `XInputSource` could not be made.
public enum XInputError: Error, Sendable, CustomStringConvertible {
    /// The X server does not offer XInput 2.2 (touch events).
    case unavailable
    /// Input events could not be selected on the window (is it a window of this connection?).
    case selectionFailed(window: UInt32)

    /// A readable message.
    public var description: String {
        switch self {
        case .unavailable: "the X server does not offer XInput 2.2"
        case .selectionFailed(let window): "could not select XInput events on window \(window)"
        }
    }
}

/// Pointer, touch and pen samples of an X11 window, from XInput 2 events on the app's own
/// xcb connection: the host selects them with this source and passes each event its loop
/// reads to `handle(_:)`, as it does for `XCBLifecycleAdapter`.
///
/// - Pointer: button 1 down, motion, button 1 up are `.began`, `.moved`, `.ended`; motion
///   with no button is `.hovering`. The contact is the physical device's id.
/// - Touch (XI 2.2): begin, update, end; the contact is the touch's id.
/// - Pen: a device whose name says stylus, pen or eraser; pressure from its "Abs Pressure"
///   valuator (0 to 1 over its range) and tilt from "Abs Tilt X/Y" (degrees, as tablets
///   report them, in radians here).
/// - Positions are the event's window coordinates, fractional where the device is finer than
///   a pixel; timestamps are the server's milliseconds mapped onto `CLOCK_MONOTONIC` with a
///   `ServerTimeMapping` learnt from the events' arrival.
///
/// `@unchecked Sendable`: the connection is xcb's (thread-safe); the rest is guarded by
/// `state`'s lock.
public final class XInputSource: InputSource, @unchecked Sendable {
    private let connection: UnsafeMutableRawPointer
    /// The window whose events are this source's.
    public let window: UInt32
    private let opcode: UInt8
    private let state = LockedValue(State())

    /// A physical device's valuators that samples read.
    struct Axes {
        var isPen = false
        var pressure: (number: UInt16, min: Double, max: Double)?
        var tiltX: (number: UInt16, min: Double, max: Double)?
        var tiltY: (number: UInt16, min: Double, max: Double)?
    }

    private struct State {
        var sink: InputSink?
        var mapping = ServerTimeMapping(units: .milliseconds32)
        var axes: [UInt16: Axes] = [:]
        /// Physical devices with button 1 down.
        var pressed: Set<UInt16> = []
    }

    /// Selects XInput 2 button, motion and touch events of every master device on `window`
    /// (on `connection`, the app's). Throws when the server lacks XInput 2.2 or refuses the
    /// selection.
    public init(connection: OpaquePointer, window: UInt32) throws(XInputError) {
        let raw = UnsafeMutableRawPointer(connection)
        let opcode = swiftgpu_xinput_opcode(raw)
        guard opcode != 0 else { throw .unavailable }
        guard swiftgpu_xinput_select(raw, window) == 1 else { throw .selectionFailed(window: window) }
        self.connection = raw
        self.window = window
        self.opcode = opcode
    }

    /// Delivers samples to `sink` from the next handled event on.
    public func start(_ sink: @escaping InputSink) { state.withLock { $0.sink = sink } }

    /// Delivers no more samples.
    public func stop() { state.withLock { $0.sink = nil } }

    /// Takes one event the host's loop read (an `xcb_generic_event_t *`): true when it was
    /// an XInput device event of this source's window (its sample, if any, has gone to the
    /// sink), false for any other event.
    @discardableResult
    public func handle(_ event: UnsafeRawPointer) -> Bool {
        var unpacked = SwiftGPUXIEvent()
        guard swiftgpu_xinput_unpack(event, opcode, &unpacked) == 1, unpacked.window == window else { return false }
        let arrival = Duration.nanoseconds(Int64(HostClock.nanoseconds()))
        let axes = axes(of: unpacked.sourceid)
        let (sample, sink) = state.withLock { state -> (InputSample?, InputSink?) in
            let time = state.mapping.record(serverTime: UInt64(unpacked.time), arrival: arrival)
            return (Self.sample(from: unpacked, axes: axes, time: time, pressed: &state.pressed), state.sink)
        }
        if let sample { sink?(sample) }
        return true
    }

    /// The valuators of physical device `device`, asked of the server once.
    private func axes(of device: UInt16) -> Axes {
        if let known = state.withLock({ $0.axes[device] }) { return known }
        var axes = Axes()
        axes.isPen = swiftgpu_xinput_is_pen(connection, device) == 1
        func axis(_ label: String) -> (UInt16, Double, Double)? {
            var number: UInt16 = 0, min = 0.0, max = 0.0
            guard swiftgpu_xinput_axis(connection, device, label, &number, &min, &max) == 1, max > min else { return nil }
            return (number, min, max)
        }
        axes.pressure = axis("Abs Pressure")
        axes.tiltX = axis("Abs Tilt X")
        axes.tiltY = axis("Abs Tilt Y")
        state.withLock { $0.axes[device] = axes }
        return axes
    }

    /// The sample of one event (nil for buttons other than 1), given the device's axes and
    /// the host time of its server time; `pressed` tracks which devices hold button 1.
    static func sample(from event: SwiftGPUXIEvent, axes: Axes, time: Duration, pressed: inout Set<UInt16>) -> InputSample? {
        let values = withUnsafeBytes(of: event.valuator_numbers) { numbers in
            withUnsafeBytes(of: event.valuator_values) { values in
                Dictionary((0..<Int(event.valuator_count)).map {
                    (numbers.load(fromByteOffset: $0 * 2, as: UInt16.self), values.load(fromByteOffset: $0 * 8, as: Double.self))
                }, uniquingKeysWith: { first, _ in first })
            }
        }
        let pressure = axes.pressure.flatMap { axis in values[axis.number].map { ($0 - axis.min) / (axis.max - axis.min) } }
        var tilt: SIMD2<Double>?
        if let x = axes.tiltX.flatMap({ values[$0.number] }), let y = axes.tiltY.flatMap({ values[$0.number] }) {
            tilt = SIMD2(x, y) * (Double.pi / 180)
        }
        let device: InputDeviceKind
        let phase: InputPhase
        var contact = Int(event.sourceid)
        switch event.kind {
        case SWIFTGPU_XI_TOUCH_BEGIN, SWIFTGPU_XI_TOUCH_UPDATE, SWIFTGPU_XI_TOUCH_END:
            device = .touch
            contact = Int(event.detail)
            phase = event.kind == SWIFTGPU_XI_TOUCH_BEGIN ? .began : event.kind == SWIFTGPU_XI_TOUCH_END ? .ended : .moved
        case SWIFTGPU_XI_BUTTON_PRESS, SWIFTGPU_XI_BUTTON_RELEASE:
            guard event.detail == 1 else { return nil }
            device = axes.isPen ? .pen : .pointer
            if event.kind == SWIFTGPU_XI_BUTTON_PRESS {
                pressed.insert(event.sourceid)
                phase = .began
            } else {
                pressed.remove(event.sourceid)
                phase = .ended
            }
        case SWIFTGPU_XI_MOTION:
            device = axes.isPen ? .pen : .pointer
            phase = pressed.contains(event.sourceid) ? .moved : .hovering
        default:
            return nil
        }
        return InputSample(device: device, contact: contact, phase: phase, position: SIMD2(event.x, event.y),
                           pressure: pressure, tilt: tilt, timestamp: time)
    }
}
