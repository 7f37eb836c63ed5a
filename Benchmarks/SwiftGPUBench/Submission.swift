import GPU

/// B1: 10,000 command buffers, each with one one-thread dispatch that adds 1 to a counter,
/// committed and then all completed; reports microseconds per buffer and, with the
/// malloc-counting shim, malloc calls per buffer in the steady state.
func submission(buffers: Int = 10_000) throws -> RunReport {
    let queue = try device.makeCommandQueue()
    let pipeline = try device.makeComputePipelineState(function: library.makeFunction(name: "increment.comp"))
    let counter = try device.makeBuffer(length: 4)
    var one: UInt32 = 1
    let params = try device.makeBuffer(bytes: &one, length: 4)

    func run(_ count: Int) throws -> (nanoseconds: UInt64, mallocs: UInt64) {
        counter.contents().storeBytes(of: 0, as: UInt32.self)
        let mallocsBefore = mallocCount?() ?? 0
        let start = now()
        var last: CommandBuffer?
        for _ in 0..<count {
            let cb = try queue.makeCommandBuffer()
            try encodeIncrement(cb, pipeline, counter: counter, params: params)
            cb.commit()
            last = cb
        }
        last?.waitUntilCompleted()
        let elapsed = now() - start
        let mallocs = (mallocCount?() ?? 0) - mallocsBefore
        let value = counter.contents().load(as: UInt32.self)
        guard value == count, last?.status == .completed else { fail("B1 counter \(value), expected \(count)") }
        return (elapsed, mallocs)
    }

    _ = try run(1_000)   // warm-up: pools, pipeline, upload ring
    let measured = try run(buffers)
    var report = RunReport(bench: "B1")
    report.metrics["us_per_buffer"] = Double(measured.nanoseconds) / 1e3 / Double(buffers)
    if mallocCount != nil { report.metrics["mallocs_per_buffer"] = Double(measured.mallocs) / Double(buffers) }
    return report
}
