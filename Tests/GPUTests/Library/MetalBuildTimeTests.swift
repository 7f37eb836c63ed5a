import Foundation
import GPUTestSupport
import Testing

/// The SPIRVCompiler plugin's `msl-compile` step, run as the plugin runs it: what a `.metal`
/// file needs that a build-time library cannot carry fails the build with a message that
/// points at the run-time compile.
@Suite("Build-time Metal Shading Language")
struct MetalBuildTimeTests {
    /// `msl-compile`'s exit status and standard error for `source`, whose one entry point is
    /// `entry` (`name.stage`), and whether it wrote the entry point's module.
    static func compile(_ source: String, entry: String) throws -> (status: Int32, message: String, wroteModule: Bool) {
        let folder = try TemporaryFolder("msl-compile")
        try folder.write(Array(source.utf8), to: "Shaders.metal")
        let process = Process()
        process.executableURL = try ExampleProgram.executable("msl-compile")
        process.arguments = ["/usr/bin/glslc", folder.url.appendingPathComponent("Shaders.metal").path, folder.path, entry]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let module = folder.url.appendingPathComponent("\(entry).spv").path
        return (process.terminationStatus, message, FileManager.default.fileExists(atPath: module))
    }

    @Test("a fragment function with an argument under [[function_constant]] fails the build, pointing at the run-time compile")
    func conditionalArgument() throws {
        let result = try Self.compile("""
            #include <metal_stdlib>
            using namespace metal;
            constant bool textured [[function_constant(0)]];
            fragment float4 paint(texture2d<float> image [[texture(0), function_constant(textured)]]) {
                return textured ? image.read(uint2(0)) : float4(1);
            }
            """, entry: "paint.frag")
        #expect(result.status == 1 && !result.wroteModule)
        #expect(result.message.hasSuffix("Shaders.metal: error: unsupported: 'paint' has arguments under [[function_constant]], "
            + "whose conditions a build-time library cannot carry yet; compile the file at run time with "
            + "makeLibrary(source:options:)\n"), "\(result.message)")
    }

    @Test("the same function without the condition compiles to its module")
    func unconditionalArgument() throws {
        let result = try Self.compile("""
            #include <metal_stdlib>
            using namespace metal;
            fragment float4 paint(texture2d<float> image [[texture(0)]]) { return image.read(uint2(0)); }
            """, entry: "paint.frag")
        #expect(result.status == 0 && result.wroteModule, "\(result.message)")
    }

    @Test("a kernel that reads [[threads_per_grid]] fails the build, pointing at the run-time compile")
    func gridSize() throws {
        let result = try Self.compile("""
            #include <metal_stdlib>
            using namespace metal;
            kernel void count(device uint* out [[buffer(0)]], uint n [[threads_per_grid]]) { out[0] = n; }
            """, entry: "count.comp")
        #expect(result.status == 1 && !result.wroteModule)
        #expect(result.message.hasSuffix("Shaders.metal: error: unsupported: 'count' reads [[threads_per_grid]] or "
            + "[[threadgroups_per_grid]], which a build-time library cannot pass yet; compile the file at run time with "
            + "makeLibrary(source:options:)\n"), "\(result.message)")
    }
}
