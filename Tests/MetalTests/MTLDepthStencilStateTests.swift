import GPUTestSupport
import Metal
import Testing

/// Depth testing written as for Apple's Metal: a depth texture in the pass's
/// `depthAttachment`, `depthAttachmentPixelFormat`, and an `MTLDepthStencilDescriptor`.
@Suite("Metal's depth-stencil names", .validated)
struct MTLDepthStencilStateTests {
    static let vertexSource = TintShaders.positions3D

    @Test("the nearer of two quads wins though it is drawn first, with .less and depth writes on")
    func nearerWins() throws {
        let device = MTLCreateSystemDefaultDevice()!
        let commandQueue = device.makeCommandQueue()!

        let vertexDescriptor = MTLVertexDescriptor()
        vertexDescriptor.attributes[0].format = .float3
        vertexDescriptor.layouts[0].stride = MemoryLayout<Float>.stride * 3
        let pipelineDescriptor = MTLRenderPipelineDescriptor()
        try RenderTargets.setFunctions(of: pipelineDescriptor, device: device, vertex: Self.vertexSource,
                                       fragment: MTLRenderCommandEncoderTests.fragmentSource)
        pipelineDescriptor.vertexDescriptor = vertexDescriptor
        pipelineDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        pipelineDescriptor.depthAttachmentPixelFormat = .depth32Float
        let pipelineState = try device.makeRenderPipelineState(descriptor: pipelineDescriptor)

        let depthDescriptor = MTLDepthStencilDescriptor()
        depthDescriptor.depthCompareFunction = .less
        depthDescriptor.isDepthWriteEnabled = true
        let depthState = device.makeDepthStencilState(descriptor: depthDescriptor)!

        let color = RenderTargets.make(device, width: 16, height: 16)
        let depthTextureDescriptor = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: .depth32Float, width: 16,
                                                                              height: 16, mipmapped: false)
        depthTextureDescriptor.usage = .renderTarget
        let depth = device.makeTexture(descriptor: depthTextureDescriptor)!

        let pass = MTLRenderPassDescriptor()
        pass.colorAttachments[0].texture = color
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].clearColor = MTLClearColorMake(0, 0, 0, 1)
        pass.depthAttachment.texture = depth
        pass.depthAttachment.loadAction = .clear
        pass.depthAttachment.clearDepth = 1.0
        pass.depthAttachment.storeAction = .dontCare

        func quad(z: Float) -> [Float] {
            [-1, -1, z, 1, -1, z, 1, 1, z, -1, -1, z, 1, 1, z, -1, 1, z]
        }
        var near = quad(z: 0.25)
        var far = quad(z: 0.75)
        var green = SIMD4<Float>(0, 1, 0, 1)
        var red = SIMD4<Float>(1, 0, 0, 1)
        let commandBuffer = commandQueue.makeCommandBuffer()!
        let encoder = commandBuffer.makeRenderCommandEncoder(descriptor: pass)!
        encoder.setRenderPipelineState(pipelineState)
        encoder.setDepthStencilState(depthState)
        encoder.setVertexBytes(&near, length: near.count * 4, index: 0)
        encoder.setFragmentBytes(&green, length: 16, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        encoder.setVertexBytes(&far, length: far.count * 4, index: 0)
        encoder.setFragmentBytes(&red, length: 16, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6, instanceCount: 1)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)

        let pixel = RenderTargets.pixels(of: color)
        #expect((0..<16).allSatisfy { y in (0..<16).allSatisfy { x in pixel(x, y) == [0, 255, 0, 255] } })
    }
}
