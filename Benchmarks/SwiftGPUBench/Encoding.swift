import GPU

/// The B2 scene, shared with the C and wgpu baselines: a 64×64 target cut into 32×32 cells
/// of 2×2 pixels; draw i covers the top-left pixel of cell i % 1024 and colours it with
/// `drawColor(i)`, so the final image tells whether every last draw of a cell landed.
enum EncodingScene {
    static let size = 64
    static let cells = 1024

    /// 1,024 triangles of three float2 vertices (24 bytes each), in NDC.
    static func vertices() -> [Float] {
        var data: [Float] = []
        for cell in 0..<cells {
            let x = Float(2 * (cell % 32)) / 32 - 1, y = Float(2 * (cell / 32)) / 32 - 1
            data += [x, y, x + 2 / 32, y, x, y + 2 / 32]
        }
        return data
    }

    /// Draw i's colour: its index in the low three bytes, exact in unorm8.
    static func drawColor(_ i: Int) -> SIMD4<Float> {
        SIMD4(Float(i & 255), Float((i >> 8) & 255), Float((i >> 16) & 255), 255) / 255
    }

    /// Checks the top-left pixel of every cell: the colour of the last draw that covered
    /// it, or the clear colour (0, 0, 0, 0) where no draw did. Every cell is read whatever
    /// the count, so that the check costs the same at every size (the cost curves subtract
    /// one size's instructions from another's).
    static func check(_ pixels: UnsafeRawPointer, draws: Int) {
        for cell in 0..<cells {
            let last = cell + (draws - 1 - cell) / cells * cells
            // The colour is worked out for every cell and scaled by 0 for the cells not drawn
            // (a selection would let the compiler skip it for those), so each costs the same.
            let expected = drawColor(last) * 255 * (cell < draws ? 1 : 0)
            let offset = ((cell / 32) * 2 * size + (cell % 32) * 2) * 4
            for channel in 0..<4 where Float(pixels.load(fromByteOffset: offset + channel, as: UInt8.self)) != expected[channel] {
                fail("cell \(cell) channel \(channel): expected " + (cell < draws ? "draw \(last)" : "the clear colour"))
            }
        }
    }
}

/// B2's pipeline, vertices and target, which B5 and B6 draw with too. `@unchecked
/// Sendable`: nothing in it changes after `init`, and B5's recording threads only read it.
struct EncodingSetup: @unchecked Sendable {
    let queue: CommandQueue
    let pipeline: RenderPipelineState
    let vertices: Buffer
    let target: ReadbackTarget
    /// B2's untracked variant: the vertices and the target again, made untracked.
    let untrackedVertices: Buffer
    let untrackedTarget: ReadbackTarget

    init() throws {
        queue = try device.makeCommandQueue()
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "bench.vert")
        descriptor.fragmentFunction = try library.makeFunction(name: "bench.frag")
        let layout = VertexDescriptor()
        layout.attributes[0].format = .float2
        layout.layouts[0].stride = 8
        descriptor.vertexDescriptor = layout
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        // The shaders are shared with the C and wgpu baselines, so they use Vulkan's clip space.
        descriptor.clipSpace = .vulkan
        pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
        var vertexData = EncodingScene.vertices()
        vertices = try device.makeBuffer(bytes: &vertexData, length: vertexData.count * 4)
        untrackedVertices = try device.makeBuffer(bytes: &vertexData, length: vertexData.count * 4,
                                                  options: .hazardTrackingModeUntracked)
        target = try ReadbackTarget(device: device, size: EncodingScene.size)
        untrackedTarget = try ReadbackTarget(device: device, size: EncodingScene.size, untracked: true)
        // The baselines' clear colour: cells no draw covers are checked against it.
        for target in [target, untrackedTarget] {
            target.pass.colorAttachments[0].clearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 0)
        }
    }

    /// The process's setup for B2, B5 and B6: made on first use and never torn down. A
    /// queue's teardown frees the commands its last pass recorded, on whichever thread lets
    /// the queue go last (the recording thread, a recycled buffer's timer, or none before
    /// the process exits), so the recording thread's instructions at two sizes would
    /// differ by it at random; every run ends instead with its setup alive.
    static let shared = Result { try EncodingSetup() }

    /// Ends `cb` as B2, B5 and B6 do: the target read back, committed, waited for and
    /// checked against `draws` draws. Returns the nanoseconds from `start` to the commit
    /// and to the completion, and the malloc count at the commit (the driver allocates
    /// while it executes, which is not encoding's).
    func finish(_ cb: CommandBuffer, since start: UInt64, draws: Int, bench: String,
                into target: ReadbackTarget? = nil) throws -> (cpu: UInt64, total: UInt64, mallocsAtCommit: UInt64) {
        let target = target ?? self.target
        try target.encodeReadback(cb)
        cb.commit()
        let cpu = now() - start
        let mallocs = mallocCount?() ?? 0
        cb.waitUntilCompleted()
        let total = now() - start
        guard cb.status == .completed else { fail("\(bench) command buffer \(cb.status): \(String(describing: cb.error))") }
        EncodingScene.check(target.readback.contents(), draws: draws)
        return (cpu, total, mallocs)
    }

    /// Records draws `range` of B2 into `encoder`, each binding its triangle with
    /// `setVertexBuffer(_:offset:index:)` and its colour with `setFragmentBytes`, from
    /// `vertices` (by default the tracked ones).
    func record(_ range: Range<Int>, into encoder: RenderCommandEncoder, vertices: Buffer? = nil) {
        let vertices = vertices ?? self.vertices
        encoder.setRenderPipelineState(pipeline)
        for i in range {
            var color = EncodingScene.drawColor(i)
            encoder.setVertexBuffer(vertices, offset: (i % EncodingScene.cells) * 24, index: 0)
            encoder.setFragmentBytes(&color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
    }

    /// Records draws `range` with the buffer bound once and moved per draw with
    /// `setVertexBufferOffset(_:index:)`: Metal's cheaper formulation.
    func recordMovingOffset(_ range: Range<Int>, into encoder: RenderCommandEncoder) {
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        for i in range {
            var color = EncodingScene.drawColor(i)
            encoder.setVertexBufferOffset((i % EncodingScene.cells) * 24, index: 0)
            encoder.setFragmentBytes(&color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
    }

    /// Records draws `range` with the buffer bound once at offset 0 and each draw starting at
    /// its triangle's first vertex (`vertexStart`): two driver commands per draw (the
    /// fragment bytes' push constant and the draw) instead of three.
    func recordMovingVertexStart(_ range: Range<Int>, into encoder: RenderCommandEncoder) {
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        for i in range {
            var color = EncodingScene.drawColor(i)
            encoder.setFragmentBytes(&color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: (i % EncodingScene.cells) * 3, vertexCount: 3)
        }
    }
}

/// B2: one render pass of 100,000 three-vertex draws into a 64×64 target, each changing
/// the vertex-buffer offset and 16 bytes of fragment data. `variant` "set-vertex-buffer"
/// binds the buffer at each draw's offset, "set-vertex-buffer-untracked" does so with the
/// vertices, target and read-back buffer untracked, "vertex-buffer-offset" moves the bound
/// buffer's offset, "vertex-start" starts each draw at its triangle's first vertex. Reports CPU nanoseconds per draw for encoding + commit, the total with the GPU,
/// and malloc calls per draw.
func encoding(draws: Int = 100_000, variant: String) throws -> RunReport {
    let setup = try EncodingSetup.shared.get()
    guard ["set-vertex-buffer", "set-vertex-buffer-untracked", "vertex-buffer-offset", "vertex-start"].contains(variant) else {
        fail("unknown B2 variant \(variant)")
    }

    func run(_ count: Int) throws -> (cpu: UInt64, total: UInt64, mallocs: UInt64) {
        let mallocsBefore = mallocCount?() ?? 0
        let start = now()
        let cb = try setup.queue.makeCommandBuffer()
        let untracked = variant == "set-vertex-buffer-untracked"
        let target = untracked ? setup.untrackedTarget : setup.target
        let encoder = try cb.makeRenderCommandEncoder(descriptor: target.pass)
        switch variant {
        case "set-vertex-buffer": setup.record(0..<count, into: encoder)
        case "set-vertex-buffer-untracked": setup.record(0..<count, into: encoder, vertices: setup.untrackedVertices)
        case "vertex-buffer-offset": setup.recordMovingOffset(0..<count, into: encoder)
        default: setup.recordMovingVertexStart(0..<count, into: encoder)
        }
        encoder.endEncoding()
        let (cpu, total, mallocs) = try setup.finish(cb, since: start, draws: count, bench: "B2", into: target)
        return (cpu, total, mallocs - mallocsBefore)
    }

    _ = try run(draws)   // warm-up: the upload ring and descriptor pools grow to size
    let measured = try run(draws)
    var report = RunReport(bench: "B2", variant: variant)
    report.metrics["cpu_ns_per_draw"] = Double(measured.cpu) / Double(draws)
    report.metrics["total_ms"] = Double(measured.total) / 1e6
    if mallocCount != nil { report.metrics["mallocs_per_draw"] = Double(measured.mallocs) / Double(draws) }
    return report
}
