import AppLifecycle
import CDispatch
import Foundation
import Glibc
import GPUTestSupport
import PNG
import Testing
import SwiftGPUSupport

/// Runs the built examples as a user would.
@Suite("Examples")
struct ExampleTests {
    /// Runs example `name` to its end: its exit status and standard output.
    static func run(_ name: String) throws -> (status: Int32, output: String) {
        try run(ExampleProgram.executable(name), environment: ExampleProgram.environment())
    }

    /// Runs the program at `url` with `arguments` to its end: its exit status and standard
    /// output, or its standard error where `readingStandardError`. Without `environment` it
    /// gets the test's own.
    static func run(_ url: URL, _ arguments: [String] = [], environment: [String: String]? = nil,
                    readingStandardError: Bool = false) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        if readingStandardError { process.standardError = output } else { process.standardOutput = output }
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("HeadlessTriangle writes a PNG of the requested size with the triangle in it")
    func headlessTriangle() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("triangle-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let (status, text) = try Self.run(ExampleProgram.executable("HeadlessTriangle"),
                                          ["--output", output.path, "--width", "96", "--height", "80"],
                                          environment: ExampleProgram.environment())
        #expect(status == 0, "\(text)")
        #expect(text.contains("wrote \(output.path)"))
        let image = try Image(contentsOfPNG: output)
        #expect(image.width == 96 && image.height == 80)
        let top = image[48, 12]
        #expect(top.r > 200 && top.g < 60 && top.b < 60, "red near the top vertex: \(top)")
        let corner = image[1, 1]
        #expect(texel([corner.r, corner.g, corner.b, corner.a], holds: [0.05, 0.05, 0.1, 1]),
                "the clear colour (0.05, 0.05, 0.1, 1) in the corner: \(corner)")
    }

    @Test("PortingMetalComputeBasic: the ported sample adds 2^24 floats filled on the GPU, every element checked")
    func portedComputeSample() throws {
        let (status, text) = try Self.run("PortingMetalComputeBasic")
        #expect(status == 0, "\(text)")
        // The sample's own check prints a line per wrong element; the fill kernel stores each
        // index, so result[i] is 2i.
        #expect(!text.contains("Compute FAILED"), "\(text.prefix(500))")
        #expect(text.split(separator: "\n") == [
            "result[0] = 0.0", "result[1] = 2.0", "result[12345] = 24690.0", "result[16777215] = 3.355443e+07",
        ])
    }

    @Test("PortingMetalUIBasics: the ported sample draws nine instanced, blended tiles through its constexpr sampler")
    func portedRenderSample() throws {
        let (status, text) = try Self.run("PortingMetalUIBasics")
        #expect(status == 0, "\(text)")
        // Each tile's centre shows its grid cell (red by column, green by row), the centre
        // one half transparent over the background; gaps and margins are the background.
        #expect(text.contains("tile 0,0 at 190,190: RGBA [60, 60, 200, 255] as expected"), "\(text)")
        #expect(text.contains("tile 2,1 at 500,810: RGBA [150, 240, 200, 255] as expected"), "\(text)")
        #expect(text.contains("tile 1,1 at 500,500: RGBA [99, 102, 130, 255] as expected"), "\(text)")
        #expect(text.contains("gap between tiles 0,0 and 0,1 at 345,190: RGBA [49, 54, 61, 255] as expected"), "\(text)")
        #expect(text.hasSuffix("12 of 12 pixels as expected\n"), "\(text)")
    }

    @Test("BackgroundSafeRendering, scripted: nothing runs in the background")
    func scripted() throws {
        let (status, text) = try Self.run("BackgroundSafeRendering")
        #expect(status == 0, "\(text)")
        #expect(text.contains("drain report: scheduled 8, refused 1, failed at deadline 0"))
        #expect(text.contains("background: counter 13 → 13, nothing ran"))
        #expect(text.contains("summary: 21 frames, 16 completed, 5 refused, counter 16 — background-safe"))
    }

    @Test("BackgroundSafeRendering --logind: a suspend and resume through dbusmock's logind, with its timeline")
    func logind() throws {
        let bus = try MockSystemBus()
        let child = try SpawnedProcess(try ExampleProgram.executable("BackgroundSafeRendering").path, ["--logind", bus.address],
                                       environment: ExampleProgram.environment())
        let lines = LineReader(child.output)
        #expect(lines.next(containing: "holding logind's sleep delay lock") != nil)
        #expect(try bus.inhibitorCount() == 1)
        try bus.prepareForSleep(true)
        let timeline = lines.next(containing: "sleep: PrepareForSleep received → drained")
        #expect(timeline?.contains("→ lock released") == true, "\(timeline ?? "no timeline")")
        #expect(timeline?.contains("failed at deadline 0") == true)
        #expect(lines.next(containing: "background: frame") != nil, "a frame committed in the background is refused")
        #expect(try bus.inhibitorCount() == 0, "released: logind may suspend")
        try bus.prepareForSleep(false)
        #expect(lines.next(containing: "didBecomeActive: inactive → active") != nil)
        #expect(lines.next(containing: "summary:")?.contains("nothing ran while suspended") == true)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    @Test("BackgroundSafeRendering --signals: Ctrl-Z drains and stops, SIGCONT resumes, SIGTERM ends")
    func signals() throws {
        let child = try SpawnedProcess(try ExampleProgram.executable("BackgroundSafeRendering").path, ["--signals"],
                                       environment: ExampleProgram.environment())
        let lines = LineReader(child.output)
        #expect(lines.next(containing: "Ctrl-Z to background") != nil)

        kill(child.pid, SIGTSTP)
        #expect(lines.next(containing: "didEnterBackground: inactive → background") != nil)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, WUNTRACED) == child.pid)
        #expect(status & 0xff == 0x7f && (status >> 8) & 0xff == SIGSTOP, "stopped itself after the drain")

        kill(child.pid, SIGCONT)
        #expect(lines.next(containing: "didBecomeActive: inactive → active") != nil)
        kill(child.pid, SIGTERM)
        #expect(lines.next(containing: "terminating:") != nil)
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status & 0x7f == SIGTERM, "ended by SIGTERM's default action")
    }
}
