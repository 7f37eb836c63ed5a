import Foundation
import Testing
@testable import GPU

@Suite("Render path", .validated)
struct RenderTests {
    /// Position (xy) and colour (rgba) for three vertices.
    static let triangle: [Float] = [
        0, -0.8, 1, 0, 0, 1,
        0.8, 0.8, 0, 1, 0, 1,
        -0.8, 0.8, 0, 0, 1, 1,
    ]

    static func colorPipeline(_ gpu: TestGPU, format: PixelFormat = .rgba8Unorm, samples: Int = 1,
                              depth: PixelFormat? = nil, blending: Bool = false) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("triangle.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[1].format = .float4
        vertices.attributes[1].offset = 8
        vertices.layouts[0].stride = 24
        descriptor.vertexDescriptor = vertices
        descriptor.colorAttachments[0].pixelFormat = format
        if blending {
            descriptor.colorAttachments[0].isBlendingEnabled = true
            descriptor.colorAttachments[0].sourceRGBBlendFactor = .sourceAlpha
            descriptor.colorAttachments[0].destinationRGBBlendFactor = .oneMinusSourceAlpha
        }
        descriptor.depthAttachmentPixelFormat = depth
        descriptor.rasterSampleCount = samples
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    @Test("a per-vertex-colour triangle: clear outside, red at the top, blended colours inside")
    func triangle() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let pipeline = try Self.colorPipeline(gpu)
        let vertices = try gpu.buffer(Self.triangle)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 0.25, alpha: 1)))
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
        try encoder.setVertexBytes(&transform, length: 32, index: 2)
        try encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        let pixels = try gpu.pixels(of: target)
        #expect(texel(pixels, width: 64, x: 1, y: 1) == [0, 0, 64, 255], "clear colour in the corner")
        let top = texel(pixels, width: 64, x: 32, y: 9)
        #expect(top[0] > 200 && top[1] < 40 && top[2] < 40, "the top vertex is red: \(top)")
        let center = texel(pixels, width: 64, x: 32, y: 40)
        #expect(center[0] > 40 && center[1] > 40 && center[2] > 40 && center[3] == 255, "blended inside: \(center)")
    }
}
