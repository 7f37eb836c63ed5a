// SwiftGPUBench: the SwiftGPU side of Benchmarks B1–B7 (see BENCHMARKS.md).
//
//     swift run -c release SwiftGPUBench --bench B1|B2|B3|B4|B5|B6|B7 [--count N] [--variant V] [--threads T]
//                                       [--spirv DIR] [--start NS]
//
// --count sets the number of buffers (B1) or draws (B2, B5, B6); --variant B2's
// formulation (set-vertex-buffer, the default, set-vertex-buffer-untracked,
// vertex-buffer-offset or vertex-start), or B6's (validated, the default, or unvalidated:
// indirect arguments not checked on the GPU); --threads B5's recording threads; --spirv the
// folder of the bench script's compiled shaders; --start the CLOCK_MONOTONIC nanoseconds
// at which B7's process was started.
//
// Each invocation makes one measured run after a warm-up, checks its result (exit 2 when
// it is wrong) and prints one JSON line; scripts/bench.py interleaves the implementations.
import Glibc
import GPU

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let count = option("--count").flatMap { Int($0) }

let device = try Device.makeDefault()
// The SPIR-V files the bench script compiled and stamped, read from the folder the C
// baseline reads them from, as an installed app reads its shaders. A resource bundle would
// need SwiftPM's `Bundle.module`, which links Foundation (see BENCHMARKS.md).
// The bench script compiled and stamped these shaders: the app's own build.
let library = try device.makeLibrary(filePath: option("--spirv") ?? ".", trustingBuildStamps: true)
switch option("--bench") {
case "B1": try submission(buffers: count ?? 10_000).print()
case "B2": try encoding(draws: count ?? 100_000, variant: option("--variant") ?? "set-vertex-buffer").print()
case "B3": try frameLoop().print()
case "B4": for report in try drain() { report.print() }
case "B5": try parallelEncoding(draws: count ?? 100_000, threads: option("--threads").flatMap { Int($0) } ?? 1).print()
case "B6": try indirectDraws(draws: count ?? 10_000, validating: option("--variant") != "unvalidated").print()
case "B7": try frameLoop(frames: 1, processStart: option("--start").flatMap { UInt64($0) } ?? monotonicNanoseconds()).print()
default:
    printError("usage: SwiftGPUBench --bench B1|B2|B3|B4|B5|B6|B7 [--count N] [--variant V] [--threads T] [--spirv DIR] [--start NS]\n")
    exit(64)
}
