/// The shape of a texture.
public enum TextureType: Sendable, Hashable {
    /// One 2D image (with mipmaps).
    case type2D
    /// An array of 2D images (slices).
    case type2DArray
    /// Six square 2D faces.
    case typeCube
}

/// How a texture will be used, Metal's `MTLTextureUsage`. Copies are always allowed.
public struct TextureUsage: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The raw bits.
    public var rawValue: UInt
    /// Wraps raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Sampled or read in shaders.
    public static let shaderRead = TextureUsage(rawValue: 1 << 0)
    /// Written in shaders (storage image).
    public static let shaderWrite = TextureUsage(rawValue: 1 << 1)
    /// A render pass attachment.
    public static let renderTarget = TextureUsage(rawValue: 1 << 2)
    /// Texture views of another pixel format (``Texture/makeTextureView(pixelFormat:)``), as
    /// Metal requires for them; Vulkan's mutable-format images.
    public static let pixelFormatView = TextureUsage(rawValue: 1 << 4)

    /// The uses, as Swift writes them: `[.shaderRead, .renderTarget]`.
    public var description: String {
        let names = [(TextureUsage.shaderRead, ".shaderRead"), (.shaderWrite, ".shaderWrite"), (.renderTarget, ".renderTarget"),
                     (.pixelFormatView, ".pixelFormatView")]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}

/// A texel position.
public struct Origin: Sendable, Hashable {
    /// Texel x.
    public var x: Int
    /// Texel y.
    public var y: Int
    /// Texel z (3D) — 0 for 2D textures.
    public var z: Int
    /// Makes an origin.
    public init(x: Int = 0, y: Int = 0, z: Int = 0) { self.x = x; self.y = y; self.z = z }
}

/// A box of texels, Metal's `MTLRegion`.
public struct Region: Sendable, Hashable {
    /// The first texel.
    public var origin: Origin
    /// The extent.
    public var size: Size
    /// Makes a 2D region.
    public init(x: Int, y: Int, width: Int, height: Int) {
        origin = Origin(x: x, y: y)
        size = Size(width: width, height: height)
    }
    /// Makes a region from an origin and a size.
    public init(origin: Origin, size: Size) { self.origin = origin; self.size = size }
}

/// Everything needed to make a texture, Metal's `MTLTextureDescriptor`: a class, so that
/// Metal's pattern ports as it is (`let descriptor = TextureDescriptor();
/// descriptor.width = 256`), with Metal's defaults. `makeTexture(descriptor:)` copies it:
/// changing it afterwards does not change the texture.
public final class TextureDescriptor {
    /// 2D, 2D array or cube.
    public var textureType: TextureType
    /// The texel format (default `.rgba8Unorm`).
    public var pixelFormat: PixelFormat
    /// Width of level 0 (default 1).
    public var width: Int
    /// Height of level 0 (default 1).
    public var height: Int
    /// Slices of a 2D array (6 faces for a cube are implied).
    public var arrayLength: Int
    /// Mipmap levels, 1 for none.
    public var mipmapLevelCount: Int
    /// Samples per texel (1 or 4).
    public var sampleCount: Int
    /// Uses.
    public var usage: TextureUsage
    /// Shared or private (both are filled with `replace` and read with `getBytes`).
    public var storageMode: StorageMode
    /// Whether SwiftGPU orders the GPU's accesses to the texture (default `.default`:
    /// tracked, or a heap's mode for a texture made from a heap), Metal's `hazardTrackingMode`.
    public var hazardTrackingMode: HazardTrackingMode = .default

    /// Makes a descriptor with Metal's defaults: a 1×1 `.rgba8Unorm` 2D texture, read by shaders.
    public convenience init() {
        self.init(pixelFormat: .rgba8Unorm, width: 1, height: 1)
    }

    /// Makes a descriptor.
    public init(textureType: TextureType = .type2D, pixelFormat: PixelFormat, width: Int, height: Int,
                arrayLength: Int = 1, mipmapLevelCount: Int = 1, sampleCount: Int = 1,
                usage: TextureUsage = .shaderRead, storageMode: StorageMode = .private) {
        self.textureType = textureType
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.arrayLength = arrayLength
        self.mipmapLevelCount = mipmapLevelCount
        self.sampleCount = sampleCount
        self.usage = usage
        self.storageMode = storageMode
    }

    /// A descriptor holding `spec`'s values.
    convenience init(_ spec: TextureSpec) {
        self.init(textureType: spec.textureType, pixelFormat: spec.pixelFormat, width: spec.width, height: spec.height,
                  arrayLength: spec.arrayLength, mipmapLevelCount: spec.mipmapLevelCount, sampleCount: spec.sampleCount,
                  usage: spec.usage, storageMode: spec.storageMode)
        hazardTrackingMode = spec.hazardTrackingMode
    }

    /// A 2D texture descriptor, with a full mip chain when `mipmapped`: Metal's
    /// `texture2DDescriptor(pixelFormat:width:height:mipmapped:)`.
    public static func texture2D(pixelFormat: PixelFormat, width: Int, height: Int, mipmapped: Bool,
                                 usage: TextureUsage = .shaderRead) -> TextureDescriptor {
        let levels = mipmapped ? Int.bitWidth - max(width, height).leadingZeroBitCount : 1
        return TextureDescriptor(pixelFormat: pixelFormat, width: width, height: height,
                                 mipmapLevelCount: levels, usage: usage)
    }

    /// The values as they are now.
    var spec: TextureSpec {
        TextureSpec(textureType: textureType, pixelFormat: pixelFormat, width: width, height: height,
                    arrayLength: arrayLength, mipmapLevelCount: mipmapLevelCount, sampleCount: sampleCount,
                    usage: usage, storageMode: storageMode, hazardTrackingMode: hazardTrackingMode)
    }
}

/// What a texture is made from: the values of a `TextureDescriptor`, copied when the
/// texture is made, so later changes to the descriptor do not reach it.
struct TextureSpec: Sendable, Hashable {
    /// 2D, 2D array or cube.
    var textureType: TextureType = .type2D
    /// The texel format.
    var pixelFormat: PixelFormat
    /// Width of level 0.
    var width: Int
    /// Height of level 0.
    var height: Int
    /// Slices of a 2D array (6 faces for a cube are implied).
    var arrayLength: Int = 1
    /// Mipmap levels, 1 for none.
    var mipmapLevelCount: Int = 1
    /// Samples per texel (1 or 4).
    var sampleCount: Int = 1
    /// Uses.
    var usage: TextureUsage = .shaderRead
    /// Shared or private (both are filled with `replace` and read with `getBytes`).
    var storageMode: StorageMode = .private
    /// Tracked or untracked once the texture is made (`.default` only in a descriptor's).
    var hazardTrackingMode: HazardTrackingMode = .tracked

    /// Layers of the Vulkan image: slices, or 6 × slices for cubes.
    var layerCount: Int { textureType == .typeCube ? 6 * arrayLength : arrayLength }
}
