import GPU

/// Metal's `MTLBlitCommandEncoder`; SwiftGPU's `BlitCommandEncoder` conforms.
public protocol MTLBlitCommandEncoder: AnyObject {
    /// Copies `size` bytes from `sourceBuffer` at `sourceOffset` to `destinationBuffer` at `destinationOffset`.
    func copy(from sourceBuffer: any MTLBuffer, sourceOffset: Int, to destinationBuffer: any MTLBuffer,
              destinationOffset: Int, size: Int)
    /// Sets the bytes of `range` of `buffer` to `value`.
    func fill(buffer: any MTLBuffer, range: Range<Int>, value: UInt8)
    /// Makes every level of `texture` below the first from the level above it.
    func generateMipmaps(for texture: any MTLTexture)
    /// Ends the encoder.
    func endEncoding()
}

/// SwiftGPU's `BlitCommandEncoder` as Metal's `MTLBlitCommandEncoder`.
extension BlitCommandEncoder: MTLBlitCommandEncoder {
    /// Metal's `copy(from:sourceOffset:to:destinationOffset:size:)`; stops for a buffer SwiftGPU did not make.
    public func copy(from sourceBuffer: any MTLBuffer, sourceOffset: Int, to destinationBuffer: any MTLBuffer,
                     destinationOffset: Int, size: Int) {
        let call = "copy(from:sourceOffset:to:destinationOffset:size:)"
        copy(from: own(sourceBuffer, as: Buffer.self, in: call), sourceOffset: sourceOffset,
             to: own(destinationBuffer, as: Buffer.self, in: call), destinationOffset: destinationOffset, size: size)
    }

    /// Metal's `fill(buffer:range:value:)`; stops for a buffer SwiftGPU did not make.
    public func fill(buffer: any MTLBuffer, range: Range<Int>, value: UInt8) {
        fill(buffer: own(buffer, as: Buffer.self, in: "fill(buffer:range:value:)"), range: range, value: value)
    }

    /// Metal's `generateMipmaps(for:)`; stops for a texture SwiftGPU did not make.
    public func generateMipmaps(for texture: any MTLTexture) {
        generateMipmaps(for: own(texture, as: Texture.self, in: "generateMipmaps(for:)"))
    }
}
