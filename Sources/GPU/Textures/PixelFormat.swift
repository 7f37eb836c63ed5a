/// Texel formats, Metal's `MTLPixelFormat` names.
public enum PixelFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 8-bit red.
    case r8Unorm
    /// 8-bit RGBA, linear.
    case rgba8Unorm
    /// 8-bit RGBA, sRGB-encoded colour.
    case rgba8Unorm_srgb
    /// 8-bit BGRA, linear (the usual swapchain format).
    case bgra8Unorm
    /// 8-bit BGRA, sRGB-encoded colour.
    case bgra8Unorm_srgb
    /// 32-bit float red.
    case r32Float
    /// 16-bit float RGBA.
    case rgba16Float
    /// 32-bit float RGBA.
    case rgba32Float
    /// 32-bit float depth.
    case depth32Float
    /// 32-bit float depth with 8-bit stencil.
    case depth32Float_stencil8

    /// Bytes per texel (depth-stencil: the depth part).
    public var bytesPerPixel: Int {
        switch self {
        case .r8Unorm: 1
        case .rgba8Unorm, .rgba8Unorm_srgb, .bgra8Unorm, .bgra8Unorm_srgb, .r32Float, .depth32Float,
             .depth32Float_stencil8: 4
        case .rgba16Float: 8
        case .rgba32Float: 16
        }
    }

    /// Whether the format holds depth.
    public var isDepth: Bool { self == .depth32Float || self == .depth32Float_stencil8 }

    /// Whether the format holds stencil.
    public var hasStencil: Bool { self == .depth32Float_stencil8 }

    /// Metal's name.
    public var description: String {
        switch self {
        case .r8Unorm: "r8Unorm"
        case .rgba8Unorm: "rgba8Unorm"
        case .rgba8Unorm_srgb: "rgba8Unorm_srgb"
        case .bgra8Unorm: "bgra8Unorm"
        case .bgra8Unorm_srgb: "bgra8Unorm_srgb"
        case .r32Float: "r32Float"
        case .rgba16Float: "rgba16Float"
        case .rgba32Float: "rgba32Float"
        case .depth32Float: "depth32Float"
        case .depth32Float_stencil8: "depth32Float_stencil8"
        }
    }
}
