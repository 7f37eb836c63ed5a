/// A `constexpr sampler` of the source: its settings in Metal's terms, which the library
/// turns into a sampler fixed in the function at the sampler index the translation gave it.
package struct ConstantSampler: Sendable, Hashable {
    /// A filter between texels (`filter::`, `min_filter::`, `mag_filter::`).
    package enum Filter: String, Sendable, Hashable {
        /// The nearest texel.
        case nearest
        /// Linear interpolation.
        case linear
    }

    /// A filter between mipmap levels (`mip_filter::`).
    package enum MipFilter: String, Sendable, Hashable {
        /// Level 0 only.
        case none
        /// The nearest level.
        case nearest
        /// Linear interpolation between levels.
        case linear
    }

    /// What a coordinate outside the texture reads (`address::`, `s_address::`, …).
    package enum Address: String, Sendable, Hashable {
        /// The edge texel.
        case clampToEdge = "clamp_to_edge"
        /// Mirrored once, then the edge.
        case mirrorClampToEdge = "mirrored_clamp_to_edge"
        /// Repeated.
        case `repeat`
        /// Mirrored and repeated.
        case mirroredRepeat = "mirrored_repeat"
        /// Zero.
        case clampToZero = "clamp_to_zero"
        /// The border colour.
        case clampToBorder = "clamp_to_border"
    }

    /// How `sample_compare` compares its reference value with the texel (`compare_func::`).
    package enum CompareFunction: String, Sendable, Hashable {
        /// Never passes.
        case never
        /// reference < texel.
        case less
        /// reference <= texel.
        case lessEqual = "less_equal"
        /// reference > texel.
        case greater
        /// reference >= texel.
        case greaterEqual = "greater_equal"
        /// reference == texel.
        case equal
        /// reference != texel.
        case notEqual = "not_equal"
        /// Always passes.
        case always
    }
    /// The colour of `clamp_to_border` (`border_color::`).
    package enum BorderColor: String, Sendable, Hashable {
        /// (0, 0, 0, 0).
        case transparentBlack = "transparent_black"
        /// (0, 0, 0, 1).
        case opaqueBlack = "opaque_black"
        /// (1, 1, 1, 1).
        case opaqueWhite = "opaque_white"
    }

    /// The minification filter.
    package var minFilter = Filter.nearest
    /// The magnification filter.
    package var magFilter = Filter.nearest
    /// The mipmap filter.
    package var mipFilter = MipFilter.none
    /// The address mode along s (x).
    package var sAddress = Address.clampToEdge
    /// The address mode along t (y).
    package var tAddress = Address.clampToEdge
    /// The address mode along r (z).
    package var rAddress = Address.clampToEdge
    /// The border colour.
    package var borderColor = BorderColor.transparentBlack
    /// Whether coordinates are normalized (`coord::normalized`, the default) or in texels
    /// (`coord::pixel`).
    package var normalizedCoordinates = true
    /// The comparison of a comparison sampler, or nil for a sampler that does not compare.
    package var compareFunction: CompareFunction?
    /// The most anisotropic samples (`max_anisotropy(n)`).
    package var maxAnisotropy = 1
    /// The levels of detail sampled (`lod_clamp(min, max)`); Metal's default is every one.
    package var lodClamp: ClosedRange<Float> = 0...Float.greatestFiniteMagnitude

    /// The value of a `lod_clamp` bound: a number, or `MAXFLOAT` (`FLT_MAX`).
    static func lodBound(_ expression: Expression) -> Float? {
        switch expression.kind {
        case .integer(let text): return IntegerLiteral(text).map { Float($0.value) }
        case .floating(let text): return Float(String(text.prefix { !"fFhH".contains($0) }))
        case .name("MAXFLOAT"), .name("FLT_MAX"): return .greatestFiniteMagnitude
        default: return nil
        }
    }

    /// Metal's defaults: nearest filtering, no mipmaps, clamped to the edge, normalized.
    package init() {}

    /// The sampler a `constexpr sampler`'s arguments describe, or the first argument
    /// outside what the front end knows.
    init(arguments: [Expression]) throws(Diagnostic) {
        for argument in arguments {
            switch argument.kind {
            case .name(let name):
                let parts = name.split(separator: ":")
                guard parts.count == 2 else {
                    throw Diagnostic(argument.location, "unknown sampler argument '\(name)'")
                }
                let group = String(parts[0]), value = String(parts[1])
                func invalid() -> Diagnostic { Diagnostic(argument.location, "unknown sampler argument '\(name)'") }
                switch group {
                case "filter", "min_filter", "mag_filter":
                    guard let filter = Filter(rawValue: value) else { throw invalid() }
                    if group != "mag_filter" { minFilter = filter }
                    if group != "min_filter" { magFilter = filter }
                case "mip_filter":
                    guard let filter = MipFilter(rawValue: value) else { throw invalid() }
                    mipFilter = filter
                case "address", "s_address", "t_address", "r_address":
                    guard let address = Address(rawValue: value) else { throw invalid() }
                    if group == "address" || group == "s_address" { sAddress = address }
                    if group == "address" || group == "t_address" { tAddress = address }
                    if group == "address" || group == "r_address" { rAddress = address }
                case "coord":
                    guard value == "normalized" || value == "pixel" else { throw invalid() }
                    normalizedCoordinates = value == "normalized"
                case "border_color":
                    guard let color = BorderColor(rawValue: value) else { throw invalid() }
                    borderColor = color
                case "compare_func":
                    guard let function = CompareFunction(rawValue: value) else { throw invalid() }
                    compareFunction = function
                default:
                    throw invalid()
                }
            case .call(let callee, let values):
                if case .name("lod_clamp") = callee.kind {
                    guard values.count == 2, let low = Self.lodBound(values[0]), let high = Self.lodBound(values[1]), low >= 0, low <= high else {
                        throw Diagnostic(argument.location, "lod_clamp takes two constant levels of detail, the first no greater than the second")
                    }
                    lodClamp = low...high
                    continue
                }
                guard case .name("max_anisotropy") = callee.kind, values.count == 1, case .integer(let text) = values[0].kind,
                      let count = IntegerLiteral(text), (1...16).contains(count.value) else {
                    let name = if case .name(let name) = callee.kind { "'\(name)'" } else { "a call" }
                    throw .unsupported(argument.location, "the sampler argument \(name) (filter, mip_filter, address, coord, "
                        + "border_color, compare_func, max_anisotropy(1…16) and lod_clamp are)")
                }
                maxAnisotropy = Int(count.value)
            default:
                throw Diagnostic(argument.location, "unknown sampler argument")
            }
        }
    }
}
