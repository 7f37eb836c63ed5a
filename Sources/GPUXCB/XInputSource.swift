import CXCBInput
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
/// - Raw motion (opt-in, `rawMotion`): XInput 2.1's raw events give each pointer sample
///   `unacceleratedDelta`, the device's own motion since the previous sample before pointer
///   acceleration (a relative device's raw deltas summed; an absolute device's change in raw
///   position). Raw events come for motion anywhere on the screen, so they wake the app
///   while the pointer is outside its window too: ask for them only where a tool reads
///   precise motion (pointer lock, a high-rate mouse's own counts).
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
    private let state = LockedValue(State(), rank: .leaf("XInputSource.state"))

    /// A physical device's valuators that samples read.
    struct Axes {
        var isPen = false
        var pressure: (number: UInt16, min: Double, max: Double)?
        var tiltX: (number: UInt16, min: Double, max: Double)?
        var tiltY: (number: UInt16, min: Double, max: Double)?
        /// Whether valuators 0 and 1 (x and y) report relative motion; nil when unknown.
        var relativeMotion: Bool?
    }

    /// Raw motion of one physical device not yet given to a sample.
    struct RawMotion {
        /// The last raw x and y of an absolute device.
        var lastPosition: SIMD2<Double>?
        /// Unaccelerated motion since the device's last sample.
        var pending: SIMD2<Double>?
    }

    private struct State {
        var sink: InputSink?
        var mapping = ServerTimeMapping(units: .milliseconds32)
        var axes: [UInt16: Axes] = [:]
        /// Physical devices with button 1 down.
        var pressed: Set<UInt16> = []
        var raw: [UInt16: RawMotion] = [:]
    }

    /// Selects XInput 2 button, motion and touch events of every master device on `window`
    /// (on `connection`, the app's), and with `rawMotion` raw motion on its screen's root
    /// window. Throws when the server lacks XInput 2.2 or refuses a selection.
    public init(connection: OpaquePointer, window: UInt32, rawMotion: Bool = false) throws(XInputError) {
        let raw = UnsafeMutableRawPointer(connection)
        let opcode = swiftgpu_xinput_opcode(raw)
        guard opcode != 0 else { throw .unavailable }
        guard swiftgpu_xinput_select(raw, window) == 1 else { throw .selectionFailed(window: window) }
        if rawMotion, swiftgpu_xinput_select_raw(raw, window) != 1 { throw .selectionFailed(window: window) }
        self.connection = raw
        self.window = window
        self.opcode = opcode
    }

    /// Delivers samples to `sink` from the next handled event on.
    public func start(_ sink: @escaping InputSink) { state.withLock { $0.sink = sink } }

    /// Delivers no more samples.
    public func stop() { state.withLock { $0.sink = nil } }

    /// Takes one event the host's loop read (an `xcb_generic_event_t *`): true when it was
    /// an XInput device event of this source's window or raw motion (its sample, if any, has
    /// gone to the sink), false for any other event.
    @discardableResult
    public func handle(_ event: UnsafeRawPointer) -> Bool {
        var unpacked = SwiftGPUXIEvent()
        guard swiftgpu_xinput_unpack(event, opcode, &unpacked) == 1 else { return false }
        let isRaw = unpacked.kind == SWIFTGPU_XI_RAW_MOTION
        guard isRaw || unpacked.window == window else { return false }
        let arrival = Duration.nanoseconds(Int64(HostClock.nanoseconds()))
        let axes = axes(of: unpacked.sourceid)
        let (sample, sink) = state.withLock { state -> (InputSample?, InputSink?) in
            let time = state.mapping.record(serverTime: UInt64(unpacked.time), arrival: arrival)
            if isRaw {
                Self.accumulate(unpacked, relative: axes.relativeMotion, into: &state.raw[unpacked.sourceid, default: RawMotion()])
                return (nil, nil)
            }
            var sample = Self.sample(from: unpacked, axes: axes, time: time, pressed: &state.pressed)
            if sample?.device != .touch, let pending = state.raw[unpacked.sourceid]?.pending {
                sample?.unacceleratedDelta = pending
                state.raw[unpacked.sourceid]?.pending = nil
            }
            return (sample, state.sink)
        }
        if let sample { sink?(sample) }
        return true
    }

    /// Adds raw motion `event`'s x and y (valuators 0 and 1) to `raw`'s pending motion: a
    /// relative device's values are motion; an absolute device's are positions, whose change
    /// since its previous raw event is.
    static func accumulate(_ event: SwiftGPUXIEvent, relative: Bool?, into raw: inout RawMotion) {
        guard let relative else { return }
        let values = valuators(of: event)
        guard values[0] != nil || values[1] != nil else { return }
        let motion: SIMD2<Double>
        if relative {
            motion = SIMD2(values[0] ?? 0, values[1] ?? 0)
        } else {
            let previous = raw.lastPosition
            let position = SIMD2(values[0] ?? previous?.x ?? 0, values[1] ?? previous?.y ?? 0)
            raw.lastPosition = position
            guard let previous else { return }
            motion = position - previous
        }
        raw.pending = (raw.pending ?? .zero) + motion
    }

    /// An event's valuators by number.
    static func valuators(of event: SwiftGPUXIEvent) -> [UInt16: Double] {
        withUnsafeBytes(of: event.valuator_numbers) { numbers in
            withUnsafeBytes(of: event.valuator_values) { values in
                Dictionary((0..<Int(event.valuator_count)).map {
                    (numbers.load(fromByteOffset: $0 * 2, as: UInt16.self), values.load(fromByteOffset: $0 * 8, as: Double.self))
                }, uniquingKeysWith: { first, _ in first })
            }
        }
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
        switch swiftgpu_xinput_axis_relative(connection, device, 0) {
        case 1: axes.relativeMotion = true
        case 0: axes.relativeMotion = false
        default: axes.relativeMotion = nil
        }
        state.withLock { $0.axes[device] = axes }
        return axes
    }

    /// The sample of one event (nil for buttons other than 1), given the device's axes and
    /// the host time of its server time; `pressed` tracks which devices hold button 1.
    static func sample(from event: SwiftGPUXIEvent, axes: Axes, time: Duration, pressed: inout Set<UInt16>) -> InputSample? {
        let values = valuators(of: event)
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
