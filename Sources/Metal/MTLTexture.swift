import GPU

/// Metal's `MTLTexture`; SwiftGPU's `Texture` conforms.
public protocol MTLTexture: AnyObject, Sendable {
    /// The texture's pixel format.
    var pixelFormat: MTLPixelFormat { get }
    /// The width of level 0, in pixels.
    var width: Int { get }
    /// The height of level 0, in pixels.
    var height: Int { get }
    /// Samples per pixel: 1, or 4 for a multisample render target.
    var sampleCount: Int { get }
    /// Copies `region` of level `mipmapLevel` out of a shared texture into `pixelBytes`.
    func getBytes(_ pixelBytes: UnsafeMutableRawPointer, bytesPerRow: Int, from region: MTLRegion, mipmapLevel level: Int)
    /// Copies `pixelBytes` into `region` of level `mipmapLevel` of a shared texture.
    func replace(region: MTLRegion, mipmapLevel level: Int, withBytes pixelBytes: UnsafeRawPointer, bytesPerRow: Int)
}

/// SwiftGPU's `Texture` as Metal's `MTLTexture`.
extension Texture: MTLTexture {
    /// Metal's `getBytes(_:bytesPerRow:from:mipmapLevel:)`.
    public func getBytes(_ pixelBytes: UnsafeMutableRawPointer, bytesPerRow: Int, from region: MTLRegion,
                         mipmapLevel level: Int) {
        getBytes(pixelBytes, bytesPerRow: bytesPerRow, from: region, mipmapLevel: level, slice: 0)
    }

    /// Metal's `replace(region:mipmapLevel:withBytes:bytesPerRow:)`.
    public func replace(region: MTLRegion, mipmapLevel level: Int, withBytes pixelBytes: UnsafeRawPointer,
                        bytesPerRow: Int) {
        replace(region: region, mipmapLevel: level, slice: 0, withBytes: pixelBytes, bytesPerRow: bytesPerRow)
    }
}
