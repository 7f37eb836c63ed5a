import Dispatch
import GPU
import SwiftGPUSupport

/// A sub-encoder handed to the thread that records it. `@unchecked Sendable`: a
/// `RenderCommandEncoder` is used by one thread at a time (Metal's rule), and after the
/// hand-off only the receiving thread touches it.
struct HandedEncoder: @unchecked Sendable {
    let encoder: RenderCommandEncoder
}

/// B5: B2's draws in one parallel render pass, split into `threads` consecutive shares
/// recorded at once by sub-encoders on as many threads (the calling thread records the
/// first). Reports the wall time of encoding + commit, per draw and in all, and the total
/// with the GPU.
func parallelEncoding(draws: Int = 100_000, threads: Int) throws -> RunReport {
    guard (1...16).contains(threads) else { fail("--threads must be 1...16, got \(threads)") }
    let setup = try EncodingSetup.shared.get()
    let shares = (0..<threads).map { t in draws * t / threads..<draws * (t + 1) / threads }

    func run() throws -> (cpu: UInt64, total: UInt64, mallocsAtCommit: UInt64) {
        let start = now()
        let cb = try setup.queue.makeCommandBuffer()
        let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: setup.target.pass)
        let encoders = try shares.map { _ in HandedEncoder(encoder: try parallel.makeRenderCommandEncoder()) }
        let finished = DispatchSemaphore(value: 0)
        for t in 1..<threads {
            let handed = encoders[t], share = shares[t]
            startThread {
                setup.record(share, into: handed.encoder)
                handed.encoder.endEncoding()
                finished.signal()
            }
        }
        setup.record(shares[0], into: encoders[0].encoder)
        encoders[0].encoder.endEncoding()
        for _ in 1..<threads { finished.wait() }
        parallel.endEncoding()
        return try setup.finish(cb, since: start, draws: draws, bench: "B5")
    }

    _ = try run()   // warm-up: the secondary contexts, upload rings and threads' heaps grow to size
    let measured = try run()
    var report = RunReport(bench: "B5", variant: "\(threads)")
    report.metrics["cpu_ms"] = Double(measured.cpu) / 1e6
    report.metrics["cpu_ns_per_draw"] = Double(measured.cpu) / Double(draws)
    report.metrics["total_ms"] = Double(measured.total) / 1e6
    return report
}
