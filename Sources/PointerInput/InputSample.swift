/// What kind of device a sample comes from.
public enum InputDeviceKind: Sendable, Hashable {
    /// A mouse or touchpad pointer.
    case pointer
    /// A finger on a touch screen.
    case touch
    /// A pen or stylus on a tablet or screen.
    case pen
}

/// Where a contact is in its life, as UIKit's `UITouch.Phase`.
public enum InputPhase: Sendable, Hashable {
    /// The contact (a press, a touch, a pen down) started.
    case began
    /// It moved while down.
    case moved
    /// It ended (released, lifted).
    case ended
    /// The system took it away (grab, window change).
    case cancelled
    /// A pointer or pen moving without contact.
    case hovering
}

/// Properties of a sample that may be refined by a later sample, as UIKit's
/// `UITouch.Properties`.
public struct InputProperties: OptionSet, Sendable, Hashable {
    /// The set's bits: one per property.
    public let rawValue: UInt8
    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The position.
    public static let position = InputProperties(rawValue: 1 << 0)
    /// The pressure.
    public static let pressure = InputProperties(rawValue: 1 << 1)
    /// The tilt.
    public static let tilt = InputProperties(rawValue: 1 << 2)
}

/// One sample of a pointer, touch or pen: where it was, how hard and at what angle, and
/// when, on the host's monotonic clock. UIKit's `UITouch` as a value.
public struct InputSample: Sendable, Hashable {
    /// The device kind.
    public var device: InputDeviceKind
    /// The contact: a touch's or pen's identifier, or the pointer's device number. Samples of
    /// one contact share it.
    public var contact: Int
    /// Where the contact is in its life.
    public var phase: InputPhase
    /// Position in window pixels, origin at the top left.
    public var position: SIMD2<Double>
    /// Pressure from 0 to 1 where the device reports it.
    public var pressure: Double?
    /// Tilt from the surface's normal, in radians along x and y, where the device reports it.
    public var tilt: SIMD2<Double>?
    /// When the device took the sample, on `CLOCK_MONOTONIC`.
    public var timestamp: Duration
    /// Whether the sample was extrapolated to a future time rather than measured.
    public var isPredicted: Bool
    /// Properties whose values are estimates.
    public var estimatedProperties: InputProperties
    /// Estimated properties that a later sample with the same `updateSequence` will refine.
    public var estimatedPropertiesExpectingUpdates: InputProperties
    /// The number that ties a refining sample to the one it updates; nil when none is expected.
    public var updateSequence: Int?
    /// The device's own motion since the contact's previous sample, before pointer
    /// acceleration, where it reports relative motion (Wayland's `zwp_relative_pointer_v1`,
    /// X11's XInput raw motion): what a pointer-locked view or a precise tool reads instead
    /// of positions.
    public var unacceleratedDelta: SIMD2<Double>?

    /// A measured sample.
    public init(device: InputDeviceKind, contact: Int, phase: InputPhase, position: SIMD2<Double>,
                pressure: Double? = nil, tilt: SIMD2<Double>? = nil, timestamp: Duration,
                isPredicted: Bool = false, estimatedProperties: InputProperties = [],
                estimatedPropertiesExpectingUpdates: InputProperties = [], updateSequence: Int? = nil,
                unacceleratedDelta: SIMD2<Double>? = nil) {
        self.device = device
        self.contact = contact
        self.phase = phase
        self.position = position
        self.pressure = pressure
        self.tilt = tilt
        self.timestamp = timestamp
        self.isPredicted = isPredicted
        self.estimatedProperties = estimatedProperties
        self.estimatedPropertiesExpectingUpdates = estimatedPropertiesExpectingUpdates
        self.updateSequence = updateSequence
        self.unacceleratedDelta = unacceleratedDelta
    }
}
