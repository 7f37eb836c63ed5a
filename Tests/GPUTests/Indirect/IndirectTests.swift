import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Indirect draws and dispatches whose arguments a compute pass of the same command buffer
/// writes: the pixels and counts show the GPU read what the compute pass wrote, and the
/// suite passes under synchronization validation (`GPU_VALIDATION=sync`), which reports a
/// missing barrier between the argument writes and the indirect reads, or between a pass's
/// indirect reads and a later rewrite of the arguments.
@Suite("Indirect draws and dispatches read arguments the GPU wrote", .validated)
struct IndirectTests {
    /// Writes `words` (at most 8) into `buffer` from word `first`, with `write_words.comp`.
    static func write(_ words: [UInt32], to buffer: Buffer, first: UInt32, encoder: ComputeCommandEncoder, gpu: TestGPU) throws {
        var params = [UInt32](repeating: 0, count: 9)
        params.replaceSubrange(0..<words.count, with: words)
        params[8] = first
        encoder.setComputePipelineState(try gpu.pipeline("write_words.comp"))
        encoder.setBuffer(buffer, offset: 0, index: 0)
        encoder.setBytes(params, length: 36, index: 3)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 8))
    }

    /// The instanced pipeline: a triangle per instance on a 4×4 grid, coloured per instance.
    static func instancedPipeline(_ gpu: TestGPU) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("instanced.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// A colour per instance: instance i is (i/16, 1 - i/16, 0.5, 1).
    static let instanceColors: [Float] = (0..<16).flatMap { i -> [Float] in [Float(i) / 16, 1 - Float(i) / 16, 0.5, 1] }

    /// Which grid slots of `pixels` show their instance's colour; the others must be clear.
    static func drawnSlots(_ pixels: [UInt8]) -> [Int] {
        (0..<16).filter { p in
            let texel = texel(pixels, width: 64, x: 8 + 16 * (p % 4), y: 8 + 16 * (p / 4))
            if texel == [0, 0, 0, 255] { return false }
            #expect(abs(Int(texel[0]) - Int((Float(p) / 16 * 255).rounded())) <= 1, "slot \(p): \(texel)")
            #expect(abs(Int(texel[1]) - Int(((1 - Float(p) / 16) * 255).rounded())) <= 1, "slot \(p): \(texel)")
            return true
        }
    }

    @Test("a compute pass writes draw arguments that the render pass after it draws with: count, base instance, indexed with a negative base vertex")
    func computeWrittenDraws() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let arguments = try gpu.device.makeBuffer(length: 64)   // zero: nothing drawn unless the compute pass ran first
        // Indices 10, 11, 12 at element 2 of the buffer, bound from byte 4: indexStart 1 and
        // baseVertex -10 make them the triangle's vertices 0, 1, 2.
        let indices = try gpu.buffer([UInt32]([7, 7, 10, 11, 12]))
        let cb = try gpu.queue.makeCommandBuffer()
        let compute = try cb.makeComputeCommandEncoder()
        // Words 0–3: 3 vertices × 3 instances from instance 1. Words 8–12: 3 indices from
        // indexStart 1, 2 instances from instance 13, baseVertex -10.
        try Self.write([3, 3, 0, 1], to: arguments, first: 0, encoder: compute, gpu: gpu)
        try Self.write([3, 2, 1, UInt32(bitPattern: -10), 13], to: arguments, first: 8, encoder: compute, gpu: gpu)
        compute.endEncoding()
        let render = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        render.setRenderPipelineState(try Self.instancedPipeline(gpu))
        render.setVertexBuffer(try gpu.buffer(Self.instanceColors), offset: 0, index: 0)
        render.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: 0)
        render.drawIndexedPrimitives(type: .triangle, indexType: .uint32, indexBuffer: indices, indexBufferOffset: 4,
                                     indirectBuffer: arguments, indirectBufferOffset: 32)
        render.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(Self.drawnSlots(try gpu.pixels(of: target)) == [1, 2, 3, 13, 14])
    }

    @Test("arguments rewritten after a pass that drew with them: the rewrite waits for the pass, the next pass sees the new ones")
    func rewriteAfterIndirectDraw() throws {
        let gpu = try TestGPU()
        // Render-target usage alone: the targets rest in the attachment layout, so no layout
        // change after a pass orders the rewrite after it; only the hazard record does.
        let targets = try (0..<2).map { _ in try gpu.renderTarget(usage: [.renderTarget]) }
        let arguments = try gpu.device.makeBuffer(length: 16)
        let pipeline = try Self.instancedPipeline(gpu)
        let colors = try gpu.buffer(Self.instanceColors)
        let cb = try gpu.queue.makeCommandBuffer()
        for (target, words) in zip(targets, [[3, 2, 0, 4], [3, 1, 0, 9]] as [[UInt32]]) {
            let compute = try cb.makeComputeCommandEncoder()
            try Self.write(words, to: arguments, first: 0, encoder: compute, gpu: gpu)
            compute.endEncoding()
            let render = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            render.setRenderPipelineState(pipeline)
            render.setVertexBuffer(colors, offset: 0, index: 0)
            render.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: 0)
            render.endEncoding()
        }
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(Self.drawnSlots(try gpu.pixels(of: targets[0])) == [4, 5])
        #expect(Self.drawnSlots(try gpu.pixels(of: targets[1])) == [9])
    }

    @Test("an indirect dispatch runs the threadgroups an earlier dispatch in the same encoder counted, at an offset")
    func computeWrittenDispatch() throws {
        let gpu = try TestGPU()
        let arguments = try gpu.device.makeBuffer(length: 64)
        let counter = try gpu.device.makeBuffer(length: 4)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        try Self.write([5, 2, 3], to: arguments, first: 4, encoder: encoder, gpu: gpu)
        encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
        encoder.setBuffer(counter, offset: 0, index: 0)
        var amount: UInt32 = 7
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(indirectBuffer: arguments, indirectBufferOffset: 16, threadsPerThreadgroup: Size(width: 1))
        // A rewrite of the arguments after the indirect dispatch read them, then one more.
        try Self.write([1, 1, 1], to: arguments, first: 4, encoder: encoder, gpu: gpu)
        encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
        encoder.setBuffer(counter, offset: 0, index: 0)
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(indirectBuffer: arguments, indirectBufferOffset: 16, threadsPerThreadgroup: Size(width: 1))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == (5 * 2 * 3 + 1) * 7)
    }

    @Test("the argument structures have Vulkan's indirect command layouts")
    func argumentLayouts() {
        #expect(MemoryLayout<DrawPrimitivesIndirectArguments>.size == 16)
        #expect(MemoryLayout<DrawIndexedPrimitivesIndirectArguments>.size == 20)
        #expect(MemoryLayout<DrawIndexedPrimitivesIndirectArguments>.offset(of: \.baseVertex) == 12)
        #expect(MemoryLayout<DispatchThreadgroupsIndirectArguments>.size == 12)
    }

    @Test("host-written arguments from the structures draw as the GPU-written ones do")
    func hostWrittenArguments() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        var draw = DrawPrimitivesIndirectArguments(vertexCount: 3, instanceCount: 2, baseInstance: 6)
        let arguments = try gpu.device.makeBuffer(bytes: &draw, length: MemoryLayout.size(ofValue: draw))
        let cb = try gpu.queue.makeCommandBuffer()
        let render = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        render.setRenderPipelineState(try Self.instancedPipeline(gpu))
        render.setVertexBuffer(try gpu.buffer(Self.instanceColors), offset: 0, index: 0)
        render.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: 0)
        render.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(Self.drawnSlots(try gpu.pixels(of: target)) == [6, 7])
    }

    /// An indirect-argument misuse, run in its own child process.
    enum Misuse: String, Codable, Sendable, CaseIterable {
        case misalignedDraw, pastEndDraw, negativeIndexed, misalignedIndexOffset, pastEndDispatch

        /// What standard error must contain.
        var message: String {
            switch self {
            case .misalignedDraw: "drawPrimitives(type:indirectBuffer:indirectBufferOffset:): indirectBufferOffset 2 into the buffer of 64 bytes is not a non-negative multiple of 4"
            case .pastEndDraw: "drawPrimitives(type:indirectBuffer:indirectBufferOffset:): 16 bytes of arguments at indirectBufferOffset 52 do not fit the buffer of 64 bytes"
            case .negativeIndexed: "drawIndexedPrimitives(type:indexType:indexBuffer:indexBufferOffset:indirectBuffer:indirectBufferOffset:): indirectBufferOffset -4 into the buffer of 64 bytes is not a non-negative multiple of 4"
            case .misalignedIndexOffset: "drawIndexedPrimitives(type:indexType:indexBuffer:indexBufferOffset:indirectBuffer:indirectBufferOffset:): indexBufferOffset 2 is not a multiple of the 4-byte index size inside the buffer's 64 bytes"
            case .pastEndDispatch: "dispatchThreadgroups(indirectBuffer:indirectBufferOffset:threadsPerThreadgroup:): 12 bytes of arguments at indirectBufferOffset \(Int.max - 3) do not fit the buffer of 64 bytes"
            }
        }

        /// Does the misuse; never returns.
        func run() throws {
            let gpu = try TestGPU()
            let buffer = try gpu.device.makeBuffer(length: 64)
            let cb = try gpu.queue.makeCommandBuffer()
            guard self != .pastEndDispatch else {
                let encoder = try cb.makeComputeCommandEncoder()
                encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
                encoder.dispatchThreadgroups(indirectBuffer: buffer, indirectBufferOffset: Int.max - 3, threadsPerThreadgroup: Size(width: 1))
                return
            }
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(try gpu.renderTarget()))
            encoder.setRenderPipelineState(try IndirectTests.instancedPipeline(gpu))
            switch self {
            case .misalignedDraw: encoder.drawPrimitives(type: .triangle, indirectBuffer: buffer, indirectBufferOffset: 2)
            case .pastEndDraw: encoder.drawPrimitives(type: .triangle, indirectBuffer: buffer, indirectBufferOffset: 52)
            default:
                encoder.drawIndexedPrimitives(type: .triangle, indexType: .uint32, indexBuffer: buffer,
                                              indexBufferOffset: self == .misalignedIndexOffset ? 2 : 0,
                                              indirectBuffer: buffer, indirectBufferOffset: self == .negativeIndexed ? -4 : 0)
            }
        }
    }

    @Test("a misaligned or out-of-range offset stops with the call and the value", arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: "))
        #expect(stderr(result).contains(misuse.message))
    }
}
