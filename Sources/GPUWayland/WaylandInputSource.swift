import CWaylandInput
import Dispatch
import Glibc
import PointerInput
import SwiftGPUSupport

/// Why a `WaylandInputSource` could not be made.
public enum WaylandInputError: Error, Sendable, CustomStringConvertible {
    /// The compositor offers no `wl_seat`.
    case noSeat
    /// The pipe that wakes the source's thread could not be made.
    case resources

    /// A readable message.
    public var description: String {
        switch self {
        case .noSeat: "the Wayland compositor offers no wl_seat"
        case .resources: "the input source's wake pipe could not be made"
        }
    }
}

/// Pointer, touch and pen samples of a Wayland surface, from a `wl_seat` the source binds
/// on an event queue of its own, dispatched by one thread that sleeps in `poll` until the
/// compositor sends something: the host's own seat objects and listeners are not touched
/// (a client may have several `wl_pointer`s of one seat, each gets the events).
///
/// - Pointer: `wl_pointer` frames (all events of one frame make one sample); left button
///   down, motion and up are `.began`, `.moved`, `.ended`, motion without it `.hovering`;
///   leaving the surface while down cancels. Contact 0.
/// - Touch: `wl_touch` frames, a contact per touch id.
/// - Pen: `zwp_tablet_tool_v2` frames where the compositor offers tablets: proximity,
///   down, motion, up; pressure (0 to 1) and tilt (degrees, in radians here).
/// - Unaccelerated motion: `zwp_relative_pointer_v1`'s, summed since the pointer's previous
///   sample, in `unacceleratedDelta`, where the compositor offers it.
/// - Times: `zwp_input_timestamps_v1`'s nanoseconds where the compositor offers it, else
///   the events' milliseconds, both mapped onto `CLOCK_MONOTONIC` with a
///   `ServerTimeMapping`.
///
/// The host keeps the connection and the surface alive for as long as the source lives;
/// its own dispatching must use `wl_display_prepare_read` (as `wl_display_dispatch` does).
///
/// `@unchecked Sendable`: `sink`, the mappings and `stopped` are guarded by `lock`; the C
/// state is used by the source's thread alone.
public final class WaylandInputSource: InputSource, @unchecked Sendable {
    private let input: OpaquePointer
    private let wake: (read: Int32, write: Int32)
    private let lock = ConditionLock(rank: .leaf("WaylandInputSource.lock"))
    private var sink: InputSink?
    private var stopped = false
    private var thread: ServiceThread?
    private var milliseconds = ServerTimeMapping(units: .milliseconds32)
    private var nanoseconds = ServerTimeMapping(units: .nanoseconds)

    /// What the compositor offers the source.
    public struct Capabilities: OptionSet, Sendable {
        /// The set's bits, one per capability.
        public let rawValue: Int
        /// Makes a set from its raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A pointer.
        public static let pointer = Capabilities(rawValue: 1)
        /// Touch.
        public static let touch = Capabilities(rawValue: 2)
        /// Tablets (pens).
        public static let tablet = Capabilities(rawValue: 4)
        /// Nanosecond input timestamps.
        public static let timestamps = Capabilities(rawValue: 8)
        /// Unaccelerated relative pointer motion.
        public static let relativeMotion = Capabilities(rawValue: 16)
    }

    /// What the compositor offers.
    public let capabilities: Capabilities

    /// A source for `surface` (a `wl_surface *`) on `display` (its `wl_display *`). Throws
    /// when the compositor offers no seat.
    public init(display: OpaquePointer, surface: OpaquePointer) throws(WaylandInputError) {
        guard let input = swiftgpu_wayland_input_create(display, surface) else { throw .noSeat }
        guard let wake = closeOnExecPipe() else {
            swiftgpu_wayland_input_destroy(input)
            throw .resources
        }
        self.input = input
        self.wake = wake
        capabilities = Capabilities(rawValue: Int(swiftgpu_wayland_input_capabilities(input)))
    }

    deinit {
        stop()
        swiftgpu_wayland_input_destroy(input)
        close(wake.read)
        close(wake.write)
    }

    /// Delivers samples to `sink` from the thread the first call starts.
    public func start(_ sink: @escaping InputSink) {
        let begin = lock.withLock { () -> Bool in
            guard !stopped else { return false }
            self.sink = sink
            return thread == nil
        }
        guard begin else { return }
        let started = ServiceThread.start(name: "GPUWayland.input", qos: .userInteractive, running: self) { $0.run() }
        lock.withLock { thread = started }
    }

    /// Stops the thread; no sample reaches the sink after it returns.
    public func stop() {
        let running = lock.withLock { () -> ServiceThread? in
            stopped = true
            sink = nil
            return thread
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        running?.join()
    }

    /// The source's thread: waits for the compositor's events and delivers their samples.
    private func run() {
        while !lock.withLock({ stopped }) {
            guard swiftgpu_wayland_input_dispatch(input, wake.read) > 0 else { return }
            var record = SwiftGPUWaylandInputRecord()
            while swiftgpu_wayland_input_next(input, &record) == 1 {
                let arrival = Duration.nanoseconds(Int64(record.dispatched))
                let (sample, sink) = lock.withLock { () -> (InputSample, InputSink?) in
                    // A frame with no timed event (a pointer entering) is stamped when it was
                    // dispatched.
                    let time = record.has_nanoseconds != 0
                        ? nanoseconds.record(serverTime: record.nanoseconds, arrival: arrival)
                        : record.has_milliseconds != 0
                            ? milliseconds.record(serverTime: UInt64(record.milliseconds), arrival: arrival) : arrival
                    return (Self.sample(from: record, time: time), self.sink)
                }
                sink?(sample)
            }
        }
    }

    /// The sample of one record, at host time `time`.
    static func sample(from record: SwiftGPUWaylandInputRecord, time: Duration) -> InputSample {
        let device: InputDeviceKind = switch record.kind {
        case SWIFTGPU_WL_TOUCH: .touch
        case SWIFTGPU_WL_PEN: .pen
        default: .pointer
        }
        let phase: InputPhase = switch record.phase {
        case 0: .began
        case 1: .moved
        case 2: .ended
        case 3: .cancelled
        default: .hovering
        }
        return InputSample(device: device, contact: Int(record.contact), phase: phase, position: SIMD2(record.x, record.y),
                           pressure: record.has_pressure != 0 ? record.pressure / 65535 : nil,
                           tilt: record.has_tilt != 0 ? SIMD2(record.tilt_x, record.tilt_y) * (Double.pi / 180) : nil,
                           timestamp: time,
                           unacceleratedDelta: record.has_delta != 0 ? SIMD2(record.delta_x, record.delta_y) : nil)
    }
}
