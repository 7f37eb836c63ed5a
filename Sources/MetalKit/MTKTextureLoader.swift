import Foundation
import GPU
import Metal
import PNG

/// MetalKit's `MTKTextureLoader` for PNG files and data: each image becomes an RGBA8 2D
/// texture of one level.
public final class MTKTextureLoader: Sendable {
    /// A loading option's name.
    public struct Option: Hashable, Sendable {
        /// The option's name.
        public let rawValue: String

        /// The option named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Whether the pixels are sRGB-encoded (`Bool` or `NSNumber`): `.rgba8Unorm_srgb`
        /// when true, `.rgba8Unorm` when false or absent.
        public static let SRGB = Option(rawValue: "MTKTextureLoaderOptionSRGB")
        /// The texture's usage (`MTLTextureUsage`, or its raw value as `UInt` or `NSNumber`);
        /// `.shaderRead` when absent.
        public static let textureUsage = Option(rawValue: "MTKTextureLoaderOptionTextureUsage")
    }

    /// The device the textures are made on.
    public let device: any MTLDevice

    /// A loader making textures on `device`; stops for a device SwiftGPU did not make.
    public init(device: any MTLDevice) {
        guard device is Device else {
            fatalError("SwiftGPU API misuse: MTKTextureLoader(device:): \(type(of: device)) is not a SwiftGPU Device")
        }
        self.device = device
    }

    /// A texture of the PNG file at `URL`; throws the PNG reader's or the device's error.
    public func newTexture(URL: URL, options: [Option: Any]? = nil) throws -> any MTLTexture {
        try texture(of: Image(contentsOfPNG: URL), options: options ?? [:])
    }

    /// A texture of the PNG image in `data`; throws the PNG reader's or the device's error.
    public func newTexture(data: Data, options: [Option: Any]? = nil) throws -> any MTLTexture {
        try texture(of: Image(pngData: data), options: options ?? [:])
    }

    /// `image` uploaded into a new texture made as `options` say.
    private func texture(of image: Image, options: [Option: Any]) throws -> any MTLTexture {
        let srgb = options[.SRGB].map { ($0 as? Bool) ?? (($0 as? NSNumber)?.boolValue ?? false) } ?? false
        let usage: MTLTextureUsage
        switch options[.textureUsage] {
        case let value as MTLTextureUsage: usage = value
        case let value as UInt: usage = MTLTextureUsage(rawValue: value)
        case let value as NSNumber: usage = MTLTextureUsage(rawValue: value.uintValue)
        case nil: usage = .shaderRead
        case let value?:
            fatalError("SwiftGPU API misuse: MTKTextureLoader.newTexture: textureUsage \(value) is no MTLTextureUsage")
        }
        let descriptor = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: srgb ? .rgba8Unorm_srgb : .rgba8Unorm,
                                                                  width: image.width, height: image.height,
                                                                  mipmapped: false)
        descriptor.usage = usage
        // The initializer checked the device is SwiftGPU's.
        let texture: Texture = try (device as! Device).makeTexture(descriptor: descriptor)
        image.pixels.withUnsafeBytes { bytes in
            texture.replace(region: MTLRegionMake2D(0, 0, image.width, image.height), mipmapLevel: 0,
                            withBytes: bytes.baseAddress!, bytesPerRow: image.width * 4)
        }
        return texture
    }
}
