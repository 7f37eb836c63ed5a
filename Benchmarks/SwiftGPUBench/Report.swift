import Foundation

/// One benchmark run's result, printed as one JSON line for scripts/bench.py.
struct RunReport {
    var bench: String
    var variant = ""
    var metrics: [String: Double] = [:]

    func print() {
        var fields = metrics.keys.sorted().map { "\"\($0)\":\(String(format: "%.6g", metrics[$0]!))" }
        fields.insert("\"ok\":true", at: 0)
        Swift.print("{\"impl\":\"swiftgpu\",\"bench\":\"\(bench)\",\"variant\":\"\(variant)\",\(fields.joined(separator: ","))}")
    }
}

/// Stops the benchmark with a non-zero status: a wrong result must never be timed.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("swiftgpu-bench: wrong result: \(message)\n".utf8))
    exit(2)
}

/// Monotonic time in nanoseconds.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CLOCK_MONOTONIC in nanoseconds, the clock a parent reads to give B7 its process start.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The number of malloc-family calls so far when the malloc-counting shim
/// (Benchmarks/Support/malloc_count.c) is preloaded, else nil.
let mallocCount: (@convention(c) () -> UInt64)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bench_malloc_count") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
}()

/// The process's peak resident set size in KiB (VmHWM).
func peakResidentKiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}
