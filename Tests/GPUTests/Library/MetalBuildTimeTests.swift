import Foundation
import GPUTestSupport
import SPIRVValidation
import SwiftGPUSPIRV
import Testing

/// The SPIRVCompiler plugin's `msl-compile` step, run as the plugin runs it: each entry
/// point's module, with what the library sets up beyond the SPIR-V written into it.
@Suite("Build-time Metal Shading Language")
struct MetalBuildTimeTests {
    /// `msl-compile`'s exit status and standard error for `source`, whose one entry point is
    /// `entry` (`name.stage`), with the other files `others` (by name) linked, and the entry
    /// point's module where it wrote one.
    static func compile(_ source: String, entry: String, linking others: [String: String] = [:]) throws
        -> (status: Int32, message: String, module: [UInt8]?) {
        let folder = try TemporaryFolder("msl-compile")
        try folder.write(Array(source.utf8), to: "Shaders.metal")
        var links: [String] = []
        for (name, text) in others.sorted(by: { $0.key < $1.key }) {
            try folder.write(Array(text.utf8), to: name)
            links += ["-L", folder.url.appendingPathComponent(name).path]
        }
        let process = Process()
        process.executableURL = try ExampleProgram.executable("msl-compile")
        process.arguments = ["/usr/bin/glslc", folder.url.appendingPathComponent("Shaders.metal").path, folder.path] + links + [entry]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let module = folder.url.appendingPathComponent("\(entry).spv").path
        return (process.terminationStatus, message, FileManager.default.contents(atPath: module).map { Array($0) })
    }

    @Test("what a function needs beyond its SPIR-V is written into its module: a constexpr sampler, an argument under [[function_constant]], is_null_texture")
    func fragmentNotes() throws {
        let result = try Self.compile("""
            #include <metal_stdlib>
            using namespace metal;
            constant bool textured [[function_constant(0)]];
            fragment float4 paint(float4 p [[position]], texture2d<float> image [[texture(0), function_constant(textured)]],
                                  texture2d<float> other [[texture(3)]]) {
                constexpr sampler tiles(address::repeat);
                float4 color = textured ? image.sample(tiles, p.xy) : float4(1);
                return is_null_texture(other) ? color : other.read(uint2(0));
            }
            """, entry: "paint.frag")
        #expect(result.status == 0 && result.message.isEmpty, "\(result.message)")
        let module = try SPIRVModule(bytes: try #require(result.module))
        // The sampler at the highest free index; fragment texture 0 is binding 96, texture 3 binding 99.
        #expect(module.sourceExtensions.filter { $0.hasPrefix("SwiftGPU") } == ["""
            SwiftGPU MSL notes 1
            sampler 15 nearest nearest none repeat repeat repeat transparent_black - normalized 1 0 7f7fffff
            conditional 96 0
            nullable 99
            """])
        #expect(SPIRVValidator.problem(in: module.words) == nil)
    }

    @Test("a kernel that reads [[threads_per_grid]] notes the grid's buffer index; a function that needs nothing more has no notes")
    func kernelNotes() throws {
        let result = try Self.compile("""
            #include <metal_stdlib>
            using namespace metal;
            kernel void count(device uint* out [[buffer(0)]], uint n [[threads_per_grid]]) { out[0] = n; }
            """, entry: "count.comp")
        #expect(result.status == 0, "\(result.message)")
        let module = try SPIRVModule(bytes: try #require(result.module))
        #expect(module.sourceExtensions.filter { $0.hasPrefix("SwiftGPU") } == ["SwiftGPU MSL notes 1\ngrid 31"])
        #expect(SPIRVValidator.problem(in: module.words) == nil)
        let plain = try Self.compile("""
            #include <metal_stdlib>
            using namespace metal;
            fragment float4 paint(texture2d<float> image [[texture(0)]]) { return image.read(uint2(0)); }
            """, entry: "paint.frag")
        #expect(plain.status == 0, "\(plain.message)")
        #expect(try SPIRVModule(bytes: try #require(plain.module)).sourceExtensions.allSatisfy { !$0.hasPrefix("SwiftGPU") })
    }

    @Test("a function the file declares and another file of the target defines is linked in, with what that file's definition uses")
    func linkedFunction() throws {
        let declaring = """
            #include <metal_stdlib>
            using namespace metal;
            float shade(float x);
            kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = shade(out[i]); }
            """
        let defining = """
            #include <metal_stdlib>
            using namespace metal;
            constant float gain = 3;
            static float twice(float x) { return x * 2; }
            float shade(float x) { return twice(x) * gain; }
            kernel void other(device float* out [[buffer(0)]]) { out[0] = shade(1); }
            """
        let alone = try Self.compile(declaring, entry: "k.comp")
        #expect(alone.status == 1 && alone.module == nil)
        #expect(alone.message.contains("error: unsupported: calling 'shade', which is declared here and defined in another file "
            + "(a source compiled at run time stands alone; the build links a target's .metal files)"), "\(alone.message)")
        // The other file's entry point is its own module, not this file's.
        let linked = try Self.compile(declaring, entry: "k.comp", linking: ["Common.metal": defining])
        #expect(linked.status == 0 && linked.module != nil, "\(linked.message)")
    }
}
