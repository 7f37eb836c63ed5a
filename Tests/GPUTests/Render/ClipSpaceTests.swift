import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Clip space is Metal's (y up) by default; a pipeline may opt into Vulkan's (y down).
@Suite("Clip-space conventions", .validated)
struct ClipSpaceTests {
    static func pipeline(_ gpu: TestGPU, _ clipSpace: ClipSpaceConvention) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("triangle.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        descriptor.vertexDescriptor = RenderTests.positionAndColor()
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        descriptor.clipSpace = clipSpace
        #expect(descriptor.clipSpace == clipSpace)
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// A red triangle with its apex at clip-space y = +0.8, scaled by 0.5 and moved by `offset`.
    static let apexUp: [Float] = RenderTests.solid(1, 0, 0, 1)

    /// The rows (0 at the top) with red in column `x`.
    static func redRows(_ pixels: [UInt8], x: Int) -> [Int] {
        (0..<64).filter { texel(pixels, width: 64, x: x, y: $0) == [255, 0, 0, 255] }
    }

    func render(_ gpu: TestGPU, _ body: (RenderCommandEncoder) throws -> Void) throws -> [UInt8] {
        let target = try gpu.renderTarget()
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        try body(encoder)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        return try gpu.pixels(of: target)
    }

    @Test("y up by default and y down with .vulkan, in one encoder; a viewport's origin is its top-left corner in both")
    func conventions() throws {
        let gpu = try TestGPU()
        let metal = try Self.pipeline(gpu, .metal), vulkan = try Self.pipeline(gpu, .vulkan)
        #expect(RenderPipelineDescriptor().clipSpace == .metal && metal.clipSpace == .metal && vulkan.clipSpace == .vulkan)
        let vertices = try gpu.buffer(Self.apexUp)

        // Left half: Metal's convention, the apex at the top. Right half: Vulkan's, the apex
        // at the bottom. Each in its own viewport, switching pipelines in one encoder.
        let pixels = try render(gpu) { encoder in
            encoder.setRenderPipelineState(metal)
            encoder.setViewport(Viewport(originX: 0, originY: 0, width: 32, height: 64, znear: 0, zfar: 1))
            try RenderTests.draw(encoder, gpu, vertices)
            encoder.setRenderPipelineState(vulkan)
            encoder.setViewport(Viewport(originX: 32, originY: 0, width: 32, height: 64, znear: 0, zfar: 1))
            try RenderTests.draw(encoder, gpu, vertices)
        }
        let left = Self.redRows(pixels, x: 16), right = Self.redRows(pixels, x: 48)
        // At the centre column red runs from the apex (y 0.8 → row 6.4) to the base
        // (y -0.8 → row 57.6), and the two halves are mirror images top to bottom.
        #expect(left.first == 8 && left.last == 57, "Metal's: \(left.first ?? -1)…\(left.last ?? -1)")
        #expect(right == left.map { 63 - $0 }.reversed(), "Vulkan's is Metal's mirrored: \(right.first ?? -1)…\(right.last ?? -1)")
        // Near the base the triangle is wide; near the apex it is narrow.
        let metalBaseRow = (0..<32).filter { texel(pixels, width: 64, x: $0, y: 54) == [255, 0, 0, 255] }.count
        let vulkanBaseRow = (32..<64).filter { texel(pixels, width: 64, x: $0, y: 9) == [255, 0, 0, 255] }.count
        #expect(metalBaseRow > 20 && vulkanBaseRow > 20, "\(metalBaseRow) \(vulkanBaseRow)")
        #expect(texel(pixels, width: 64, x: 4, y: 9) == [0, 0, 0, 255], "Metal's: narrow at the top")
    }

    @Test("data written for Vulkan's convention draws the Metal picture with .vulkan: the triangle golden image")
    func vulkanDataOptOut() throws {
        let gpu = try TestGPU()
        let pipeline = try Self.pipeline(gpu, .vulkan)
        // RenderTests.triangle with y negated: Vulkan's clip space.
        let flipped = stride(from: 0, to: RenderTests.triangle.count, by: 6).flatMap { i -> [Float] in
            var vertex = Array(RenderTests.triangle[i..<(i + 6)])
            vertex[1] = -vertex[1]
            return vertex
        }
        let target = try gpu.renderTarget()
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 0.25, alpha: 1)))
        encoder.setRenderPipelineState(pipeline)
        try RenderTests.draw(encoder, gpu, try gpu.buffer(flipped))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        try Golden.expectMatch(try gpu.pixels(of: target), width: 64, height: 64, name: "triangle")
    }

    @Test("culling names the winding seen in the image in both conventions")
    func windingInBothConventions() throws {
        let gpu = try TestGPU()
        // Metal's data runs top → bottom-right → bottom-left: clockwise in the image. The
        // same data under Vulkan's convention is mirrored top to bottom: counter-clockwise.
        for (convention, clockwiseInImage) in [(ClipSpaceConvention.metal, true), (.vulkan, false)] {
            let pipeline = try Self.pipeline(gpu, convention)
            let vertices = try gpu.buffer(Self.apexUp)
            let kept = try render(gpu) { encoder in
                encoder.setRenderPipelineState(pipeline)
                encoder.setCullMode(.back)
                encoder.setFrontFacing(clockwiseInImage ? .clockwise : .counterClockwise)
                try RenderTests.draw(encoder, gpu, vertices)
            }
            let culled = try render(gpu) { encoder in
                encoder.setRenderPipelineState(pipeline)
                encoder.setCullMode(.back)
                encoder.setFrontFacing(clockwiseInImage ? .counterClockwise : .clockwise)
                try RenderTests.draw(encoder, gpu, vertices)
            }
            #expect(!Self.redRows(kept, x: 32).isEmpty, "\(convention): front-facing is kept")
            #expect(Self.redRows(culled, x: 32).isEmpty, "\(convention): back-facing is culled")
        }
    }
}
