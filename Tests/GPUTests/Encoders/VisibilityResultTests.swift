import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Metal's visibility results (occlusion queries): the samples of the draws after
/// `setVisibilityResultMode` that pass the depth test, written to the pass's buffer.
@Suite("Visibility results", .validated)
struct VisibilityResultTests {
    /// A pipeline drawing float3 positions of buffer 0 in white, with a depth32Float
    /// attachment.
    static func pipeline(_ gpu: TestGPU) throws -> RenderPipelineState {
        let vertex = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(vertex)
            layout(location = 0) in vec3 position;
            void main() { gl_Position = vec4(position, 1); }
            """)
        let fragment = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(fragment)
            layout(location = 0) out vec4 color;
            void main() { color = vec4(1); }
            """)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try vertex.makeFunction(name: vertex.functionNames[0])
        descriptor.fragmentFunction = try fragment.makeFunction(name: fragment.functionNames[0])
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float3
        vertices.layouts[0].stride = 12
        descriptor.vertexDescriptor = vertices
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        descriptor.depthAttachmentPixelFormat = .depth32Float
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// Two triangles covering x and y in -half...half at depth z: (2 × half × 32)² pixels of
    /// a 64×64 target.
    static func quad(half: Float, z: Float) -> [Float] {
        [-half, -half, z, half, -half, z, half, half, z, -half, -half, z, half, half, z, -half, half, z]
    }

    /// A 64×64 pass with a cleared depth attachment and `visibility` as its buffer.
    static func pass(_ gpu: TestGPU, visibility: Buffer?) throws -> RenderPassDescriptor {
        let pass = gpu.clearingPass(try gpu.renderTarget())
        pass.depthAttachment.texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            pixelFormat: .depth32Float, width: 64, height: 64, usage: .renderTarget))
        pass.visibilityResultBuffer = visibility
        return pass
    }

    @Test("behind a depth-tested wall a quad counts no samples; in front of it, every sample of its pixels; boolean mode says whether any passed; offsets not counted into keep their values")
    func quadsAroundAWall() throws {
        let gpu = try TestGPU()
        let results = try gpu.device.makeBuffer(length: 6 * 8)
        let sentinel: UInt64 = 0xABAD_CAFE
        for index in 0..<6 { results.contents().storeBytes(of: sentinel, toByteOffset: index * 8, as: UInt64.self) }
        // The wall covers the target at depth 0.5; quads of 32×32 pixels lie behind it (0.8) or in front (0.2, 0.1).
        let wall = Self.quad(half: 1, z: 0.5), behind = Self.quad(half: 0.5, z: 0.8)
        let front = Self.quad(half: 0.5, z: 0.2), nearer = Self.quad(half: 0.5, z: 0.1)
        let vertices = try gpu.buffer(wall + behind + front + nearer)
        let depth = DepthStencilDescriptor()
        depth.depthCompareFunction = .less
        depth.isDepthWriteEnabled = true

        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: try Self.pass(gpu, visibility: results))
        encoder.setRenderPipelineState(try Self.pipeline(gpu))
        encoder.setDepthStencilState(gpu.device.makeDepthStencilState(descriptor: depth))
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)       // the wall, not counted
        encoder.setVisibilityResultMode(.counting, offset: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 6, vertexCount: 6)       // behind
        encoder.setVisibilityResultMode(.boolean, offset: 8)
        encoder.drawPrimitives(type: .triangle, vertexStart: 6, vertexCount: 6)       // behind
        encoder.setVisibilityResultMode(.disabled, offset: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)       // not counted
        encoder.setVisibilityResultMode(.counting, offset: 24)
        // In front, drawn twice into one span: the second passes no sample (0.2 is not less than the 0.2 written).
        encoder.drawPrimitives(type: .triangle, vertexStart: 12, vertexCount: 6)
        encoder.drawPrimitives(type: .triangle, vertexStart: 12, vertexCount: 6)
        encoder.setVisibilityResultMode(.boolean, offset: 32)
        encoder.drawPrimitives(type: .triangle, vertexStart: 18, vertexCount: 6)      // nearer still
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        let values = (0..<6).map { results.contents().load(fromByteOffset: $0 * 8, as: UInt64.self) }
        #expect(values[0] == 0, "behind the wall")
        #expect(values[1] == 0, "behind the wall")
        #expect(values[2] == sentinel && values[5] == sentinel, "not counted into")
        #expect(values[3] == 32 * 32, "every pixel of the quad in front, once")
        #expect(values[4] != 0, "in front of the wall")
    }

    @Test("a later command of the same command buffer reads the results, after a second pass with its own")
    func resultsForLaterCommands() throws {
        let gpu = try TestGPU()
        let results = try gpu.device.makeBuffer(length: 16)
        let copy = try gpu.device.makeBuffer(length: 16)
        let vertices = try gpu.buffer(Self.quad(half: 0.25, z: 0.5))
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        for offset in [0, 8] {
            let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: try Self.pass(gpu, visibility: results))
            encoder.setRenderPipelineState(try Self.pipeline(gpu))
            encoder.setVertexBuffer(vertices, offset: 0, index: 0)
            encoder.setVisibilityResultMode(.counting, offset: offset)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6, instanceCount: offset == 0 ? 1 : 3)
            encoder.endEncoding()
        }
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.copy(from: results, sourceOffset: 0, to: copy, destinationOffset: 0, size: 16)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        // Depth compare is Metal's default, always: each instance's 16×16 pixels count.
        #expect(copy.contents().load(as: UInt64.self) == 16 * 16)
        #expect(copy.contents().load(fromByteOffset: 8, as: UInt64.self) == 3 * 16 * 16)
    }

    /// Calls Metal's rules refuse, each with the message it stops with.
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case noBuffer, misaligned, pastTheEnd, offsetAgain

        var message: String {
            switch self {
            case .noBuffer: "setVisibilityResultMode(_:offset:): the pass descriptor has no visibilityResultBuffer"
            case .misaligned: "offset 4 is not a multiple of 8 whose 8 bytes lie in the visibility result buffer's 16 bytes"
            case .pastTheEnd: "offset 16 is not a multiple of 8 whose 8 bytes lie in the visibility result buffer's 16 bytes"
            case .offsetAgain: "offset 8 has been counted into already in this pass"
            }
        }

        func run() throws {
            let gpu = try TestGPU()
            let buffer = try gpu.device.makeBuffer(length: 16)
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            let encoder = try commandBuffer.makeRenderCommandEncoder(
                descriptor: try VisibilityResultTests.pass(gpu, visibility: self == .noBuffer ? nil : buffer))
            switch self {
            case .noBuffer: encoder.setVisibilityResultMode(.boolean, offset: 0)
            case .misaligned: encoder.setVisibilityResultMode(.boolean, offset: 4)
            case .pastTheEnd: encoder.setVisibilityResultMode(.counting, offset: 16)
            case .offsetAgain:
                encoder.setVisibilityResultMode(.counting, offset: 8)
                encoder.setVisibilityResultMode(.boolean, offset: 8)
            }
        }
    }

    @Test("misuse: visibility results without a buffer, at an offset outside it or misaligned, or at one counted into already",
          arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: "))
        #expect(stderr(result).contains(misuse.message))
    }
}
