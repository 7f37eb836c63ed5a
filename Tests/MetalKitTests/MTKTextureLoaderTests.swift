import GPUTestSupport
import MetalKit
import PNG
import Testing

/// PNG images loaded as Apple's MetalKit loads them.
@Suite("MetalKit's texture loader", .validated)
struct MTKTextureLoaderTests {
    @Test("newTexture(data:options:) makes an RGBA8 texture of the PNG's size and pixels, sRGB when asked")
    func pngData() throws {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255, 10, 20, 30, 40]
        let data = try Image(width: 2, height: 2, pixels: pixels).pngData()
        let device = MTLCreateSystemDefaultDevice()!
        let textureLoader = MTKTextureLoader(device: device)
        let texture = try textureLoader.newTexture(data: data, options: [.SRGB: false])
        #expect(texture.width == 2 && texture.height == 2)
        #expect(texture.pixelFormat == .rgba8Unorm)
        var read = [UInt8](repeating: 0, count: 16)
        texture.getBytes(&read, bytesPerRow: 8, from: MTLRegionMake2D(0, 0, 2, 2), mipmapLevel: 0)
        #expect(read == pixels)

        let srgb = try textureLoader.newTexture(data: data, options: [.SRGB: true, .textureUsage: MTLTextureUsage.shaderRead.rawValue])
        #expect(srgb.pixelFormat == .rgba8Unorm_srgb)
    }

    @Test("data that is not a PNG throws the reader's error")
    func notPNG() {
        let textureLoader = MTKTextureLoader(device: MTLCreateSystemDefaultDevice()!)
        #expect(throws: PNGError.self) { try textureLoader.newTexture(data: Data([1, 2, 3, 4])) }
    }
}
