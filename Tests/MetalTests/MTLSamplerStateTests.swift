import GPUTestSupport
import Metal
import Testing

/// Texturing written as for Apple's Metal: a texture filled with `replace(region:…)`, a
/// sampler from an `MTLSamplerDescriptor`, bound with `setFragmentTexture` and
/// `setFragmentSamplerState`.
@Suite("Metal's sampler names", .validated)
struct MTLSamplerStateTests {
    static let vertexSource = """
        #version 450
        #pragma shader_stage(vertex)
        layout(location = 0) out vec2 uv;
        void main() {
            vec2 corner = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
            uv = corner;
            gl_Position = vec4(corner * 2 - 1, 0, 1);
        }
        """
    static let fragmentSource = """
        #version 450
        #pragma shader_stage(fragment)
        layout(binding = 96) uniform texture2D colorTexture;
        layout(binding = 112) uniform sampler colorSampler;
        layout(location = 0) in vec2 uv;
        layout(location = 0) out vec4 color;
        void main() { color = texture(sampler2D(colorTexture, colorSampler), uv); }
        """

    @Test("a 2×1 texture sampled with nearest filtering fills each half of the target with its texel")
    func nearestTexels() throws {
        let device = MTLCreateSystemDefaultDevice()!
        let commandQueue = device.makeCommandQueue()!
        let pipelineDescriptor = MTLRenderPipelineDescriptor()
        try RenderTargets.setFunctions(of: pipelineDescriptor, device: device, vertex: Self.vertexSource,
                                       fragment: Self.fragmentSource)
        pipelineDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipelineState = try device.makeRenderPipelineState(descriptor: pipelineDescriptor)

        let imageDescriptor = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: .rgba8Unorm, width: 2, height: 1,
                                                                       mipmapped: false)
        let image = device.makeTexture(descriptor: imageDescriptor)!
        let texels: [UInt8] = [255, 255, 0, 255, 0, 255, 255, 255]
        image.replace(region: MTLRegionMake2D(0, 0, 2, 1), mipmapLevel: 0, withBytes: texels, bytesPerRow: 8)

        let samplerDescriptor = MTLSamplerDescriptor()
        samplerDescriptor.minFilter = .nearest
        samplerDescriptor.magFilter = .nearest
        let sampler = device.makeSamplerState(descriptor: samplerDescriptor)!

        let target = RenderTargets.make(device, width: 8, height: 8)
        let pass = MTLRenderPassDescriptor()
        pass.colorAttachments[0].texture = target
        pass.colorAttachments[0].loadAction = .clear

        let commandBuffer = commandQueue.makeCommandBuffer()!
        let encoder = commandBuffer.makeRenderCommandEncoder(descriptor: pass)!
        encoder.setRenderPipelineState(pipelineState)
        encoder.setFragmentTexture(image, index: 0)
        encoder.setFragmentSamplerState(sampler, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()

        let pixel = RenderTargets.pixels(of: target)
        for y in 0..<8 {
            for x in 0..<8 {
                let expected: [UInt8] = x < 4 ? [255, 255, 0, 255] : [0, 255, 255, 255]
                #expect(pixel(x, y) == expected, "pixel (\(x), \(y))")
            }
        }
    }
}
