import Dispatch
import Glibc

// The harness formats and reads with the C library, not Foundation, as the C baseline
// does: what the process keeps resident (B3) and does before its first frame (B7) is then
// SwiftGPU's and the driver's.

/// One benchmark run's result, printed as one JSON line for scripts/bench.py.
struct RunReport {
    var bench: String
    var variant = ""
    var metrics: [String: Double] = [:]

    func print() {
        var fields = metrics.keys.sorted().map { "\"\($0)\":\(shortestFormat(metrics[$0]!))" }
        fields.insert("\"ok\":true", at: 0)
        Swift.print("{\"impl\":\"swiftgpu\",\"bench\":\"\(bench)\",\"variant\":\"\(variant)\",\(fields.joined(separator: ","))}")
    }
}

/// `value` as C's `%.6g` writes it, as the C baseline prints its figures.
func shortestFormat(_ value: Double) -> String {
    var text = [CChar](repeating: 0, count: 32)
    return text.withUnsafeMutableBufferPointer { text in
        _ = withVaList([value]) { vsnprintf(text.baseAddress, text.count, "%.6g", $0) }
        return String(cString: text.baseAddress!)
    }
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Stops the benchmark with a non-zero status: a wrong result must never be timed.
func fail(_ message: String) -> Never {
    printError("swiftgpu-bench: wrong result: \(message)\n")
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
    guard let status = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(status) }
    var line = [CChar](repeating: 0, count: 256)
    return line.withUnsafeMutableBufferPointer { line in
        // With the C library, as the C baseline reads it: the harness's own code and tables
        // should not weigh on the resident memory it reports.
        while let read = fgets(line.baseAddress, Int32(line.count), status) {
            if strncmp(read, "VmHWM:", 6) == 0 { return strtod(read + 6, nil) }
        }
        return 0
    }
}
