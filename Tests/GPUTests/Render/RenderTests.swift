import Foundation
import GPUTestSupport
import Testing
@testable import GPU

@Suite("Render path", .validated)
struct RenderTests {
    /// Position (xy, Metal's clip space: y up) and colour (rgba) for three vertices.
    static let triangle: [Float] = [
        0, 0.8, 1, 0, 0, 1,
        0.8, -0.8, 0, 1, 0, 1,
        -0.8, -0.8, 0, 0, 1, 1,
    ]

    /// Attribute 0: position (float2); attribute 1: colour (float4); 24-byte vertices in buffer 0.
    static func positionAndColor() -> VertexDescriptor {
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[1].format = .float4
        vertices.attributes[1].offset = 8
        vertices.layouts[0].stride = 24
        return vertices
    }

    static func colorPipeline(_ gpu: TestGPU, format: PixelFormat = .rgba8Unorm, samples: Int = 1,
                              depth: PixelFormat? = nil, blending: Bool = false) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("triangle.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        descriptor.vertexDescriptor = Self.positionAndColor()
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

    /// A command buffer with an open pass over `target`, cleared to dark blue, that has drawn
    /// the per-vertex-colour triangle.
    static func drawTriangle(_ gpu: TestGPU, into target: Texture) throws -> (CommandBuffer, RenderCommandEncoder) {
        let pipeline = try Self.colorPipeline(gpu)
        let vertices = try gpu.buffer(Self.triangle)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 0.25, alpha: 1)))
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
        encoder.setVertexBytes(&transform, length: 32, index: 2)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        return (cb, encoder)
    }

    @Test("a per-vertex-colour triangle: clear outside, red at the top, blended colours inside")
    func triangle() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let (cb, encoder) = try Self.drawTriangle(gpu, into: target)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        let pixels = try gpu.pixels(of: target)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "triangle")
        #expect(texel(pixels, width: 64, x: 1, y: 1) == [0, 0, 64, 255], "clear colour in the corner")
        let top = texel(pixels, width: 64, x: 32, y: 9)
        #expect(top[0] > 200 && top[1] < 40 && top[2] < 40, "the top vertex is red: \(top)")
        let center = texel(pixels, width: 64, x: 32, y: 40)
        #expect(center[0] > 40 && center[1] > 40 && center[2] > 40 && center[3] == 255, "blended inside: \(center)")
    }

    @Test("vertex attributes fed by setVertexBytes draw what the same data in a buffer draws", arguments: [true, false])
    func vertexAttributesFromBytes(pushDescriptors: Bool) throws {
        let gpu = try TestGPU(pushDescriptors: pushDescriptors)
        let pipeline = try Self.colorPipeline(gpu)
        func draw(_ feed: (RenderCommandEncoder) throws -> Void) throws -> [UInt8] {
            let target = try gpu.renderTarget()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            encoder.setRenderPipelineState(pipeline)
            try feed(encoder)
            var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
            encoder.setVertexBytes(&transform, length: 32, index: 2)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            encoder.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .completed)
            return try gpu.pixels(of: target)
        }
        let fromBuffer = try draw { $0.setVertexBuffer(try gpu.buffer(Self.triangle), offset: 0, index: 0) }
        let fromBytes = try draw { $0.setVertexBytes(Self.triangle, length: Self.triangle.count * 4, index: 0) }
        #expect(fromBytes == fromBuffer)
        #expect(texel(fromBytes, width: 64, x: 32, y: 9)[0] > 200, "the triangle is drawn")
    }
}

extension RenderTests {
    /// Draws `vertices` (position + colour) with the colour pipeline at `depth` and
    /// `scale`; the pass is prepared by the caller.
    static func draw(_ encoder: RenderCommandEncoder, _ gpu: TestGPU, _ vertices: Buffer,
                     offset: (Float, Float) = (0, 0), scale: Float = 1, depth: Float = 0.5) throws {
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        var transform: [Float] = [offset.0, offset.1, scale, scale, depth, 0, 0, 0]
        encoder.setVertexBytes(&transform, length: 32, index: 2)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
    }

    static func solid(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> [Float] {
        [0, 0.8, r, g, b, a, 0.8, -0.8, r, g, b, a, -0.8, -0.8, r, g, b, a]
    }

    @Test("depth test: a nearer triangle drawn first hides a farther one drawn after")
    func depthTest() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let depth = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .depth32Float, width: 64, height: 64,
                                                                             usage: .renderTarget))
        let pipeline = try Self.colorPipeline(gpu, depth: .depth32Float)
        let descriptor = DepthStencilDescriptor()
        descriptor.depthCompareFunction = .less
        descriptor.isDepthWriteEnabled = true
        let depthState = gpu.device.makeDepthStencilState(descriptor: descriptor)
        let pass = gpu.clearingPass(target)
        pass.depthAttachment.texture = depth
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        encoder.setDepthStencilState(depthState)
        try Self.draw(encoder, gpu, try gpu.buffer(Self.solid(0, 1, 0, 1)), offset: (-0.2, 0), depth: 0.2)   // near, green
        try Self.draw(encoder, gpu, try gpu.buffer(Self.solid(1, 0, 0, 1)), offset: (0.2, 0), depth: 0.8)    // far, red
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "depth")
        #expect(texel(pixels, width: 64, x: 32, y: 40) == [0, 255, 0, 255], "the overlap shows the nearer green")
        #expect(texel(pixels, width: 64, x: 52, y: 55) == [255, 0, 0, 255], "red outside the overlap")
    }

    @Test("alpha blending: half-transparent red over blue")
    func blending() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let pipeline = try Self.colorPipeline(gpu, blending: true)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 1, alpha: 1)))
        encoder.setRenderPipelineState(pipeline)
        try Self.draw(encoder, gpu, try gpu.buffer(Self.solid(1, 0, 0, 0.5)))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "blending")
        let center = texel(pixels, width: 64, x: 32, y: 40)
        #expect(abs(Int(center[0]) - 128) <= 1 && center[1] == 0 && abs(Int(center[2]) - 127) <= 1, "\(center)")
    }

    @Test("4x MSAA resolves to a single-sample texture with smoothed edges")
    func msaaResolve() throws {
        let gpu = try TestGPU()
        let samples = try gpu.renderTarget(sampleCount: 4, usage: .renderTarget)
        let resolved = try gpu.renderTarget()
        let pipeline = try Self.colorPipeline(gpu, samples: 4)
        let pass = gpu.clearingPass(samples)
        pass.colorAttachments[0].storeAction = .multisampleResolve
        pass.colorAttachments[0].resolveTexture = resolved
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        try Self.draw(encoder, gpu, try gpu.buffer(Self.solid(1, 1, 1, 1)))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: resolved)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "msaa-resolve")
        #expect(texel(pixels, width: 64, x: 32, y: 40) == [255, 255, 255, 255])
        #expect(texel(pixels, width: 64, x: 2, y: 2) == [0, 0, 0, 255])
        let partial = (0..<(64 * 64)).filter { pixels[$0 * 4] > 0 && pixels[$0 * 4] < 255 }.count
        #expect(partial > 20, "edge pixels are partly covered: \(partial)")
    }

    @Test("instancing: 16 triangles from one draw, coloured per instance, with a base instance")
    func instancing() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("instanced.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        let colors: [Float] = (0..<17).flatMap { i -> [Float] in [Float(i) / 16, 1 - Float(i) / 16, 0.5, 1] }
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(try gpu.buffer(colors), offset: 0, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3, instanceCount: 16, baseInstance: 1)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        // The instance index includes the base instance (as Metal's instance_id does): slot
        // p on the 4×4 grid holds instance p, so slot 0 stays empty and instance 16 is off the grid.
        let pixels = try gpu.pixels(of: target)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "instancing")
        func slot(_ p: Int) -> [UInt8] {
            texel(pixels, width: 64, x: Int((0.125 + 0.25 * Double(p % 4)) * 64), y: Int((0.125 + 0.25 * Double(p / 4)) * 64))
        }
        #expect(slot(0) == [0, 0, 0, 255])
        for p in [1, 5, 15] {
            #expect(abs(Int(slot(p)[0]) - Int((Float(p) / 16 * 255).rounded())) <= 1, "slot \(p): \(slot(p))")
            #expect(abs(Int(slot(p)[1]) - Int(((1 - Float(p) / 16) * 255).rounded())) <= 1, "slot \(p): \(slot(p))")
        }
    }

    @Test("textured indexed quad with a nearest sampler shows the texture's four quadrants")
    func texturedQuad() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let image = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 2, height: 2, mipmapped: false))
        let texels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        image.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: texels, bytesPerRow: 8)
        let sampler = try gpu.device.makeSamplerState(descriptor: SamplerDescriptor())
        let pipeline = try gpu.texturedPipeline()
        // Metal's clip space: the top-left corner (-1, 1) samples the texture's origin.
        let quad: [Float] = [-1, 1, 0, 0, 1, 1, 1, 0, 1, -1, 1, 1, -1, -1, 0, 1]
        let indices: [UInt16] = [0, 1, 2, 0, 2, 3]
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(try gpu.buffer(quad), offset: 0, index: 0)
        encoder.setFragmentTexture(image, index: 0)
        encoder.setFragmentSamplerState(sampler, index: 0)
        encoder.drawIndexedPrimitives(type: .triangle, indexCount: 6, indexType: .uint16,
                                          indexBuffer: try gpu.buffer(indices), indexBufferOffset: 0)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "textured-quad")
        #expect(texel(pixels, width: 64, x: 10, y: 10) == [255, 0, 0, 255])
        #expect(texel(pixels, width: 64, x: 50, y: 10) == [0, 255, 0, 255])
        #expect(texel(pixels, width: 64, x: 10, y: 50) == [0, 0, 255, 255])
        #expect(texel(pixels, width: 64, x: 50, y: 50) == [255, 255, 255, 255])
    }

    @Test("render → compute → render: a triangle, inverted in place by a compute pass, then drawn to a second target")
    func postProcessChain() throws {
        let gpu = try TestGPU()
        let scene = try gpu.renderTarget(usage: [.renderTarget, .shaderRead, .shaderWrite])
        let output = try gpu.renderTarget()
        let sampler = try gpu.device.makeSamplerState(descriptor: SamplerDescriptor())
        let invert = try gpu.pipeline("invert.comp")
        let blitDescriptor = RenderPipelineDescriptor()
        blitDescriptor.vertexFunction = try gpu.function("fullscreen.vert")
        blitDescriptor.fragmentFunction = try gpu.function("textured.frag")
        blitDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let present = try gpu.device.makeRenderPipelineState(descriptor: blitDescriptor)

        let cb = try gpu.queue.makeCommandBuffer()
        let first = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(scene))
        first.setRenderPipelineState(try Self.colorPipeline(gpu))
        try Self.draw(first, gpu, try gpu.buffer(Self.solid(1, 0, 0, 1)))
        first.endEncoding()
        let compute = try cb.makeComputeCommandEncoder()
        compute.setComputePipelineState(invert)
        compute.setTexture(scene, index: 0)
        compute.dispatchThreads(Size(width: 64, height: 64), threadsPerThreadgroup: Size(width: 8, height: 8))
        compute.endEncoding()
        let second = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(output))
        second.setRenderPipelineState(present)
        second.setFragmentTexture(scene, index: 0)
        second.setFragmentSamplerState(sampler, index: 0)
        second.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        second.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: output)
        try Golden.expectMatch(pixels, width: 64, height: 64, name: "post-process")
        #expect(texel(pixels, width: 64, x: 32, y: 40) == [0, 255, 255, 255], "inverted red is cyan")
        #expect(texel(pixels, width: 64, x: 2, y: 2) == [255, 255, 255, 255], "inverted black is white")
    }
}

extension RenderTests {
    @Test("pipeline creation errors: missing vertex attributes, outputs without attachments, wrong stage")
    func pipelineErrors() throws {
        let gpu = try TestGPU()
        let noVertexDescriptor = RenderPipelineDescriptor()
        noVertexDescriptor.vertexFunction = try gpu.function("triangle.vert")
        noVertexDescriptor.fragmentFunction = try gpu.function("color.frag")
        noVertexDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        #expect(throws: LibraryError.unsupportedFunction(name: "triangle.vert", reason:
            "its input at location 0 has no attribute in the pipeline's vertexDescriptor")) {
            try gpu.device.makeRenderPipelineState(descriptor: noVertexDescriptor)
        }
        let noAttachment = RenderPipelineDescriptor()
        noAttachment.vertexFunction = try gpu.function("fullscreen.vert")
        noAttachment.fragmentFunction = try gpu.function("color.frag")
        #expect(throws: LibraryError.unsupportedFunction(name: "color.frag", reason:
            "it writes colour output 0, but colorAttachments[0] has no pixelFormat")) {
            try gpu.device.makeRenderPipelineState(descriptor: noAttachment)
        }
        let wrongStage = RenderPipelineDescriptor()
        wrongStage.vertexFunction = try gpu.function("color.frag")
        #expect(throws: LibraryError.self) { try gpu.device.makeRenderPipelineState(descriptor: wrongStage) }
    }
}

extension RenderTests {
    /// triangle.vert (a 20-byte uniform block at vertex buffer index 2) with mrt.frag (a
    /// 16-byte block at fragment buffer index 0) into two rgba8Unorm attachments.
    static func mrtPipeline(_ gpu: TestGPU) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("triangle.vert")
        descriptor.fragmentFunction = try gpu.function("mrt.frag")
        descriptor.vertexDescriptor = positionAndColor()
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        descriptor.colorAttachments[1].pixelFormat = .rgba8Unorm
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// A pass clearing `first` and `second`, mrtPipeline's two attachments.
    static func mrtPass(_ gpu: TestGPU, _ first: Texture, _ second: Texture) -> RenderPassDescriptor {
        let pass = gpu.clearingPass(first)
        pass.colorAttachments[1].texture = second
        pass.colorAttachments[1].loadAction = .clear
        return pass
    }

    @Test("two colour attachments, one tinted by setFragmentBytes")
    func multipleAttachments() throws {
        let gpu = try TestGPU()
        let first = try gpu.renderTarget()
        let second = try gpu.renderTarget()
        let pipeline = try Self.mrtPipeline(gpu)
        let pass = Self.mrtPass(gpu, first, second)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        var tint: [Float] = [1, 0.5, 1, 1]
        encoder.setFragmentBytes(&tint, length: 16, index: 0)
        try Self.draw(encoder, gpu, try gpu.buffer(Self.solid(1, 0, 0, 1)))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(texel(try gpu.pixels(of: first), width: 64, x: 32, y: 40) == [255, 0, 0, 255])
        let inverse = texel(try gpu.pixels(of: second), width: 64, x: 32, y: 40)
        #expect(inverse[0] == 0 && abs(Int(inverse[1]) - 128) <= 1 && inverse[2] == 255, "\(inverse)")
    }

    @Test("lines, line strips and triangle strips draw through a pipeline of their class")
    func primitiveTypes() throws {
        let gpu = try TestGPU()
        let lineDescriptor = RenderPipelineDescriptor()
        lineDescriptor.vertexFunction = try gpu.function("triangle.vert")
        lineDescriptor.fragmentFunction = try gpu.function("color.frag")
        lineDescriptor.vertexDescriptor = Self.positionAndColor()
        lineDescriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        lineDescriptor.inputPrimitiveTopology = .line
        let lines = try gpu.device.makeRenderPipelineState(descriptor: lineDescriptor)
        // A horizontal line across the middle, then a vertical one as a strip.
        let points: [Float] = [-1, -0.03, 1, 1, 1, 1, 1, -0.03, 1, 1, 1, 1, 0.03, 1, 1, 1, 1, 1, 0.03, -1, 1, 1, 1, 1]
        let target = try gpu.renderTarget()
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(lines)
        encoder.setVertexBuffer(try gpu.buffer(points), offset: 0, index: 0)
        var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
        encoder.setVertexBytes(&transform, length: 32, index: 2)
        encoder.drawPrimitives(type: .line, vertexStart: 0, vertexCount: 2)
        encoder.drawPrimitives(type: .lineStrip, vertexStart: 2, vertexCount: 2)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        #expect((0..<64).filter { texel(pixels, width: 64, x: $0, y: 32) == [255, 255, 255, 255] }.count > 56, "a full row")
        #expect((0..<64).filter { texel(pixels, width: 64, x: 32, y: $0) == [255, 255, 255, 255] }.count > 56, "a full column")
        #expect(texel(pixels, width: 64, x: 10, y: 10) == [0, 0, 0, 255])

        // A triangle strip of four vertices covers a quad.
        let strip: [Float] = [-0.5, 0.5, 0, 1, 0, 1, 0.5, 0.5, 0, 1, 0, 1, -0.5, -0.5, 0, 1, 0, 1, 0.5, -0.5, 0, 1, 0, 1]
        let quadTarget = try gpu.renderTarget()
        let quadBuffer = try gpu.queue.makeCommandBuffer()
        let quad = try quadBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(quadTarget))
        quad.setRenderPipelineState(try Self.colorPipeline(gpu))
        quad.setVertexBuffer(try gpu.buffer(strip), offset: 0, index: 0)
        quad.setVertexBytes(&transform, length: 32, index: 2)
        quad.drawPrimitives(type: .triangleStrip, vertexStart: 0, vertexCount: 4)
        quad.endEncoding()
        quadBuffer.commit()
        quadBuffer.waitUntilCompleted()
        let quadPixels = try gpu.pixels(of: quadTarget)
        let covered = (0..<(64 * 64)).filter { quadPixels[$0 * 4 + 1] == 255 }.count
        #expect(abs(covered - 32 * 32) <= 64, "a 32×32 quad: \(covered) pixels")
    }

    @Test("back-face culling follows the winding set on the encoder")
    func cullingAndWinding() throws {
        let gpu = try TestGPU()
        let pipeline = try Self.colorPipeline(gpu)
        let vertices = try gpu.buffer(Self.solid(1, 1, 1, 1))
        func render(cull: CullMode, winding: Winding) throws -> [UInt8] {
            let target = try gpu.renderTarget()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            encoder.setRenderPipelineState(pipeline)
            encoder.setCullMode(cull)
            encoder.setFrontFacing(winding)
            try Self.draw(encoder, gpu, vertices)
            encoder.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            return texel(try gpu.pixels(of: target), width: 64, x: 32, y: 40)
        }
        // The triangle runs top → bottom-right → bottom-left: clockwise as seen in the image.
        #expect(try render(cull: .none, winding: .clockwise) == [255, 255, 255, 255])
        #expect(try render(cull: .back, winding: .clockwise) == [255, 255, 255, 255], "front-facing: kept")
        #expect(try render(cull: .back, winding: .counterClockwise) == [0, 0, 0, 255], "back-facing: culled")
        #expect(try render(cull: .front, winding: .clockwise) == [0, 0, 0, 255])
    }
}

extension RenderTests {
    @Test("stencil: a masked draw lands only where an earlier draw wrote the reference value")
    func stencilMask() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let depthStencil = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            pixelFormat: .depth32Float_stencil8, width: 64, height: 64, usage: .renderTarget))
        func pipeline(writesColor: Bool) throws -> RenderPipelineState {
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try gpu.function("triangle.vert")
            descriptor.fragmentFunction = try gpu.function("color.frag")
            descriptor.vertexDescriptor = Self.positionAndColor()
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            descriptor.colorAttachments[0].writeMask = writesColor ? .all : []
            descriptor.depthAttachmentPixelFormat = .depth32Float_stencil8
            return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        }
        let write = StencilDescriptor()
        write.depthStencilPassOperation = .replace
        let writeState = DepthStencilDescriptor()
        writeState.frontFaceStencil = write
        let test = StencilDescriptor()
        test.stencilCompareFunction = .equal
        let testState = DepthStencilDescriptor()
        testState.frontFaceStencil = test

        let pass = gpu.clearingPass(target)
        pass.depthAttachment.texture = depthStencil
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        encoder.setStencilReferenceValue(1)
        encoder.setRenderPipelineState(try pipeline(writesColor: false))
        encoder.setDepthStencilState(gpu.device.makeDepthStencilState(descriptor: writeState))
        try Self.draw(encoder, gpu, try gpu.buffer(Self.solid(1, 0, 0, 1)), scale: 0.5)          // stencil mask only
        encoder.setRenderPipelineState(try pipeline(writesColor: true))
        encoder.setDepthStencilState(gpu.device.makeDepthStencilState(descriptor: testState))
        let fullScreen: [Float] = [-1, 1, 0, 1, 0, 1, 3, 1, 0, 1, 0, 1, -1, -3, 0, 1, 0, 1]
        try Self.draw(encoder, gpu, try gpu.buffer(fullScreen))                                   // green where stencil == 1
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        #expect(texel(pixels, width: 64, x: 32, y: 36) == [0, 255, 0, 255], "inside the mask")
        #expect(texel(pixels, width: 64, x: 4, y: 60) == [0, 0, 0, 255], "outside the mask")
        let green = (0..<(64 * 64)).filter { pixels[$0 * 4 + 1] == 255 }.count
        #expect(green > 200 && green < 64 * 64 / 4, "only the small masked triangle: \(green)")
    }

    @Test("setVertexBufferOffset steps through one vertex buffer: two triangles from one buffer match two buffers")
    func vertexBufferOffset() throws {
        let gpu = try TestGPU()
        let red = Self.solid(1, 0, 0, 1), blue = Self.solid(0, 0, 1, 1)
        let both = try gpu.buffer(red + blue)
        func render(_ body: (RenderCommandEncoder) throws -> Void) throws -> [UInt8] {
            let target = try gpu.renderTarget()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            encoder.setRenderPipelineState(try Self.colorPipeline(gpu))
            try body(encoder)
            encoder.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            return try gpu.pixels(of: target)
        }
        var left: [Float] = [-0.5, 0, 0.5, 0.5, 0.5, 0, 0, 0], right: [Float] = [0.5, 0, 0.5, 0.5, 0.5, 0, 0, 0]
        let stepped = try render { encoder in
            encoder.setVertexBuffer(both, offset: 0, index: 0)
            encoder.setVertexBytes(&left, length: 32, index: 2)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            encoder.setVertexBufferOffset(red.count * 4, index: 0)
            encoder.setVertexBytes(&right, length: 32, index: 2)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        let separate = try render { encoder in
            encoder.setVertexBuffer(try gpu.buffer(red), offset: 0, index: 0)
            encoder.setVertexBytes(&left, length: 32, index: 2)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            encoder.setVertexBuffer(try gpu.buffer(blue), offset: 0, index: 0)
            encoder.setVertexBytes(&right, length: 32, index: 2)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        #expect(stepped == separate)
        #expect(texel(stepped, width: 64, x: 16, y: 36) == [255, 0, 0, 255], "the left triangle is red")
        #expect(texel(stepped, width: 64, x: 48, y: 36) == [0, 0, 255, 255], "the right triangle is blue")
    }

    @Test("Metal's descriptor spellings: sampleCount is rasterSampleCount; vertex and fragment buffer mutability is accepted")
    func descriptorSpellings() {
        let descriptor = RenderPipelineDescriptor()
        descriptor.sampleCount = 4
        #expect(descriptor.rasterSampleCount == 4)
        descriptor.vertexBuffers[0].mutability = .immutable
        descriptor.fragmentBuffers[3].mutability = .mutable
        #expect(descriptor.vertexBuffers[0].mutability == .immutable && descriptor.vertexBuffers[1].mutability == .default)
        #expect(descriptor.fragmentBuffers[3].mutability == .mutable)
    }
}
