import GPU
import GPUTestSupport
import MetalKit
import Testing

/// A renderer as a MetalKit sample writes one for a view with depth or multisampling: its
/// pipeline takes the view's formats and sample count, and each frame draws the quads it
/// is given into `currentRenderPassDescriptor`, waiting for the GPU.
@MainActor
final class QuadRenderer: NSObject, MTKViewDelegate {
    let commandQueue: MTLCommandQueue
    let pipeline: MTLRenderPipelineState
    let depthState: MTLDepthStencilState
    /// Each quad's corners' depth, its colour, and the stencil reference its draw uses.
    var quads: [(z: Float, color: SIMD4<Float>, stencilReference: UInt32)] = []
    /// The triangles drawn instead of quads, as three (x, y) corners each, when set.
    var triangle: [SIMD2<Float>]?
    /// The pass of the last frame.
    var lastPass: MTLRenderPassDescriptor?
    /// The drawable of the last frame.
    var lastDrawable: Drawable?

    init(view: MTKView, depthStencil: MTLDepthStencilDescriptor) throws {
        let device = view.device!
        commandQueue = device.makeCommandQueue()!
        let vertexDescriptor = MTLVertexDescriptor()
        vertexDescriptor.attributes[0].format = .float3
        vertexDescriptor.layouts[0].stride = MemoryLayout<Float>.stride * 3
        let descriptor = MTLRenderPipelineDescriptor()
        descriptor.vertexFunction = try device.makeLibrary(source: TintShaders.positions3D, options: nil).makeFunction(name: "main")
        descriptor.fragmentFunction = try device.makeLibrary(source: TintShaders.tint, options: nil).makeFunction(name: "main")
        descriptor.vertexDescriptor = vertexDescriptor
        descriptor.colorAttachments[0].pixelFormat = view.colorPixelFormat
        descriptor.depthAttachmentPixelFormat = view.depthStencilPixelFormat
        descriptor.stencilAttachmentPixelFormat = view.depthStencilPixelFormat?.hasStencil == true ? view.depthStencilPixelFormat : nil
        descriptor.rasterSampleCount = view.sampleCount
        pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
        depthState = device.makeDepthStencilState(descriptor: depthStencil)!
    }

    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize) {}

    func draw(in view: MTKView) {
        guard let pass = view.currentRenderPassDescriptor, let drawable = view.currentDrawable else { return }
        let commandBuffer = commandQueue.makeCommandBuffer()!
        let encoder = commandBuffer.makeRenderCommandEncoder(descriptor: pass)!
        encoder.setRenderPipelineState(pipeline)
        encoder.setDepthStencilState(depthState)
        for quad in quads {
            let xy: [SIMD2<Float>] = [[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]]
            var corners = xy.flatMap { [$0.x, $0.y, quad.z] }
            var color = quad.color
            (encoder as! RenderCommandEncoder).setStencilReferenceValue(quad.stencilReference)
            encoder.setVertexBytes(&corners, length: corners.count * 4, index: 0)
            encoder.setFragmentBytes(&color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        }
        if let triangle {
            var corners: [Float] = triangle.flatMap { [$0.x, $0.y, Float(0.5)] }
            var white = SIMD4<Float>(1, 1, 1, 1)
            encoder.setVertexBytes(&corners, length: corners.count * 4, index: 0)
            encoder.setFragmentBytes(&white, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        encoder.endEncoding()
        commandBuffer.present(drawable)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        lastPass = pass
        lastDrawable = drawable as? Drawable
    }

    /// The last frame's pixels, BGRA, as a function of (x, y).
    func pixels() -> (Int, Int) -> [UInt8] {
        let texture = lastDrawable!.texture
        let width = texture.width
        var bytes = [UInt8](repeating: 0, count: width * texture.height * 4)
        texture.getBytes(&bytes, bytesPerRow: width * 4, from: MTLRegionMake2D(0, 0, width, texture.height), mipmapLevel: 0)
        return { x, y in Array(bytes[(y * width + x) * 4 ..< (y * width + x) * 4 + 4]) }
    }
}

@Suite("MetalKit's view: depth, stencil and multisampling", .validated)
@MainActor
struct MTKViewAttachmentTests {
    static func view(width: Int = 16, height: Int = 16) -> MTKView {
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: width, height: height), device: MTLCreateSystemDefaultDevice()!)
        view.isPaused = true
        view.clearColor = MTLClearColorMake(0, 0, 0, 1)
        return view
    }

    static func depthTest() -> MTLDepthStencilDescriptor {
        let descriptor = MTLDepthStencilDescriptor()
        descriptor.depthCompareFunction = .less
        descriptor.isDepthWriteEnabled = true
        return descriptor
    }

    @Test("depthStencilPixelFormat: the view's depth texture of the drawable size is cleared to clearDepth each frame; the nearer quad wins though drawn first")
    func depth() throws {
        let view = Self.view(width: 16, height: 8)
        #expect(view.depthStencilPixelFormat == nil && view.depthStencilTexture == nil, "none by default, as MetalKit's .invalid")
        view.depthStencilPixelFormat = .depth32Float
        let renderer = try QuadRenderer(view: view, depthStencil: Self.depthTest())
        view.delegate = renderer
        renderer.quads = [(0.25, [0, 1, 0, 1], 0), (0.75, [1, 0, 0, 1], 0)]
        view.draw()
        let pass = try #require(renderer.lastPass)
        let depth = try #require(pass.depthAttachment.texture)
        #expect(depth === view.depthStencilTexture)
        #expect(depth.width == 16 && depth.height == 8 && depth.pixelFormat == .depth32Float)
        #expect(pass.depthAttachment.loadAction == .clear && pass.depthAttachment.storeAction == .dontCare)
        #expect(pass.depthAttachment.clearDepth == 1.0)
        #expect(pass.stencilAttachment.texture == nil, "no stencil in .depth32Float")
        var pixel = renderer.pixels()
        #expect((0..<8).allSatisfy { y in (0..<16).allSatisfy { x in pixel(x, y) == [0, 255, 0, 255] } }, "bgra: green")

        // The next frame clears depth again (a depth left at 0.25 would reject both); a
        // clearDepth of 0.5 rejects the far quad, which is then all that is drawn.
        renderer.quads = [(0.75, [1, 0, 0, 1], 0), (0.25, [0, 0, 1, 1], 0)]
        view.draw()
        pixel = renderer.pixels()
        #expect(pixel(3, 3) == [255, 0, 0, 255], "bgra: blue, nearer than the far quad")
        view.clearDepth = 0.5
        renderer.quads = [(0.75, [1, 0, 0, 1], 0)]
        view.draw()
        pixel = renderer.pixels()
        #expect(pixel(3, 3) == [0, 0, 0, 255], "the far quad behind the cleared depth")

        // A new size gets a depth texture of that size.
        view.drawableSize = CGSize(width: 8, height: 4)
        view.draw()
        #expect(view.depthStencilTexture?.width == 8 && renderer.lastPass?.depthAttachment.texture?.height == 4)
    }

    @Test("depthStencilPixelFormat with stencil: the pass's stencil attachment is the depth texture, cleared to clearStencil")
    func stencil() throws {
        let view = Self.view()
        view.depthStencilPixelFormat = .depth32Float_stencil8
        view.clearStencil = 7
        let stencil = StencilDescriptor()
        stencil.stencilCompareFunction = .equal
        let descriptor = MTLDepthStencilDescriptor()
        descriptor.frontFaceStencil = stencil
        let renderer = try QuadRenderer(view: view, depthStencil: descriptor)
        view.delegate = renderer
        // Only the draw whose reference equals the cleared stencil passes.
        renderer.quads = [(0.5, [1, 0, 0, 1], 0), (0.5, [0, 1, 0, 1], 7), (0.5, [0, 0, 1, 1], 6)]
        view.draw()
        let pass = try #require(renderer.lastPass)
        #expect(pass.stencilAttachment.texture === pass.depthAttachment.texture)
        #expect(pass.stencilAttachment.clearStencil == 7 && pass.stencilAttachment.loadAction == .clear)
        #expect(renderer.pixels()(5, 5) == [0, 255, 0, 255], "bgra: green, the reference-7 draw")
    }

    @Test("sampleCount 4: frames render into the view's multisample texture and resolve into the drawable; a triangle's edge pixels are blends")
    func multisampling() throws {
        let view = Self.view()
        view.sampleCount = 4
        view.depthStencilPixelFormat = .depth32Float
        let renderer = try QuadRenderer(view: view, depthStencil: Self.depthTest())
        view.delegate = renderer
        // The lower-left half of the view, cut by the diagonal.
        renderer.triangle = [[-1, -1], [1, -1], [-1, 1]]
        view.draw()
        let pass = try #require(renderer.lastPass)
        let color = try #require(pass.colorAttachments[0].texture)
        #expect(color === view.multisampleColorTexture && color.sampleCount == 4)
        #expect(pass.colorAttachments[0].resolveTexture === renderer.lastDrawable?.texture)
        #expect(pass.colorAttachments[0].storeAction == .multisampleResolve)
        #expect(pass.depthAttachment.texture?.sampleCount == 4)
        let pixel = renderer.pixels()
        #expect(pixel(2, 13) == [255, 255, 255, 255], "inside")
        #expect(pixel(13, 2) == [0, 0, 0, 255], "outside")
        // Pixels the diagonal crosses are covered by some of their four samples: grey.
        let edge = (0..<16).map { pixel($0, $0) }
        #expect(edge.allSatisfy { $0[0] > 0 && $0[0] < 255 && $0[0] == $0[1] && $0[1] == $0[2] }, "\(edge)")
        // Without multisampling (and a pipeline of one sample), no pixel is a blend.
        view.sampleCount = 1
        let single = try QuadRenderer(view: view, depthStencil: Self.depthTest())
        single.triangle = renderer.triangle
        view.delegate = single
        view.draw()
        #expect(single.lastPass?.colorAttachments[0].texture === single.lastDrawable?.texture)
        #expect(single.lastPass?.colorAttachments[0].resolveTexture == nil)
        #expect(view.multisampleColorTexture == nil)
        let singlePixel = single.pixels()
        #expect((0..<16).allSatisfy { x in (0..<16).allSatisfy { y in [0, 255].contains(singlePixel(x, y)[0]) } })
    }
}

@Suite("MetalKit's view: misuse of its attachments")
struct MTKViewAttachmentMisuseTests {
    @Test("misuse: a sample count SwiftGPU's textures do not offer stops, naming the property and the count")
    func sampleCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: nil).sampleCount = 8 }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: MTKView.sampleCount: 8 is not 1 or 4"))
    }

    @Test("misuse: a colour format as the depth-stencil format stops, naming it")
    func colorAsDepth() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: nil).depthStencilPixelFormat = .rgba8Unorm
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: MTKView.depthStencilPixelFormat: rgba8Unorm is no depth or stencil format"))
    }
}
