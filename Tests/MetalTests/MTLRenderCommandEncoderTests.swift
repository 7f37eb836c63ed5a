import GPUTestSupport
import Metal
import Testing

/// A render pass written as for Apple's Metal: a pipeline descriptor with a vertex
/// descriptor, a render pass descriptor cleared with `MTLClearColorMake`, a texture from
/// `texture2DDescriptor`, read back with `getBytes` over `MTLRegionMake2D`.
@Suite("Metal's render names", .validated)
struct MTLRenderCommandEncoderTests {
    static let vertexSource = """
        #version 450
        #pragma shader_stage(vertex)
        layout(location = 0) in vec2 position;
        void main() { gl_Position = vec4(position, 0, 1); }
        """
    static let fragmentSource = TintShaders.tint

    @Test("a quad over the left half, tinted through setFragmentBytes, lands on a cleared texture")
    func leftHalf() throws {
        let device = MTLCreateSystemDefaultDevice()!
        let commandQueue = device.makeCommandQueue()!

        let vertexDescriptor = MTLVertexDescriptor()
        vertexDescriptor.attributes[0].format = .float2
        vertexDescriptor.attributes[0].offset = 0
        vertexDescriptor.attributes[0].bufferIndex = 0
        vertexDescriptor.layouts[0].stride = MemoryLayout<SIMD2<Float>>.stride

        let pipelineDescriptor = MTLRenderPipelineDescriptor()
        pipelineDescriptor.label = "tinted quad"
        try RenderTargets.setFunctions(of: pipelineDescriptor, device: device, vertex: Self.vertexSource,
                                       fragment: Self.fragmentSource)
        pipelineDescriptor.vertexDescriptor = vertexDescriptor
        pipelineDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipelineState = try device.makeRenderPipelineState(descriptor: pipelineDescriptor)

        let target = RenderTargets.make(device, width: 64, height: 64)

        let renderPassDescriptor = MTLRenderPassDescriptor()
        renderPassDescriptor.colorAttachments[0].texture = target
        renderPassDescriptor.colorAttachments[0].loadAction = .clear
        renderPassDescriptor.colorAttachments[0].storeAction = .store
        renderPassDescriptor.colorAttachments[0].clearColor = MTLClearColorMake(0, 0, 1, 1)

        var quad: [SIMD2<Float>] = [SIMD2(-1, -1), SIMD2(0, -1), SIMD2(0, 1), SIMD2(-1, -1), SIMD2(0, 1), SIMD2(-1, 1)]
        var tint = SIMD4<Float>(1, 0, 0, 1)
        let commandBuffer = commandQueue.makeCommandBuffer()!
        let renderEncoder = commandBuffer.makeRenderCommandEncoder(descriptor: renderPassDescriptor)!
        renderEncoder.setRenderPipelineState(pipelineState)
        renderEncoder.setVertexBytes(&quad, length: MemoryLayout<SIMD2<Float>>.stride * quad.count, index: 0)
        renderEncoder.setFragmentBytes(&tint, length: MemoryLayout<SIMD4<Float>>.size, index: 0)
        renderEncoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: quad.count)
        renderEncoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)

        let pixel = RenderTargets.pixels(of: target)
        for y in [0, 31, 63] {
            #expect(pixel(0, y) == [255, 0, 0, 255])
            #expect(pixel(31, y) == [255, 0, 0, 255])
            #expect(pixel(32, y) == [0, 0, 255, 255])
            #expect(pixel(63, y) == [0, 0, 255, 255])
        }
    }

    @Test("an indexed quad, counter-clockwise and front facing with back faces culled, fills the viewport's quadrant")
    func indexedQuadInViewport() throws {
        let device = MTLCreateSystemDefaultDevice()!
        let commandQueue = device.makeCommandQueue()!
        let pipelineDescriptor = MTLRenderPipelineDescriptor()
        try RenderTargets.setFunctions(of: pipelineDescriptor, device: device, vertex: Self.vertexSource,
                                       fragment: Self.fragmentSource)
        let vertexDescriptor = MTLVertexDescriptor()
        vertexDescriptor.attributes[0].format = .float2
        vertexDescriptor.layouts[0].stride = MemoryLayout<SIMD2<Float>>.stride
        pipelineDescriptor.vertexDescriptor = vertexDescriptor
        pipelineDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipelineState = try device.makeRenderPipelineState(descriptor: pipelineDescriptor)

        let target = RenderTargets.make(device, width: 64, height: 64)
        let pass = MTLRenderPassDescriptor()
        pass.colorAttachments[0].texture = target
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].clearColor = MTLClearColorMake(0, 0, 0, 1)

        // Counter-clockwise with y up, as Metal's normalized device coordinates are.
        let corners: [SIMD2<Float>] = [SIMD2(-1, -1), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1)]
        let indices: [UInt16] = [0, 1, 2, 0, 2, 3]
        let vertexBuffer = device.makeBuffer(bytes: corners, length: MemoryLayout<SIMD2<Float>>.stride * 4,
                                             options: [])!
        let indexBuffer = device.makeBuffer(bytes: indices, length: MemoryLayout<UInt16>.stride * 6, options: [])!
        var tint = SIMD4<Float>(0, 1, 0, 1)

        let commandBuffer = commandQueue.makeCommandBuffer()!
        let encoder = commandBuffer.makeRenderCommandEncoder(descriptor: pass)!
        encoder.setRenderPipelineState(pipelineState)
        encoder.setViewport(MTLViewport(originX: 0, originY: 0, width: 32, height: 32, znear: 0, zfar: 1))
        encoder.setFrontFacing(.counterClockwise)
        encoder.setCullMode(.back)
        encoder.setVertexBuffer(vertexBuffer, offset: 0, index: 0)
        encoder.setFragmentBytes(&tint, length: MemoryLayout<SIMD4<Float>>.size, index: 0)
        encoder.drawIndexedPrimitives(type: .triangle, indexCount: indices.count, indexType: .uint16,
                                      indexBuffer: indexBuffer, indexBufferOffset: 0)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)

        let pixel = RenderTargets.pixels(of: target)
        #expect(pixel(0, 0) == [0, 255, 0, 255])
        #expect(pixel(31, 31) == [0, 255, 0, 255])
        #expect(pixel(32, 0) == [0, 0, 0, 255])
        #expect(pixel(0, 32) == [0, 0, 0, 255])
        #expect(pixel(63, 63) == [0, 0, 0, 255])
    }

    @Test("misuse: a texture that is not SwiftGPU's stops the render pass descriptor's texture setter")
    func foreignTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class ForeignTexture: MTLTexture, @unchecked Sendable {
                var pixelFormat: MTLPixelFormat { .rgba8Unorm }
                var width: Int { 1 }
                var height: Int { 1 }
                var sampleCount: Int { 1 }
                func getBytes(_ pixelBytes: UnsafeMutableRawPointer, bytesPerRow: Int, from region: MTLRegion,
                              mipmapLevel level: Int) {}
                func replace(region: MTLRegion, mipmapLevel level: Int, withBytes pixelBytes: UnsafeRawPointer,
                             bytesPerRow: Int) {}
            }
            MTLRenderPassDescriptor().colorAttachments[0].texture = ForeignTexture()
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: MTLRenderPassColorAttachmentDescriptor.texture: ForeignTexture is not a SwiftGPU Texture"))
    }
}
