import Foundation

/// Compiles GLSL with the `glslc` command (installed with the test dependencies), for tests
/// that need a module the package's shaders do not give: another stage, a hand-made fault.
package enum GLSLC {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The SPIR-V for `source`, a shader of `stage` (`vert`, `frag`, `comp`, `geom`, ...),
    /// compiled with the further `options` (`-O`).
    package static func compile(_ source: String, stage: String, options: [String] = []) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftgpu-glslc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("shader.\(stage)"), output = folder.appendingPathComponent("shader.spv")
        try source.write(to: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/glslc")
        process.arguments = options + [input.path, "-o", output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "glslc: \(String(decoding: message, as: UTF8.self))")
        }
        return try Data(contentsOf: output)
    }
}
