import GPUTestSupport
import Testing
@testable import GPU
import SwiftGPUSPIRV

/// Small uniform blocks fed by setVertexBytes / setFragmentBytes reach the shaders through
/// push constants, by a rewritten twin of the pipeline; the pixels are the same whichever
/// way a block is fed.
@Suite("setBytes through push constants", .validated)
struct PushConstantTests {
    /// How the tint reaches mrt.frag in a draw; with `.bytes`, how the vertex transform
    /// reaches triangle.vert: 32 bytes, only the block's 20, or a buffer.
    enum Tint { case bytes, buffer, bytesWithShortTransform, bytesWithTransformBuffer }

    /// Where draw `index` lands: a 3 × 3 grid, rows from the middle one (clip space, and
    /// the texel under the triangle's centre in the 64 × 64 targets).
    private static func cell(_ index: Int) -> (offset: (Float, Float), texel: (x: Int, y: Int)) {
        let row = index / 3 % 3
        return ((Float(index % 3) * 0.6 - 0.6, [0, 0.6, -0.6][row]), ([13, 32, 51][index % 3], [34, 15, 53][row]))
    }

    /// The green the tint of draw `index` leaves in the second (inverting) target.
    private static func inverseGreen(_ index: Int) -> Int { Int(0.4 * Float(index + 1) / 10 * 255) }

    /// Draws a triangle per element of `tints` (at most nine) into two targets, the tint fed
    /// as the element says; returns both targets' pixels.
    private func render(_ gpu: TestGPU, tints: [Tint]) throws -> [[UInt8]] {
        let pipeline = try RenderTests.mrtPipeline(gpu)
        let first = try gpu.renderTarget()
        let second = try gpu.renderTarget()
        let pass = RenderTests.mrtPass(gpu, first, second)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        let vertices = try gpu.buffer(RenderTests.solid(0.2, 0.6, 0.4, 1))
        for (index, tint) in tints.enumerated() {
            var color: [Float] = [1, Float(index + 1) / 10, 0.5, 1]
            switch tint {
            case .buffer: encoder.setFragmentBuffer(try gpu.buffer(color), offset: 0, index: 0)
            default: encoder.setFragmentBytes(&color, length: 16, index: 0)
            }
            let (x, y) = Self.cell(index).offset
            var transform: [Float] = [x, y, 0.3, 0.3, 0.5, 0, 0, 0]
            switch tint {
            case .bytesWithShortTransform:
                encoder.setVertexBuffer(vertices, offset: 0, index: 0)
                encoder.setVertexBytes(&transform, length: 20, index: 2)
                encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            case .bytesWithTransformBuffer:
                encoder.setVertexBuffer(vertices, offset: 0, index: 0)
                encoder.setVertexBuffer(try gpu.buffer(transform), offset: 0, index: 2)
                encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            default:
                try RenderTests.draw(encoder, gpu, vertices, offset: (x, y), scale: 0.3)
            }
        }
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        return [try gpu.pixels(of: first), try gpu.pixels(of: second)]
    }

    @Test("a pipeline whose uniform blocks fit gets a twin with both blocks in push constants")
    func twinLayout() throws {
        let gpu = try TestGPU()
        let twin = try #require(try RenderTests.mrtPipeline(gpu).pushConstants)
        #expect(twin.slots.isEmpty)
        #expect(twin.pushSlots.map(\.offset) == [0, 32])
        #expect(twin.pushSlots.map(\.size) == [20, 16])
        #expect(twin.pushSlots.map(\.tableSlot.value) == [2, 32])
        let off = try TestGPU(pushConstants: false)
        #expect(try RenderTests.mrtPipeline(off).pushConstants == nil)
    }

    @Test("the rewritten module declares push constants at the offset given, and no descriptor for the block")
    func rewrittenModule() throws {
        let gpu = try TestGPU()
        let fragment = try gpu.function("mrt.frag").module
        #expect(fragment.uniformBlockSizes == [64: 16])
        let words = try #require(SPIRVModule.movingUniformBlock(in: fragment.words, atBinding: 64, toPushConstantOffset: 32))
        let moved = try SPIRVModule(words: words)
        #expect(moved.entryPoints[0].pushConstantSize == 48)
        #expect(moved.entryPoints[0].bindings.isEmpty)
        #expect(moved.uniformBlockSizes.isEmpty)
        #expect(SPIRVModule.movingUniformBlock(in: fragment.words, atBinding: 65, toPushConstantOffset: 0) == nil)
        // A storage buffer is not a uniform block: declined.
        let compute = try gpu.function("add.comp").module
        #expect(SPIRVModule.movingUniformBlock(in: compute.words, atBinding: 0, toPushConstantOffset: 0) == nil)
    }

    @Test("push constants, descriptors, and a buffer in the block's place draw the same pixels, switching within a pass, with push descriptors or descriptor sets")
    func samePixels() throws {
        let viaDescriptors = try render(try TestGPU(pushConstants: false), tints: [.bytes, .bytes, .bytes])
        let viaPush = try render(try TestGPU(), tints: [.bytes, .bytes, .bytes])
        let mixed = try render(try TestGPU(), tints: [.bytes, .buffer, .bytes])
        let viaBuffers = try render(try TestGPU(), tints: [.buffer, .buffer, .buffer])
        let withDescriptorSets = try render(try TestGPU(pushDescriptors: false), tints: [.bytes, .buffer, .bytes])
        #expect(viaPush == viaDescriptors)
        #expect(withDescriptorSets == viaDescriptors)
        #expect(mixed == viaDescriptors)
        #expect(viaBuffers == viaDescriptors)
        // Three tinted triangles landed: the second target's texels under their centres.
        for index in 0..<3 {
            let inverse = texel(viaPush[1], width: 64, x: Self.cell(index).texel.x, y: Self.cell(index).texel.y)
            #expect(inverse[0] == 204 && abs(Int(inverse[1]) - Self.inverseGreen(index)) <= 1, "\(inverse)")
        }
    }

    /// Between draws of one pipeline, new bytes where the last draw pushed them (as many or
    /// more) are pushed alone, and a vertex-attribute buffer changed alone is bound alone;
    /// fewer bytes, or a buffer where bytes were pushed, rebind everything. Each sequence
    /// draws what full rebinding before every draw draws.
    @Test("bytes pushed alone and vertex buffers rebound alone between draws draw the pixels of full rebinding")
    func pushedAloneBetweenDraws() throws {
        let sequences: [[Tint]] = [
            [.bytes, .bytesWithShortTransform, .bytes],
            [.bytes, .bytesWithTransformBuffer, .bytes],
            [.bytesWithTransformBuffer, .bytes, .buffer],
            [.buffer, .bytes, .bytesWithShortTransform],
            // Same-length bytes are copied over data only pushes read: over a run of pushes,
            // into a draw that reads them through descriptors (a buffer elsewhere makes the
            // twin unusable), and, after that draw, into new memory again.
            [.bytes, .bytes, .bytes, .bytesWithTransformBuffer, .bytes, .bytes, .buffer, .bytes, .bytes],
            [.bytes, .bytes, .bytesWithShortTransform, .bytes, .bytes, .bytesWithTransformBuffer, .bytesWithTransformBuffer, .bytes, .bytes],
        ]
        for tints in sequences {
            let viaDescriptors = try render(try TestGPU(pushConstants: false), tints: tints)
            #expect(try render(try TestGPU(), tints: tints) == viaDescriptors, "\(tints)")
            #expect(try render(try TestGPU(pushDescriptors: false), tints: tints) == viaDescriptors, "\(tints)")
            for index in tints.indices {
                let inverse = texel(viaDescriptors[1], width: 64, x: Self.cell(index).texel.x, y: Self.cell(index).texel.y)
                #expect(inverse[0] == 204 && abs(Int(inverse[1]) - Self.inverseGreen(index)) <= 1, "\(tints) \(index): \(inverse)")
            }
        }
    }

    @Test("a compute pipeline's uniform block is a push constant when setBytes feeds it, a descriptor when a buffer does")
    func computeTwin() throws {
        let gpu = try TestGPU()
        let pipeline = try gpu.pipeline("increment.comp")
        let twin = try #require(pipeline.pushConstants)
        #expect(twin.pushSlots.map(\.size) == [4] && twin.pushSlots.map(\.tableSlot.value) == [3])
        #expect(twin.slots.map(\.index) == [0])
        #expect(try TestGPU(pushConstants: false).pipeline("increment.comp").pushConstants == nil)
        let counter = try gpu.device.makeBuffer(length: 4)
        var seven: UInt32 = 7
        let params = try gpu.device.makeBuffer(bytes: &seven, length: 4)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(counter, offset: 0, index: 0)
        for amount: UInt32? in [5, nil, 11] {
            if var amount {
                encoder.setBytes(&amount, length: 4, index: 3)
            } else {
                encoder.setBuffer(params, offset: 0, index: 3)
            }
            encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        }
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 23)
    }
}
