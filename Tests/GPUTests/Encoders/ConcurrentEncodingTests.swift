import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Separate command buffers of one queue encoded on several threads at once, each with a
/// compute pass that writes indirect arguments and a render pass that draws with them.
@Suite("Command buffers encoded on several threads at once", .validated)
struct ConcurrentEncodingTests {
    @Test("4 threads × 4 command buffers: every buffer draws what its own compute pass chose, and every one runs once")
    func separateCommandBuffers() async throws {
        let gpu = try TestGPU()
        let pipeline = try IndirectTests.instancedPipeline(gpu)
        let colors = try gpu.buffer(IndirectTests.instanceColors)
        let counter = try gpu.device.makeBuffer(length: 4)
        let (threads, rounds) = (4, 4)
        let targets = try (0..<(threads * rounds)).map { _ in try gpu.renderTarget() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for round in 0..<rounds {
                        let slot = thread * rounds + round
                        let arguments = try gpu.device.makeBuffer(length: 16)
                        let cb = try gpu.queue.makeCommandBuffer()
                        let compute = try cb.makeComputeCommandEncoder()
                        try IndirectTests.write([3, 1, 0, UInt32(slot)], to: arguments, first: 0, encoder: compute, gpu: gpu)
                        compute.setComputePipelineState(try gpu.pipeline("increment.comp"))
                        compute.setBuffer(counter, offset: 0, index: 0)
                        var amount: UInt32 = 1
                        compute.setBytes(&amount, length: 4, index: 3)
                        compute.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
                        compute.endEncoding()
                        let render = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(targets[slot]))
                        render.setRenderPipelineState(pipeline)
                        render.setVertexBuffer(colors, offset: 0, index: 0)
                        render.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: 0)
                        render.endEncoding()
                        cb.commit()
                        await cb.completed()
                        #expect(cb.status == .completed)
                    }
                }
            }
            try await group.waitForAll()
        }
        for (slot, target) in targets.enumerated() {
            #expect(IndirectTests.drawnSlots(try gpu.pixels(of: target)) == [slot])
        }
        #expect(counter.contents().load(as: UInt32.self) == UInt32(threads * rounds))
    }
}
