import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Parallel render passes: sub-encoders run in the order they were made whatever order
/// they end in and on whichever threads record them, the pass clears once and stores
/// once, and hazards across sub-encoders hold under synchronization validation
/// (`GPU_VALIDATION=sync`).
@Suite("Parallel render command encoders", .validated)
struct ParallelRenderTests {
    /// Rectangles filled with a colour from fragment bytes: `bench.vert` (float2 positions
    /// in buffer 0) and `bench.frag`.
    struct Painter {
        let pipeline: RenderPipelineState
        let gpu: TestGPU

        init(_ gpu: TestGPU) throws {
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try gpu.function("bench.vert")
            descriptor.fragmentFunction = try gpu.function("bench.frag")
            let layout = VertexDescriptor()
            layout.attributes[0].format = .float2
            layout.layouts[0].stride = 8
            descriptor.vertexDescriptor = layout
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
            self.gpu = gpu
        }

        /// Fills the pixels x in `x`, y in `y` (rows from the top) of a 64×64 target with `color`.
        func fill(x: Range<Int>, y: Range<Int>, color: [Float], with encoder: RenderCommandEncoder) throws {
            func clipX(_ p: Int) -> Float { Float(p) / 32 - 1 }
            func clipY(_ p: Int) -> Float { 1 - Float(p) / 32 }
            let (left, right, top, bottom) = (clipX(x.lowerBound), clipX(x.upperBound), clipY(y.lowerBound), clipY(y.upperBound))
            let corners: [Float] = [left, top, right, top, left, bottom, right, top, right, bottom, left, bottom]
            encoder.setRenderPipelineState(pipeline)
            encoder.setVertexBytes(corners, length: corners.count * 4, index: 0)
            encoder.setFragmentBytes(color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        }
    }

    static let clear: [UInt8] = [0, 0, 255, 255]
    /// Sub-encoder i's colour.
    static func color(_ i: Int) -> [Float] { [Float(i + 1) / 8, 1 - Float(i) / 8, 0, 1] }
    /// Whether `texel` holds sub-encoder i's colour.
    static func holds(_ texel: [UInt8], colorOf i: Int) -> Bool { GPUTests.texel(texel, holds: color(i).map(Double.init)) }

    /// Sub-encoder i fills x 0..<48, y 0..<(4 − i)·16: a later one covers the top of the
    /// earlier ones. Band k (rows 16k..<16k+16) must show sub-encoder 3 − k, the column
    /// x ≥ 48 the clear colour.
    static func expectBands(_ pixels: [UInt8], _ comment: String) {
        for band in 0..<4 {
            for y in [16 * band, 16 * band + 15] {
                for x in [1, 47] {
                    let seen = texel(pixels, width: 64, x: x, y: y)
                    #expect(holds(seen, colorOf: 3 - band), "\(comment): band \(band), row \(y), x \(x): \(seen)")
                }
                #expect(texel(pixels, width: 64, x: 48, y: y) == clear, "\(comment): row \(y) right of the bands")
            }
        }
    }

    @Test("sub-encoders ended in reverse order of creation run in order of creation; the pass clears once, at its start")
    func creationOrder() throws {
        let gpu = try TestGPU(maxCommandBufferCount: 1)
        let painter = try Painter(gpu)
        // Three times: the second command buffer reuses the first one's context and its
        // secondaries, which record into their other command buffers; the third goes back
        // to the first ones, whose commands the second round's sub-encoders freed.
        for round in 0..<3 {
            let target = try gpu.renderTarget()
            let cb = try gpu.queue.makeCommandBuffer()
            let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 1, alpha: 1)))
            let encoders = try (0..<4).map { _ in try parallel.makeRenderCommandEncoder() }
            for i in (0..<4).reversed() {
                try painter.fill(x: 0..<48, y: 0..<((4 - i) * 16), color: Self.color(i), with: encoders[i])
                encoders[i].endEncoding()
            }
            parallel.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .completed)
            Self.expectBands(try gpu.pixels(of: target), "round \(round)")
        }
    }

    @Test("a reused sub-encoder context frees the previous pass's commands at its first call, on the thread that records it")
    func previousCommandsFreedByRecordingThread() async throws {
        let gpu = try TestGPU(maxCommandBufferCount: 1)
        let painter = try Painter(gpu)
        let target = try gpu.renderTarget()
        let pass = gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 1, alpha: 1))
        for round in 0..<3 {
            let cb = try gpu.queue.makeCommandBuffer()
            let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: pass)
            let encoders = try (0..<4).map { _ in try parallel.makeRenderCommandEncoder() }
            // From the second round on, each context holds the previous round's commands
            // until its sub-encoder's first call.
            #expect(encoders.allSatisfy { $0.context.otherHoldsCommands == (round > 0) }, "round \(round)")
            let handed = encoders.map { HandedEncoder(encoder: $0) }
            let threads = try await withThrowingTaskGroup(of: (Int, Bool, Bool, Bool).self) { group in
                for (i, sub) in handed.enumerated() {
                    group.addTask {
                        let encoder = sub.encoder
                        let before = encoder.context.otherHoldsCommands
                        // The last sub-encoder makes no call but its end.
                        if i < 3 { try painter.fill(x: 0..<48, y: 0..<((4 - i) * 16), color: Self.color(i), with: encoder) }
                        let heldBeforeEnd = encoder.context.otherHoldsCommands
                        encoder.endEncoding()
                        return (i, before, heldBeforeEnd, encoder.context.otherHoldsCommands)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (i, before, heldBeforeEnd, heldAfterEnd) in threads.sorted(by: { $0.0 < $1.0 }) {
                let comment: Comment = "round \(round), sub-encoder \(i)"
                #expect(before == (round > 0), comment)
                // Freed by the first call: the draws, or for the last sub-encoder its end.
                #expect(heldBeforeEnd == (i == 3 && round > 0), comment)
                #expect(!heldAfterEnd, comment)
            }
            parallel.endEncoding()
            cb.commit()
            cb.waitUntilCompleted()
            #expect(cb.status == .completed)
            let pixels = try gpu.pixels(of: target)
            for band in 0..<3 {
                let seen = texel(pixels, width: 64, x: 10, y: 16 * band + 24)
                #expect(Self.holds(seen, colorOf: 2 - band), "round \(round), band \(band): \(seen)")
            }
        }
    }

    @Test("sub-encoders recorded on several threads at once, with many draws each, run in order of creation")
    func threads() async throws {
        let gpu = try TestGPU()
        let painter = try Painter(gpu)
        let target = try gpu.renderTarget()
        let cb = try gpu.queue.makeCommandBuffer()
        let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 1, alpha: 1)))
        // Sub-encoder 0 paints the bands; 1 to 8 each paint a row of 8×8 cells in rows 48–63
        // below the bands, cell by cell, over a grey that sub-encoder 0 painted there first.
        // Each sub-encoder is made here, in order, and handed to a task of its own.
        try await withThrowingTaskGroup(of: Void.self) { group in
            let first = try parallel.makeRenderCommandEncoder()
            group.addTask {
                for i in 0..<4 { try painter.fill(x: 0..<48, y: 0..<((4 - i) * 16), color: Self.color(i), with: first) }
                try painter.fill(x: 0..<64, y: 48..<64, color: [0.5, 0.5, 0.5, 1], with: first)
                first.endEncoding()
            }
            for row in 0..<8 {
                let encoder = try parallel.makeRenderCommandEncoder()
                group.addTask {
                    for column in 0..<8 {
                        try painter.fill(x: (8 * column)..<(8 * column + 8), y: (48 + 2 * row)..<(50 + 2 * row),
                                         color: [Float(column) / 8, Float(row) / 8, 1, 1], with: encoder)
                    }
                    encoder.endEncoding()
                }
            }
            try await group.waitForAll()
        }
        parallel.endEncoding()
        cb.commit()
        await cb.completed()
        #expect(cb.status == .completed)
        let pixels = try gpu.pixels(of: target)
        for band in 0..<3 {
            let seen = texel(pixels, width: 64, x: 10, y: 16 * band + 8)
            #expect(Self.holds(seen, colorOf: 3 - band), "band \(band): \(seen)")
        }
        for row in 0..<8 {
            for column in 0..<8 {
                let seen = texel(pixels, width: 64, x: 8 * column + 4, y: 48 + 2 * row)
                #expect(texel(seen, holds: [Double(column) / 8, Double(row) / 8, 1, 1]), "cell \(column), \(row): \(seen)")
            }
        }
    }

    @Test("a compute pass writes arguments that sub-encoders draw with; a rewrite after the pass waits for every sub-encoder")
    func hazardsAcrossSubEncoders() throws {
        let gpu = try TestGPU()
        // Render-target usage alone: no layout change after a pass orders the rewrite after
        // it; only the hazard record joined from the sub-encoders does.
        let targets = try (0..<2).map { _ in try gpu.renderTarget(usage: [.renderTarget]) }
        let arguments = try gpu.device.makeBuffer(length: 32)
        let pipeline = try IndirectTests.instancedPipeline(gpu)
        let colors = try gpu.buffer(IndirectTests.instanceColors)
        let cb = try gpu.queue.makeCommandBuffer()
        // Two passes, each with two sub-encoders drawing with arguments at offsets 0 and 16.
        for (target, words) in zip(targets, [[3, 1, 0, 2, 3, 2, 0, 8], [3, 1, 0, 0, 3, 1, 0, 15]] as [[UInt32]]) {
            let compute = try cb.makeComputeCommandEncoder()
            try IndirectTests.write(words, to: arguments, first: 0, encoder: compute, gpu: gpu)
            compute.endEncoding()
            let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            for offset in [0, 16] {
                let encoder = try parallel.makeRenderCommandEncoder()
                encoder.setRenderPipelineState(pipeline)
                encoder.setVertexBuffer(colors, offset: 0, index: 0)
                encoder.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: offset)
                encoder.endEncoding()
            }
            parallel.endEncoding()
        }
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(IndirectTests.drawnSlots(try gpu.pixels(of: targets[0])) == [2, 8, 9])
        #expect(IndirectTests.drawnSlots(try gpu.pixels(of: targets[1])) == [0, 15])
    }

    @Test("a pass with no sub-encoders clears and stores; a render pass after a parallel one in the same buffer draws over it")
    func emptyPassThenRenderPass() throws {
        let gpu = try TestGPU()
        let painter = try Painter(gpu)
        let target = try gpu.renderTarget()
        let cb = try gpu.queue.makeCommandBuffer()
        try cb.makeParallelRenderCommandEncoder(descriptor: gpu.clearingPass(target, clear: ClearColor(red: 0, green: 0, blue: 1, alpha: 1)))
            .endEncoding()
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = target
        pass.colorAttachments[0].loadAction = .load
        pass.colorAttachments[0].storeAction = .store
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        try painter.fill(x: 0..<32, y: 0..<64, color: Self.color(0), with: encoder)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        let seen = texel(pixels, width: 64, x: 10, y: 10)
        #expect(Self.holds(seen, colorOf: 0), "\(seen)")
        #expect(texel(pixels, width: 64, x: 40, y: 10) == Self.clear)
    }

    /// A parallel-encoder misuse, run in its own child process.
    enum Misuse: String, Codable, Sendable, CaseIterable {
        case endWithOpenSubEncoder, subEncoderAfterEnd, endTwice, otherEncoderWhileOpen, commitWhileOpen

        /// What standard error must contain.
        var message: String {
            switch self {
            case .endWithOpenSubEncoder: "endEncoding() called on a parallel render command encoder while its render command encoders [1] (in order of creation) are open; call endEncoding() on each first"
            case .subEncoderAfterEnd: "makeRenderCommandEncoder() called on a parallel render command encoder after endEncoding()"
            case .endTwice: "endEncoding() called on a parallel render command encoder after endEncoding()"
            case .otherEncoderWhileOpen: "makeComputeCommandEncoder() called while a parallel render command encoder is still open"
            case .commitWhileOpen: "commit() called while a parallel render command encoder is still open"
            }
        }

        /// Does the misuse; never returns.
        func run() throws {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: gpu.clearingPass(try gpu.renderTarget()))
            switch self {
            case .endWithOpenSubEncoder:
                try parallel.makeRenderCommandEncoder().endEncoding()
                _ = try parallel.makeRenderCommandEncoder()
                parallel.endEncoding()
            case .subEncoderAfterEnd:
                parallel.endEncoding()
                _ = try parallel.makeRenderCommandEncoder()
            case .endTwice:
                parallel.endEncoding()
                parallel.endEncoding()
            case .otherEncoderWhileOpen: _ = try cb.makeComputeCommandEncoder()
            case .commitWhileOpen: cb.commit()
            }
        }
    }

    @Test("misuse stops with the call and what is wrong", arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: " + misuse.message))
    }
}

/// A sub-encoder handed to the task that records it. `@unchecked Sendable`: a render
/// encoder is used by one thread at a time (Metal's rule), and after the hand-off only the
/// receiving task touches it.
struct HandedEncoder: @unchecked Sendable {
    let encoder: RenderCommandEncoder
}
