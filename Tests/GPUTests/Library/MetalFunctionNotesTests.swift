import Foundation
import GPUTestSupport
import SwiftGPUSPIRV
import Testing
@testable import GPU

/// What a Metal Shading Language function's module notes beyond its SPIR-V, set up by the
/// library: the Shaders target's `msl_notes.metal`, compiled by the build and at run time,
/// and notes that are not as the compilers write them.
@Suite("Metal Shading Language function notes", .validated)
struct MetalFunctionNotesTests {
    /// `Shaders/msl_notes.metal`, which the SPIRVCompiler plugin compiles into the Shaders
    /// target's bundle (``TestGPU/library``).
    static let file = (1...4).reduce(URL(filePath: #filePath)) { url, _ in url.deletingLastPathComponent() }
        .appending(path: "Shaders/msl_notes.metal")

    /// What the file's functions draw and write.
    struct Results: Equatable {
        /// `msl_tiled` on 8×8 pixels: the 2×2 checker image, tiled twice each way by its
        /// constexpr sampler.
        var tiled: [UInt8]
        /// `msl_paint` on 4×4 pixels: untinted with no texture, untinted with a blue
        /// texture, tinted by (1, 1, 1, 0.5) with the blue texture.
        var painted: [[UInt8]]
        /// `msl_grid` over 10×3 threads in 4×2 threadgroups.
        var grid: [SIMD4<UInt32>]
        /// `msl_group_sums` of 0..<96 in threadgroups of 32, through 128 bytes of threadgroup memory.
        var groupSums: [Float]
    }

    /// `library`'s `msl_*` functions, run.
    static func run(_ gpu: TestGPU, _ library: Library) throws -> Results {
        let drawing = MetalSourceLibraryTests()
        let image = try drawing.checkerTexture(gpu)
        let tiled = try drawing.draw(gpu, try gpu.renderPipeline(library, vertex: "msl_cover", fragment: "msl_tiled"),
                                     width: 8, height: 8) { encoder in
            encoder.setFragmentTexture(image, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        let blue = try gpu.renderTarget(width: 1, height: 1, usage: [.shaderRead])
        blue.replace(region: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: [UInt8(0), 0, 255, 255], bytesPerRow: 4)
        let painted = try [(false, nil), (false, blue), (true, blue)].map { (tinted: Bool, texture: Texture?) in
            let values = FunctionConstantValues()
            var flag = tinted
            values.setConstantValue(&flag, type: .bool, index: 0)
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try library.makeFunction(name: "msl_cover")
            descriptor.fragmentFunction = try library.makeFunction(name: "msl_paint", constantValues: values)
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            return try drawing.draw(gpu, try gpu.device.makeRenderPipelineState(descriptor: descriptor), width: 4, height: 4) { encoder in
                if let texture { encoder.setFragmentTexture(texture, index: 3) }
                if tinted {
                    var tint: SIMD4<Float> = [1, 1, 1, 0.5]
                    encoder.setFragmentBytes(&tint, length: 16, index: 2)
                }
                encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            }
        }
        let grid = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "msl_grid"))
        let output = try gpu.buffer([SIMD4<UInt32>](repeating: .zero, count: 30))
        try gpu.compute { encoder in
            encoder.setComputePipelineState(grid)
            encoder.setBuffer(output, offset: 0, index: 0)
            encoder.dispatchThreads(Size(width: 10, height: 3), threadsPerThreadgroup: Size(width: 4, height: 2))
        }
        let written = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: SIMD4<UInt32>.self, capacity: 30), count: 30))
        let sums = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "msl_group_sums"))
        let input = try gpu.buffer((0..<96).map { Float($0) }), groupSums = try gpu.buffer([Float](repeating: 0, count: 3))
        try gpu.compute { encoder in
            encoder.setComputePipelineState(sums)
            encoder.setBuffer(input, offset: 0, index: 0)
            encoder.setBuffer(groupSums, offset: 0, index: 1)
            encoder.setThreadgroupMemoryLength(128, index: 0)
            encoder.dispatchThreads(Size(width: 96), threadsPerThreadgroup: Size(width: 32))
        }
        return Results(tiled: tiled, painted: painted, grid: written,
                       groupSums: Array(UnsafeBufferPointer(start: groupSums.contents().bindMemory(to: Float.self, capacity: 3), count: 3)))
    }

    @Test("the build's library and the same file compiled at run time: a constexpr sampler, arguments under a function constant, is_null_texture, the grid's size and threadgroup memory, alike")
    func buildAndRunTimeAlike() throws {
        let gpu = try TestGPU()
        #expect(["msl_cover.vert", "msl_grid.comp", "msl_group_sums.comp", "msl_paint.frag", "msl_tiled.frag"].allSatisfy(gpu.library.functionNames.contains))
        let runTime = try gpu.device.makeLibrary(source: String(contentsOf: Self.file, encoding: .utf8), options: nil)
        let built = try Self.run(gpu, gpu.library), compiled = try Self.run(gpu, runTime)
        #expect(built == compiled)
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        let white: [UInt8] = [255, 255, 255, 255]
        for (name, results) in [("build", built), ("run time", compiled)] {
            // Twice the coordinates with address::repeat, and no sampler bound: the 2×2 image four times.
            for (x, y, color) in [(0, 0, red), (3, 0, green), (4, 0, red), (7, 1, green), (0, 7, blue), (7, 7, white), (4, 4, red)] {
                #expect(texel(results.tiled, width: 8, x: x, y: y) == color, "\(name): (\(x), \(y))")
            }
            // No tint bound where msl_tinted is false; no texture bound reads as null.
            #expect(results.painted[0] == Array(repeating: red, count: 16).flatMap { $0 }, "\(name)")
            #expect(results.painted[1] == Array(repeating: blue, count: 16).flatMap { $0 }, "\(name)")
            #expect((0..<16).allSatisfy { texel(texel(results.painted[2], width: 4, x: $0 % 4, y: $0 / 4), holds: [0, 0, 1, 0.5]) },
                    "\(name): \(results.painted[2])")
            #expect(results.grid == Array(repeating: SIMD4(10, 3, 3, 2), count: 30), "\(name)")
            #expect(results.groupSums == [496, 1520, 2544], "\(name)")
        }
    }

    @Test("the build links a target's .metal files: a kernel calls a function another file of the Shaders target defines")
    func linkedAcrossFiles() throws {
        let gpu = try TestGPU()
        #expect(gpu.library.functionNames.contains("msl_linked.comp"))
        let pipeline = try gpu.device.makeComputePipelineState(function: try gpu.library.makeFunction(name: "msl_linked"))
        let values = try gpu.buffer((0..<8).map { Float($0) })
        var scale: (Float, Float) = (3, -1)
        try gpu.compute { encoder in
            encoder.setComputePipelineState(pipeline)
            encoder.setBuffer(values, offset: 0, index: 0)
            encoder.setBytes(&scale, length: 8, index: 1)
            encoder.dispatchThreads(Size(width: 8), threadsPerThreadgroup: Size(width: 8))
        }
        // msl_common.metal: fma(twice(x), factor, offset) + bias, bias 0.5.
        let expected: [Float] = (0..<8).map { (i: Int) -> Float in Float(i) * 6 - 0.5 }
        #expect(Array(UnsafeBufferPointer(start: values.contents().bindMemory(to: Float.self, capacity: 8), count: 8)) == expected)
    }

    /// The error `makeFunction` throws for the Shaders target's `add.comp` with an
    /// `OpSourceExtension` of each of `texts` added; nil when it makes the function.
    static func error(_ gpu: TestGPU, notes texts: [String]) throws -> LibraryError? {
        var words = try gpu.library.makeFunction(name: "add").module.words
        for text in texts { words = try #require(SPIRVSourceExtension.inserting(text, into: words)) }
        let library = try gpu.device.makeLibrary(spirv: words.withUnsafeBytes { Data($0) })
        do {
            let function = try library.makeFunction(name: "main")
            #expect(function.gridSizeIndex == 31 && function.conditionalBindings == [3: 9] && function.nullableBindings == [40])
            return nil
        } catch {
            return error
        }
    }

    @Test("notes as the compilers write them are set up; notes that are not, or that name a place outside the bindings, are refused")
    func refusedNotes() throws {
        let gpu = try TestGPU()
        let header = "SwiftGPU MSL notes 1\n"
        #expect(try Self.error(gpu, notes: [header + "conditional 3 9\nnullable 40\ngrid 31"]) == nil)
        func refused(_ reason: String) -> LibraryError {
            .invalidSPIRV(name: "main", reason: "its Metal Shading Language notes (an OpSourceExtension): " + reason)
        }
        let sampler = "sampler 0 linear linear none repeat repeat repeat transparent_black - normalized 1 0 7f7fffff"
        for (notes, reason) in [
            ([header + "grid 31", header + "grid 31"], "the module holds 2 of them"),
            ([header + "nullable 128"], "binding 128 is outside SwiftGPU's bindings 0..<128"),
            ([header + "conditional 200 0"], "binding 200 is outside SwiftGPU's bindings 0..<128"),
            ([header + "conditional 3 4294967296"], "function constant index 4294967296 is not a 32-bit index"),
            ([header + "grid 32"], "a grid-size block at buffer index 32 of a compute function; only a kernel has one, at an index in 0...31"),
            ([header + sampler.replacingOccurrences(of: "sampler 0", with: "sampler 16")], "sampler index 16 is outside 0...15"),
            ([header + "grid 31 "], "line 2 ('grid 31 '): not a line of the notes"),
            ([header + "threadgroup 0 1999 4"], "threadgroup index 0's count is constant 1999, which is not a uint specialization "
                + "constant of the module"),
            ([header + "threadgroup 31 1999 4"], "threadgroup memory at index 31 of a compute function; only a kernel has it, at an "
                + "index in 0...30"),
        ] {
            #expect(try Self.error(gpu, notes: notes) == refused(reason))
        }
        // Another compiler's source extension is not read as notes.
        #expect(try Self.error(gpu, notes: ["GL_GOOGLE_include_directive", header + "conditional 3 9\nnullable 40\ngrid 31"]) == nil)
    }
}
