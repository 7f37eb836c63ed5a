import CXCBInput
import Foundation
import Glibc
import GPUTestSupport
import Testing

/// InputLatencyBench, run for one sweep: the measurement holds together. A real-clock test
/// (XTest input at 240 Hz against the X server's vblanks): it runs after the rest of the
/// suite, one at a time, on the bench's release build, since latency is a property of what
/// an app ships (in a debug build the default predictor alone can outlast a frame, and
/// the frames it misses cost more than prediction saves).
@Suite("Input-to-photon latency on Xvfb (real clock)")
struct InputLatencyXvfbTests {
    @Test("InputLatencyBench measures: no frame shows the pointer before it got there, and prediction shortens the lag")
    func inputLatency() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let child = try SpawnedProcess(try ExampleProgram.releaseExecutable("InputLatencyBench").path,
                                       ["--sweeps", "1", "--only", "FIFO"],
                                       environment: ExampleProgram.environment(server))
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        let lines = LineReader(child.output)
        /// The p50 of a result row `| name | n of m | p50 | p95 |`, with its counts.
        func row(_ name: String) throws -> (matched: Int, shown: Int, p50: Double) {
            let line = try #require(lines.next(containing: "| \(name) |"))
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let counts = cells[1].split(separator: " ")
            return (Int(counts[0]) ?? 0, Int(counts[2]) ?? 0, Double(cells[2]) ?? .nan)
        }
        let plain = try row("FIFO")
        let predicted = try row("FIFO, predicted")
        // Enough frames to take a median (a sweep of a second shows up to 60 positions), and
        // without prediction every marker lies on the pointer's path.
        #expect(plain.matched >= 10 && plain.matched == plain.shown, "\(plain)")
        #expect(predicted.matched >= 10, "\(predicted)")
        #expect(plain.p50 > 0, "without prediction a frame shows where the pointer was: \(plain.p50) ms")
        #expect(predicted.p50 < plain.p50, "\(predicted.p50) ms against \(plain.p50) ms")
    }
}
