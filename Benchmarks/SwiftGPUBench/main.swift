// SwiftGPUBench: the SwiftGPU side of Benchmarks B1–B4 (see BENCHMARKS.md).
//
//     swift run -c release SwiftGPUBench --bench B1|B2|B3|B4 [--count N]   (N: B1 buffers or B2 draws, for profiling)
//
// Each invocation makes one measured run after a warm-up, checks its result (exit 2 when
// it is wrong) and prints one JSON line; scripts/bench.py interleaves the implementations.
import Foundation
import GPU
import Shaders

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

let device = try Device.makeDefault()
let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
switch option("--bench") {
case "B1": try submission(buffers: option("--count").flatMap { Int($0) } ?? 10_000).print()
case "B2": try encoding(draws: option("--count").flatMap { Int($0) } ?? 100_000).print()
case "B3": try frameLoop().print()
case "B4": for report in try drain() { report.print() }
default:
    FileHandle.standardError.write(Data("usage: SwiftGPUBench --bench B1|B2|B3|B4\n".utf8))
    exit(64)
}
