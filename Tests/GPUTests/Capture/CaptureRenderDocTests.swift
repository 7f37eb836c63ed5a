import Foundation
import GPUTestSupport
import Testing

/// Captures under RenderDoc: the CaptureCompute example runs as a child of `renderdoccmd
/// capture` on lavapipe, and brackets one of its three compute command buffers in a
/// capture written to a file the test names.
///
/// The child runs in the suite's environment, validation layer on: RenderDoc's layer, an
/// implicit one, sits above it, so the validation layer checks SwiftGPU's calls and
/// RenderDoc's own, and the child reports its count of messages. `renderdoccmd capture -w`
/// exits with 0 whatever the child's status, so the child's lines say how it ended.
@Suite("Capture under RenderDoc")
struct CaptureRenderDocTests {
    /// Runs CaptureCompute under `renderdoccmd capture`, writing to `output`, with
    /// `environment` added to the test's: its exit status and standard output.
    static func captureCompute(_ output: URL, _ arguments: [String] = [], environment: [String: String] = [:]) throws
        -> (status: Int32, output: String) {
        try captureCompute(renderdoc: [], ["--output", output.path] + arguments, environment: environment)
    }

    /// Runs CaptureCompute with `arguments` under `renderdoccmd capture` with `options`.
    static func captureCompute(renderdoc options: [String], _ arguments: [String], environment: [String: String] = [:])
        throws -> (status: Int32, output: String) {
        let renderdoccmd = URL(fileURLWithPath: "/usr/bin/renderdoccmd")
        let example = try ExampleProgram.executable("CaptureCompute")
        return try ExampleTests.run(renderdoccmd, ["capture", "-w"] + options + [example.path] + arguments,
                                    environment: ExampleProgram.environment().merging(environment) { $1 })
    }

    /// The capture at `url` converted to RenderDoc's XML form.
    static func xml(of url: URL, in folder: TemporaryFolder) throws -> String {
        let xml = folder.url.appendingPathComponent("capture.xml")
        let (status, text) = try ExampleTests.run(URL(fileURLWithPath: "/usr/bin/renderdoccmd"),
                                                  ["convert", "-f", url.path, "-c", "xml", "-o", xml.path])
        #expect(status == 0, "\(text)")
        return try String(contentsOf: xml, encoding: .utf8)
    }

    /// Checks the capture at `url`: a RenderDoc file (its header starts with the 64-bit
    /// magic "RDOC") holding one dispatch, the "captured work" one of 5 threadgroups.
    static func checkCapture(_ url: URL, in folder: TemporaryFolder) throws {
        let data = try Data(contentsOf: url)
        // RenderDoc compresses the capture: a few kilobytes for this one.
        #expect(data.count > 1024, "\(data.count) bytes")
        #expect(data.prefix(8) == Data("RDOC".utf8 + [0, 0, 0, 0]), "header \(Array(data.prefix(8)))")
        let xml = try xml(of: url, in: folder)
        #expect(xml.contains("captured work"))
        #expect(!xml.contains("before work"))
        #expect(!xml.contains("after work"))
        let dispatches = xml.components(separatedBy: "name=\"vkCmdDispatch\"").dropFirst()
        #expect(dispatches.count == 1)
        let dispatch = try #require(dispatches.first?.components(separatedBy: "</chunk>").first)
        #expect(dispatch.contains("<uint name=\"x\" typename=\"uint32_t\" width=\"4\" important=\"true\">5</uint>"),
                "\(dispatch)")
    }

    @Test("A device capture brackets the compute work between startCapture and stopCapture into the .rdc file asked for")
    func deviceCapture() throws {
        let folder = try TemporaryFolder("capture")
        let output = folder.url.appendingPathComponent("device.rdc")
        let (status, text) = try Self.captureCompute(output)
        #expect(status == 0, "\(text)")
        #expect(text.contains("supportsDestination(.gpuTraceDocument): true"), "\(text)")
        // RenderDoc 1.24 hides buffer device addresses where the driver has no capture replay
        // for them (lavapipe): the device is made without them, rather than failing.
        #expect(text.contains("supportsGPUAddresses: false"), "\(text)")
        #expect(text.contains("isCapturing: true"), "\(text)")
        #expect(text.contains("second startCapture: alreadyCapturing"), "\(text)")
        #expect(text.contains("isCapturing after: false"), "\(text)")
        #expect(text.contains("counter: 753"), "\(text)")
        #expect(text.contains("validation messages: 0"), "\(text)")
        #expect(text.contains("wrote \(output.path)"), "\(text)")
        try Self.checkCapture(output, in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["capture.xml", "device.rdc"])
    }

    @Test("A scope capture holds exactly the work between the scope's begin() and end()")
    func scopeCapture() throws {
        let folder = try TemporaryFolder("capture")
        let output = folder.url.appendingPathComponent("scope.rdc")
        let (status, text) = try Self.captureCompute(output, ["--scope"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("isCapturing, armed: true"), "\(text)")
        #expect(text.contains("isCapturing after: false"), "\(text)")
        #expect(text.contains("counter: 753"), "\(text)")
        #expect(text.contains("validation messages: 0"), "\(text)")
        #expect(text.contains("wrote \(output.path)"), "\(text)")
        try Self.checkCapture(output, in: folder)
    }

    @Test("A .developerTools capture goes where RenderDoc keeps its captures: its path template, left alone")
    func developerToolsCapture() throws {
        let folder = try TemporaryFolder("capture")
        let (status, text) = try Self.captureCompute(renderdoc: ["-c", folder.url.appendingPathComponent("tools").path],
                                                     ["--developer-tools"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("isCapturing after: false"), "\(text)")
        #expect(text.contains("counter: 753"), "\(text)")
        #expect(text.contains("validation messages: 0"), "\(text)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let capture = try #require(files.first, "no capture in \(folder.path)")
        #expect(files.count == 1 && capture.hasPrefix("tools") && capture.hasSuffix(".rdc"), "\(files)")
        try Self.checkCapture(folder.url.appendingPathComponent(capture), in: folder)
    }

    @Test("RenderDoc in the process without its Vulkan layer on the instance: startCapture throws notSupported, nothing is written")
    func renderDocWithoutItsLayer() throws {
        let folder = try TemporaryFolder("capture")
        let output = folder.url.appendingPathComponent("unhooked.rdc")
        // renderdoccmd still preloads its library, but the loader leaves its implicit layer
        // out of the instance: the layer's manifest names the variable that disables it.
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "/usr/share/vulkan/implicit_layer.d/renderdoc_capture.json")))
        let layer = try #require((manifest as? [String: Any])?["layer"] as? [String: Any])
        let disable = try #require(layer["disable_environment"] as? [String: String])
        let (_, text) = try Self.captureCompute(output, environment: disable)
        #expect(text.contains("supportsDestination(.gpuTraceDocument): true"), "\(text)")
        #expect(text.contains("error: notSupported: startCapture(with:): RenderDoc is in the process but did not start capturing device"), "\(text)")
        #expect(text.contains("its layer is disabled"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
