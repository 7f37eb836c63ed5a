import Foundation
import GPUTestSupport
import Shaders
import SPIRVValidation
import Testing
@testable import GPU
import GPUFoundationCompat

/// Modules that would crash or mislead a driver are refused before any driver call, with a
/// message that says why.
@Suite("Module validation", .validated)
struct ModuleValidationTests {
    /// The words of the package's `add.comp`.
    static func addWords() throws -> [UInt32] {
        let data = try Data(contentsOf: Shaders.bundle.url(forResource: "add.comp", withExtension: "spv")!)
        return data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }

    static func bytes(_ words: [UInt32]) -> Data { words.withUnsafeBytes { Data($0) } }

    /// `words` (a module of one function) without its `OpReturn`: SPIRV-Tools refuses it
    /// at word 81, "Function end cannot be called in blocks".
    static func withoutReturn(_ words: [UInt32]) throws -> [UInt32] {
        var edited = words
        edited.remove(at: try #require(instructions(words, opcode: 253).first))
        return edited
    }

    /// The word offsets of `add.comp`'s instructions with `opcode`.
    static func instructions(_ words: [UInt32], opcode: UInt32) -> [Int] {
        var offsets: [Int] = [], at = 5
        while at < words.count {
            let count = Int(words[at] >> 16)
            if words[at] & 0xFFFF == opcode { offsets.append(at) }
            at += max(count, 1)
        }
        return offsets
    }

    /// The reason `makeLibrary(spirv:)` gives for `words`, which it must refuse as invalid.
    static func invalidReason(_ words: [UInt32], device: Device) -> String? {
        do {
            _ = try device.makeLibrary(spirv: bytes(words))
            return nil
        } catch {
            guard case .invalidSPIRV(let name, let reason) = error else { return "\(error)" }
            #expect(name == "SPIR-V data")
            return reason
        }
    }

    @Test("malformed modules are refused with the validator's message and the word it points at")
    func malformedModules() throws {
        let gpu = try TestGPU()
        let words = try Self.addWords()

        var hugeBound = words
        hugeBound[3] = 0xFFFF_FFFF
        let bound = try #require(Self.invalidReason(hugeBound, device: gpu.device))
        #expect(bound == "word 0: Invalid SPIR-V.  The id bound is larger than the max id bound 4194303.")

        var decorationTarget = words
        let decoration = try #require(Self.instructions(words, opcode: 71).first)
        decorationTarget[decoration + 1] = words[3] + 10
        let target = try #require(Self.invalidReason(decorationTarget, device: gpu.device))
        #expect(target.hasPrefix("word 0: The following forward referenced IDs have not been defined:"))

        let noReturn = try Self.withoutReturn(words)
        let missing = try #require(Self.invalidReason(noReturn, device: gpu.device))
        #expect(missing.hasPrefix("word 81: Function end cannot be called in blocks"))

        var flipped = words
        let load = try #require(Self.instructions(words, opcode: 61).first)
        flipped[load] = flipped[load] & 0xFFFF_0000 | 62 // OpLoad becomes OpStore
        let opcode = try #require(Self.invalidReason(flipped, device: gpu.device))
        #expect(opcode.contains("End of input reached while decoding OpStore"))
        #expect("\(LibraryError.invalidSPIRV(name: "m.spv", reason: "word 3: x"))"
            == "m.spv is not valid SPIR-V for Vulkan: word 3: x")
    }

    @Test("an input or output no stage can hold is refused: a compute input that is not a built-in, a vertex input without a Location")
    func unplacedInterfaceVariables() throws {
        let gpu = try TestGPU()
        /// `words` without its first `OpDecorate` (opcode 71) of `decoration`, and that decoration's target.
        func removingDecoration(_ decoration: UInt32, from words: [UInt32]) throws -> (words: [UInt32], target: UInt32) {
            let at = try #require(Self.instructions(words, opcode: 71).first { words[$0 + 2] == decoration })
            var edited = words
            edited.removeSubrange(at..<(at + Int(words[at] >> 16)))
            return (edited, words[at + 1])
        }
        // SPIRV-Tools' validator accepts this one, and NVIDIA's compiler crashed on it.
        let compute = try removingDecoration(11, from: Self.addWords())
        #expect(SPIRVValidator.problem(in: compute.words) == nil)
        #expect(Self.invalidReason(compute.words, device: gpu.device)
            == "main: input %\(compute.target) is not a built-in; compute functions have no other inputs or outputs")

        let url = try #require(Shaders.bundle.url(forResource: "triangle.vert", withExtension: "spv"))
        let vertexWords = try Data(contentsOf: url).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        let vertex = try removingDecoration(30, from: vertexWords)
        let reason = try #require(Self.invalidReason(vertex.words, device: gpu.device))
        // The validator refuses this one itself.
        #expect(reason.contains("[VUID-StandaloneSpirv-Location-04916] Variable must be decorated with a location"), "\(reason)")
    }

    @Test("a bundle library validates a module when its function is first asked for, and refuses it every time")
    func bundleModulesValidatedOnFirstUse() throws {
        let gpu = try TestGPU()
        let words = try Self.addWords()
        let noReturn = try Self.withoutReturn(words)
        let folder = try TemporaryFolder("swiftgpu-deferred")
        try folder.write(Self.bytes(words), to: "add.comp.spv")
        try folder.write(Self.bytes(noReturn), to: "broken.comp.spv")
        let bundle = try #require(Bundle(path: folder.path))

        // The broken module does not stop the library: only its own function is refused.
        let library = try gpu.device.makeDefaultLibrary(bundle: bundle)
        #expect(library.functionNames == ["add.comp", "broken.comp"])
        let add = try library.makeFunction(name: "add")
        #expect(add.pendingValidation != nil)
        _ = try gpu.device.makeComputePipelineState(function: add)
        for _ in 0..<2 {
            #expect {
                _ = try library.makeFunction(name: "broken.comp")
            } throws: { error in
                guard case LibraryError.invalidSPIRV(let name, let reason) = error else { return false }
                return name == "broken.comp.spv" && reason.hasPrefix("word 81: Function end cannot be called in blocks")
            }
        }
    }

    @Test("a geometry shader is named as an unsupported stage, not as a missing function")
    func unsupportedStage() throws {
        let gpu = try TestGPU()
        let geometry = try GLSLC.compile("""
            #version 450
            layout(points) in;
            layout(points, max_vertices = 1) out;
            void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); EndPrimitive(); }
            """, stage: "geom")
        #expect(throws: LibraryError.unsupportedFunction(name: "main", reason:
            "it is a geometry shader; SwiftGPU runs vertex, fragment and compute functions")) {
            try gpu.device.makeLibrary(spirv: geometry)
        }
    }

    @Test("a local size with a zero dimension, or over the device's limits, is refused before the driver sees it")
    func localSizes() throws {
        let gpu = try TestGPU()
        // add.comp's size is also a WorkgroupSize built-in, which overrides LocalSize: drop its
        // decoration so that the execution mode alone sets the size.
        var words = try Self.addWords()
        let builtIn = try #require(Self.instructions(words, opcode: 71).first { words[$0 + 2] == 11 && words[$0 + 3] == 25 })
        words.removeSubrange(builtIn..<builtIn + 4)
        let mode = try #require(Self.instructions(words, opcode: 16).first { words[$0 + 2] == 17 })
        func pipeline(_ x: UInt32, _ y: UInt32, _ z: UInt32) throws {
            var changed = words
            (changed[mode + 3], changed[mode + 4], changed[mode + 5]) = (x, y, z)
            _ = try gpu.device.makeComputePipelineState(function: gpu.device.makeLibrary(spirv: Self.bytes(changed))
                .makeFunction(name: "main"))
        }
        #expect(throws: LibraryError.unsupportedFunction(name: "main", reason: "its local size 0×1×1 has a zero dimension")) {
            try pipeline(0, 1, 1)
        }
        let max = gpu.device.maxThreadsPerThreadgroup
        #expect(throws: LibraryError.unsupportedFunction(name: "main", reason: "its local size \(max.width + 1)×1×1 exceeds "
            + "this device's maximum \(max.width)×\(max.height)×\(max.depth)")) {
            try pipeline(UInt32(max.width + 1), 1, 1)
        }
        let total = gpu.device.limits.maxTotalThreadsPerThreadgroup
        if max.width * max.height > total {
            #expect(throws: LibraryError.unsupportedFunction(name: "main", reason: "its local size \(max.width)×\(max.height)×1 "
                + "has \(max.width * max.height) invocations, over this device's maximum of \(total) per threadgroup")) {
                try pipeline(UInt32(max.width), UInt32(max.height), 1)
            }
        }
        try pipeline(UInt32(total), 1, 1)
    }

    @Test("a capability that needs a device feature, or an extension SwiftGPU does not enable, is refused by name")
    func capabilities() throws {
        let gpu = try TestGPU()
        let float64 = try GLSLC.compile("""
            #version 450
            layout(local_size_x = 1) in;
            layout(set = 0, binding = 0) buffer B { double value; };
            void main() { value = value * 2.0; }
            """, stage: "comp")
        do {
            _ = try gpu.device.makeLibrary(spirv: float64)
            Issue.record("a Float64 module was accepted")
        } catch {
            guard case .unsupportedModule(let name, let reason) = error else { throw error }
            #expect(name == "SPIR-V data")
            #expect(reason.hasPrefix("word 7: it declares the capability Float64, which needs a device feature SwiftGPU does "
                + "not enable (it runs shaders with the capabilities Matrix, Shader, InputAttachment"))
        }
    }

    @Test("a fragment input the vertex function does not write, or interface components over the device's limit, throw")
    func stageInterfaces() throws {
        let gpu = try TestGPU()
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("fullscreen.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        #expect(throws: LibraryError.unsupportedFunction(name: "color.frag", reason: "it reads input location 0 (4 × float32), "
            + "which vertex function 'fullscreen.vert' does not write as such")) {
            try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        }
        let wide = try GLSLC.compile("""
            #version 450
            layout(location = 0) out vec4 wide[40];
            void main() { gl_Position = vec4(0.0); for (int i = 0; i < 40; i++) wide[i] = vec4(float(i)); }
            """, stage: "vert")
        descriptor.vertexFunction = try gpu.device.makeLibrary(spirv: wide).makeFunction(name: "main")
        descriptor.fragmentFunction = nil
        let limit = gpu.device.limits.maxVertexOutputComponents
        #expect(throws: LibraryError.unsupportedFunction(name: "main", reason:
            "its outputs hold \(160 + 7) components, over this device's maximum of \(limit)")) {
            try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        }
    }

    @Test("driver results read by name")
    func resultNames() {
        #expect("\(VulkanError.Code(rawValue: -13))" == "VK_ERROR_UNKNOWN")
        #expect("\(VulkanError.Code(rawValue: -1_000_161_000))" == "VK_ERROR_FRAGMENTATION")
        #expect("\(VulkanError.Code(rawValue: 1_000_297_000))" == "VK_PIPELINE_COMPILE_REQUIRED")
        #expect("\(VulkanError.Code(rawValue: -77))" == "VkResult(-77)")
    }
}
