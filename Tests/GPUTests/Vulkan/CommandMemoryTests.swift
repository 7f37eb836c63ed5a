import CVulkan
import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// The host memory command pools record into: blocks aligned and apart, chunks reused once
/// their blocks are freed, and, on a driver that records in host memory (lavapipe), the
/// driver's commands really living there, their memory coming back when the pool is reset.
@Suite("Command memory", .validated)
struct CommandMemoryTests {
    /// The allocator's three callbacks, called as a driver calls them.
    struct Driver {
        let memory: VulkanCommandMemory

        func allocate(_ size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
            memory.callbacks.pfnAllocation(memory.callbacks.pUserData, size, alignment, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT)
        }

        func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
            memory.callbacks.pfnReallocation(memory.callbacks.pUserData, block, size, alignment, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT)
        }

        func free(_ block: UnsafeMutableRawPointer?) { memory.callbacks.pfnFree(memory.callbacks.pUserData, block) }
    }

    /// Deterministic sizes and alignments: small blocks with a few large ones among them.
    static func shapes(_ count: Int) -> [(size: Int, alignment: Int)] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { index in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = index % 97 == 0 ? 5_000 + Int(state >> 40) % 60_000 : 1 + Int(state >> 33) % 600
            return (size, 1 << (Int(state >> 20) % 9))   // alignments 1 to 256
        }
    }

    @Test("blocks are aligned as asked and apart; freed, their chunks are filled again, large ones included")
    func alignedApartAndReused() throws {
        let driver = Driver(memory: VulkanCommandMemory())
        let shapes = Self.shapes(3_000)
        var chunksAfterFirstRound = 0
        for round in 0..<3 {
            var blocks: [UnsafeMutableRawPointer] = []
            for (index, shape) in shapes.enumerated() {
                let block = try #require(driver.allocate(shape.size, alignment: shape.alignment))
                #expect(Int(bitPattern: block) % shape.alignment == 0, "block \(index): alignment \(shape.alignment)")
                block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: shape.size)
                blocks.append(block)
            }
            // Every block still holds its own pattern: none overlaps another.
            for (index, block) in blocks.enumerated() {
                let bytes = UnsafeRawBufferPointer(start: block, count: shapes[index].size)
                #expect(bytes.allSatisfy { $0 == UInt8(truncatingIfNeeded: index) }, "block \(index) was overwritten")
            }
            // Freed in an order unlike the order made, as a pool's reset may.
            for index in blocks.indices.sorted(by: { ($0 * 7_919) % blocks.count < ($1 * 7_919) % blocks.count }) {
                driver.free(blocks[index])
            }
            if round == 0 { chunksAfterFirstRound = driver.memory.chunksMade }
        }
        // The shared chunks are all reused.
        #expect(driver.memory.chunksMade == chunksAfterFirstRound)
        driver.free(nil)
    }

    @Test("a freed large block's chunk is kept for the next large block it holds; a larger one gets a new chunk")
    func largeChunksKept() throws {
        let driver = Driver(memory: VulkanCommandMemory())
        let first = try #require(driver.allocate(20_000, alignment: 64))
        driver.free(first)
        let second = try #require(driver.allocate(18_000, alignment: 64))
        #expect(second == first)
        #expect(driver.memory.largeChunksMade == 1)
        let larger = try #require(driver.allocate(40_000, alignment: 64))
        #expect(driver.memory.largeChunksMade == 2)
        // More freed than are kept: the rest go back to the system.
        let many = try (0..<(VulkanCommandMemory.spareLargeLimit + 4)).map { _ in try #require(driver.allocate(6_000, alignment: 16)) }
        for block in many + [second, larger] { driver.free(block) }
        let again = try (0..<VulkanCommandMemory.spareLargeLimit).map { _ in try #require(driver.allocate(6_000, alignment: 16)) }
        #expect(driver.memory.largeChunksMade == 2 + many.count)
        for block in again { driver.free(block) }
    }

    @Test("a reallocated block keeps its bytes, growing into a large block and shrinking back")
    func reallocation() throws {
        let driver = Driver(memory: VulkanCommandMemory())
        var block = try #require(driver.allocate(40, alignment: 8))
        for index in 0..<40 { block.storeBytes(of: UInt8(index), toByteOffset: index, as: UInt8.self) }
        for size in [200, 9_000, 100_000, 64, 40] {
            block = try #require(driver.reallocate(block, size, alignment: 16))
            #expect(Int(bitPattern: block) % 16 == 0)
            let kept = UnsafeRawBufferPointer(start: block, count: 40)
            #expect(kept.elementsEqual(0..<40), "after reallocating to \(size) bytes")
        }
        #expect(driver.reallocate(block, 0, alignment: 16) == nil)   // frees it
        let fresh = try #require(driver.reallocate(nil, 24, alignment: 8))
        driver.free(fresh)
    }

    /// Records `draws` draws of one small triangle into a pass over a 64×64 target.
    static func draw(_ draws: Int, pipeline: RenderPipelineState, into encoder: RenderCommandEncoder) {
        let triangle: [Float] = [-1, -1, 1, -1, -1, 1]
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBytes(triangle, length: triangle.count * 4, index: 0)
        for index in 0..<draws {
            var color: [Float] = [Float(index % 2), 0, 1, 1]
            encoder.setFragmentBytes(&color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
    }

    @Test("a context's commands are freed into its memory: recording again takes no new chunk")
    func steadyStateOnOneContext() throws {
        let gpu = try TestGPU(maxCommandBufferCount: 1)
        let painter = try ParallelRenderTests.Painter(gpu)
        let target = try gpu.renderTarget()
        let pass = gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 0, alpha: 1))
        var chunks: [Int] = []
        for _ in 0..<6 {
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
            Self.draw(3_000, pipeline: painter.pipeline, into: encoder)
            chunks.append(encoder.context.memory.chunksMade)
            encoder.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .completed)
        }
        // lavapipe records in host memory through the pool's allocator, so 3,000 draws'
        // commands fill many chunks; a GPU driver that writes its commands into memory of its
        // own calls the allocator for little beyond the pool's state (NVIDIA's: one chunk).
        // Either way the same context records the later rounds into the chunks the reset
        // gave back. A few blocks live from one recording into the next (the command
        // buffer's own state), keeping their chunk from being filled again at once: the count
        // settles within a few chunks, by the third round.
        if gpu.device.isSoftware {
            #expect(chunks[0] > 10, "chunks made by the end of each round: \(chunks)")
        }
        #expect(chunks[2...].allSatisfy { $0 == chunks[2] }, "chunks made by the end of each round: \(chunks)")
        #expect(chunks[2] <= chunks[0] + 3, "chunks made by the end of each round: \(chunks)")
        let pixels = try gpu.pixels(of: target)
        #expect(texel(pixels, width: 64, x: 2, y: 60) == [255, 0, 255, 255])   // the last draw's colour
    }

    @Test("a parallel pass's contexts take turns between two pools over one memory: no new chunk after the first turns")
    func steadyStateOnSecondaryContexts() async throws {
        let gpu = try TestGPU(maxCommandBufferCount: 1)
        let painter = try ParallelRenderTests.Painter(gpu)
        let target = try gpu.renderTarget()
        let pass = gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 0, alpha: 1))
        var chunks: [[Int]] = []
        for _ in 0..<6 {
            let cb = try gpu.queue.makeCommandBuffer()
            let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: pass)
            let handed = try (0..<2).map { _ in HandedEncoder(encoder: try parallel.makeRenderCommandEncoder()) }
            let made = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for (index, sub) in handed.enumerated() {
                    group.addTask {
                        Self.draw(2_000, pipeline: painter.pipeline, into: sub.encoder)
                        let made = sub.encoder.context.memory.chunksMade
                        sub.encoder.endEncoding()
                        return (index, made)
                    }
                }
                return try await group.reduce(into: [Int](repeating: 0, count: 2)) { $0[$1.0] = $1.1 }
            }
            chunks.append(made)
            parallel.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .completed)
        }
        if gpu.device.isSoftware {   // lavapipe's commands live in the memory (see above)
            #expect(chunks[0].allSatisfy { $0 > 10 }, "chunks per sub-encoder context, by round: \(chunks)")
        }
        // From the second round on each context records into its other pool; the
        // sub-encoder's first call has freed the previous round's commands by then, so the
        // new ones take the same chunks, give or take the few that blocks living from one
        // recording into the next keep (see above): no doubling, and no growth from the
        // third round on.
        let comment: Comment = "chunks per sub-encoder context, by round: \(chunks)"
        #expect(zip(chunks[2], chunks[0]).allSatisfy { $0 <= $1 + 3 }, comment)
        #expect(chunks[2...].allSatisfy { $0 == chunks[2] }, comment)
    }
}
