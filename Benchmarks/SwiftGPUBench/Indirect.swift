import GPU

/// B6: a compute pass writes N draws' arguments (triangle i % 1,024 of B2's scene, from
/// `indirect_args.comp`, compiled by the bench script) into a buffer the host
/// zeroed; one render pass then makes N indirect draws, each with 16 bytes of fragment
/// data. Reports CPU nanoseconds per draw for encoding + commit and the total with the GPU.
/// `validating` false (the `unvalidated` variant) makes the command buffer without the GPU
/// check of the arguments, as Metal records indirect draws.
func indirectDraws(draws: Int = 10_000, validating: Bool = true) throws -> RunReport {
    let setup = try EncodingSetup.shared.get()
    let writer = try device.makeComputePipelineState(function: library.makeFunction(name: "indirect_args.comp"))
    let stride = MemoryLayout<DrawPrimitivesIndirectArguments>.stride
    let arguments = try device.makeBuffer(length: draws * stride)
    let descriptor = CommandBufferDescriptor(validatesIndirectArguments: validating)

    func run() throws -> (cpu: UInt64, total: UInt64, mallocsAtCommit: UInt64) {
        arguments.contents().initializeMemory(as: UInt8.self, repeating: 0, count: arguments.length)
        let start = now()
        let cb = try setup.queue.makeCommandBuffer(descriptor: descriptor)
        let compute = try cb.makeComputeCommandEncoder()
        compute.setComputePipelineState(writer)
        compute.setBuffer(arguments, offset: 0, index: 0)
        compute.dispatchThreadgroups(Size(width: (draws + 63) / 64), threadsPerThreadgroup: Size(width: 64))
        compute.endEncoding()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: setup.target.pass)
        encoder.setRenderPipelineState(setup.pipeline)
        encoder.setVertexBuffer(setup.vertices, offset: 0, index: 0)
        for i in 0..<draws {
            var color = EncodingScene.drawColor(i)
            encoder.setFragmentBytes(&color, length: 16, index: 0)
            encoder.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: i * stride)
        }
        encoder.endEncoding()
        return try setup.finish(cb, since: start, draws: draws, bench: "B6")
    }

    _ = try run()   // warm-up
    let measured = try run()
    var report = RunReport(bench: "B6")
    report.metrics["cpu_ns_per_draw"] = Double(measured.cpu) / Double(draws)
    report.metrics["total_ms"] = Double(measured.total) / 1e6
    return report
}
