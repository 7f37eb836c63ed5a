/// Minification and magnification filters.
public enum SamplerMinMagFilter: Sendable, Hashable {
    /// The nearest texel.
    case nearest
    /// Bilinear.
    case linear
}

/// How a sampler picks between mipmap levels.
public enum SamplerMipFilter: Sendable, Hashable {
    /// Level 0 only.
    case notMipmapped
    /// The nearest level.
    case nearest
    /// Blend the two nearest levels.
    case linear
}

/// What a sampler returns outside [0, 1].
public enum SamplerAddressMode: Sendable, Hashable {
    /// The edge texel.
    case clampToEdge
    /// Mirror once, then the edge.
    case mirrorClampToEdge
    /// Wrap around.
    case `repeat`
    /// Wrap around, mirrored.
    case mirrorRepeat
    /// The border colour.
    case clampToBorderColor
}

/// The colour outside the texture for `clampToBorderColor`.
public enum SamplerBorderColor: Sendable, Hashable {
    /// (0, 0, 0, 0).
    case transparentBlack
    /// (0, 0, 0, 1).
    case opaqueBlack
    /// (1, 1, 1, 1).
    case opaqueWhite
}

/// A comparison, for depth tests and comparison samplers.
public enum CompareFunction: Sendable, Hashable {
    /// Never passes.
    case never
    /// new < stored.
    case less
    /// new == stored.
    case equal
    /// new <= stored.
    case lessEqual
    /// new > stored.
    case greater
    /// new != stored.
    case notEqual
    /// new >= stored.
    case greaterEqual
    /// Always passes.
    case always
}

/// How a sampler reads a texture, Metal's `MTLSamplerDescriptor` (same defaults).
///
/// A class, as in Metal (`let descriptor = SamplerDescriptor(); descriptor.minFilter =
/// .linear`); `makeSamplerState(descriptor:)` copies it.
public final class SamplerDescriptor {
    /// The values as they are now; the properties below read and write them.
    var values: SamplerValues

    /// Filter when the texture is shrunk.
    public var minFilter: SamplerMinMagFilter {
        get { values.minFilter }
        set { values.minFilter = newValue }
    }
    /// Filter when the texture is enlarged.
    public var magFilter: SamplerMinMagFilter {
        get { values.magFilter }
        set { values.magFilter = newValue }
    }
    /// Filter between mipmap levels.
    public var mipFilter: SamplerMipFilter {
        get { values.mipFilter }
        set { values.mipFilter = newValue }
    }
    /// Addressing along x.
    public var sAddressMode: SamplerAddressMode {
        get { values.sAddressMode }
        set { values.sAddressMode = newValue }
    }
    /// Addressing along y.
    public var tAddressMode: SamplerAddressMode {
        get { values.tAddressMode }
        set { values.tAddressMode = newValue }
    }
    /// Addressing along z.
    public var rAddressMode: SamplerAddressMode {
        get { values.rAddressMode }
        set { values.rAddressMode = newValue }
    }
    /// Border colour for `clampToBorderColor`.
    public var borderColor: SamplerBorderColor {
        get { values.borderColor }
        set { values.borderColor = newValue }
    }
    /// Anisotropy, 1 for none (clamped to the device's limit).
    public var maxAnisotropy: Int {
        get { values.maxAnisotropy }
        set { values.maxAnisotropy = newValue }
    }
    /// Lowest level of detail used.
    public var lodMinClamp: Float {
        get { values.lodMinClamp }
        set { values.lodMinClamp = newValue }
    }
    /// Highest level of detail used.
    public var lodMaxClamp: Float {
        get { values.lodMaxClamp }
        set { values.lodMaxClamp = newValue }
    }
    /// Whether coordinates are in [0, 1] (true) or in texels.
    public var normalizedCoordinates: Bool {
        get { values.normalizedCoordinates }
        set { values.normalizedCoordinates = newValue }
    }
    /// A comparison sampler's function, or nil for an ordinary sampler.
    public var compareFunction: CompareFunction? {
        get { values.compareFunction }
        set { values.compareFunction = newValue }
    }

    /// Makes a descriptor with Metal's defaults.
    public init() { values = SamplerValues() }

    /// A descriptor holding `values`.
    init(_ values: SamplerValues) { self.values = values }
}

/// The values of a `SamplerDescriptor`, copied when the state is made.
struct SamplerValues: Sendable, Hashable {
    /// Filter when the texture is shrunk.
    var minFilter = SamplerMinMagFilter.nearest
    /// Filter when the texture is enlarged.
    var magFilter = SamplerMinMagFilter.nearest
    /// Filter between mipmap levels.
    var mipFilter = SamplerMipFilter.notMipmapped
    /// Addressing along x.
    var sAddressMode = SamplerAddressMode.clampToEdge
    /// Addressing along y.
    var tAddressMode = SamplerAddressMode.clampToEdge
    /// Addressing along z.
    var rAddressMode = SamplerAddressMode.clampToEdge
    /// Border colour for `clampToBorderColor`.
    var borderColor = SamplerBorderColor.transparentBlack
    /// Anisotropy, 1 for none (clamped to the device's limit).
    var maxAnisotropy = 1
    /// Lowest level of detail used.
    var lodMinClamp: Float = 0
    /// Highest level of detail used.
    var lodMaxClamp: Float = .greatestFiniteMagnitude
    /// Whether coordinates are in [0, 1] (true) or in texels.
    var normalizedCoordinates = true
    /// A comparison sampler's function, or nil for an ordinary sampler.
    var compareFunction: CompareFunction?
}

/// An immutable sampler, Metal's `MTLSamplerState`.
///
/// `@unchecked Sendable`: every stored property is immutable.
public final class SamplerState: @unchecked Sendable {
    let backend: SamplerObject
    /// The device that made it.
    public let device: Device
    /// What it was made from, copied from the descriptor.
    let values: SamplerValues

    /// A descriptor of the sampler: a new one on each call, as changing it changes nothing.
    public var descriptor: SamplerDescriptor { SamplerDescriptor(values) }

    init(device: Device, descriptor: SamplerValues) throws(GPUError) {
        let call = "makeSamplerState(descriptor:)"
        let (lodMin, lodMax) = (descriptor.lodMinClamp, descriptor.lodMaxClamp)
        guard !lodMin.isNaN, !lodMax.isNaN, lodMin >= 0, lodMin <= lodMax else {
            misuse("\(call): lodMinClamp \(lodMin) and lodMaxClamp \(lodMax) must be numbers with 0 ≤ lodMinClamp ≤ lodMaxClamp")
        }
        guard (1...16).contains(descriptor.maxAnisotropy) else {
            misuse("\(call): maxAnisotropy \(descriptor.maxAnisotropy) is outside 1...16")
        }
        self.device = device
        values = descriptor
        do {
            backend = try SamplerObject(device: device.backend, descriptor: descriptor)
        } catch {
            throw .vulkan(error)
        }
    }
}

extension Device {
    /// Makes a sampler.
    public func makeSamplerState(descriptor: SamplerDescriptor) throws(GPUError) -> SamplerState {
        try SamplerState(device: self, descriptor: descriptor.values)
    }
}
