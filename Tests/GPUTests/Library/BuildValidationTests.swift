import Foundation
import GPUTestSupport
import Shaders
import SPIRVValidation
import Testing
@testable import GPU
import GPUFoundationCompat

/// Modules the SPIRVCompiler plugin validated while building: their stamps, what a library
/// trusts them for, and what it still checks.
@Suite("Shaders validated by the build", .validated)
struct BuildValidationTests {
    /// The stamp this build's validator writes for a module of `bytes`.
    static func stamp(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.withUnsafeBytes { ValidationStamp.make(for: $0) }.utf8)
    }

    /// Whether `stamp` matches a module of `bytes`.
    static func matches(_ stamp: [UInt8], _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { ValidationStamp.matches(stamp, module: $0) }
    }

    /// `add.comp`'s bytes, as the plugin compiled them.
    static func addBytes() throws -> [UInt8] {
        Array(try Data(contentsOf: try #require(Shaders.bundle.url(forResource: "add.comp", withExtension: "spv"))))
    }

    @Test("a stamp names the validator, its version and the environment, and matches its own module only")
    func stampMatchesItsModule() throws {
        let bytes = try Self.addBytes()
        let stamp = Self.stamp(bytes)
        let text = String(decoding: stamp, as: UTF8.self)
        #expect(text.hasPrefix("SPIRV-Tools \(SPIRVValidator.version); vulkan1.3; \(bytes.count) bytes; fnv1a64 "), "\(text)")
        #expect(Self.matches(stamp, bytes))
        var changed = bytes
        changed[changed.count / 2] ^= 0x01
        #expect(!Self.matches(stamp, changed))
        #expect(!Self.matches(stamp, Array(bytes.dropLast(4))))
        let otherVersion = text.replacingOccurrences(of: SPIRVValidator.version, with: "v1999.9")
        #expect(!Self.matches(Array(otherVersion.utf8), bytes))
    }

    @Test("every shader the plugin compiled has a stamp that matches it, and its library does not validate them again")
    func pluginStampsEveryShader() throws {
        let gpu = try TestGPU()
        let folder = try #require(Shaders.bundle.resourcePath)
        let modules = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".spv") }
        #expect(modules.count > 10)
        for name in modules {
            let module = Array(try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name)))
            let stamp = Array(try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name + ".valid")))
            #expect(Self.matches(stamp, module), "\(name)")
        }
        let library = try gpu.device.makeDefaultLibrary(bundle: Shaders.bundle)
        for name in library.functionNames {
            let function = try library.makeFunction(name: name)
            #expect(function.pendingValidation?.validatedByBuild == true, "\(name)")
        }
        _ = try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "add"))
    }

    @Test("a module changed after the build, or stamped by another validator, is validated at run time")
    func unmatchedStampsAreValidated() throws {
        let gpu = try TestGPU()
        let bytes = try Self.addBytes()
        let stamp = Self.stamp(bytes)
        let words = try ModuleValidationTests.withoutReturn(bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) })
        let folder = try TemporaryFolder("swiftgpu-stamps")
        try folder.write(bytes, to: "add.comp.spv")
        try folder.write(stamp, to: "add.comp.spv.valid")
        try folder.write(ModuleValidationTests.bytes(words), to: "broken.comp.spv")
        try folder.write(stamp, to: "broken.comp.spv.valid")   // add's stamp: the module changed after it
        try folder.write(bytes, to: "other.comp.spv")
        try folder.write(String(decoding: stamp, as: UTF8.self).replacingOccurrences(of: SPIRVValidator.version, with: "v1999.9")
            .utf8, to: "other.comp.spv.valid")
        try folder.write(bytes, to: "plain.comp.spv")
        let library = try gpu.device.makeDefaultLibrary(bundle: try #require(Bundle(path: folder.path)))

        #expect(try library.makeFunction(name: "add").pendingValidation?.validatedByBuild == true)
        #expect(try library.makeFunction(name: "other").pendingValidation?.validatedByBuild == false)
        #expect(try library.makeFunction(name: "plain").pendingValidation?.validatedByBuild == false)
        #expect {
            _ = try library.makeFunction(name: "broken.comp")
        } throws: { error in
            guard case LibraryError.invalidSPIRV(let name, let reason) = error else { return false }
            return name == "broken.comp.spv" && reason.hasPrefix("word 81: Function end cannot be called in blocks")
        }
    }

    @Test("a forged stamp beside an invalid module in a folder the app did not vouch for: fully validated and refused; trusted only when asked")
    func forgedStampsFromArbitraryPaths() throws {
        let gpu = try TestGPU()
        let bytes = try Self.addBytes()
        let words = try ModuleValidationTests.withoutReturn(bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) })
        let broken = ModuleValidationTests.bytes(words)
        let folder = try TemporaryFolder("swiftgpu-forged")
        try folder.write(broken, to: "forged.comp.spv")
        try folder.write(Self.stamp(Array(broken)), to: "forged.comp.spv.valid")   // the hash anyone can recompute
        try folder.write(bytes, to: "add.comp.spv")
        try folder.write(Self.stamp(bytes), to: "add.comp.spv.valid")

        for library in [try gpu.device.makeLibrary(filePath: folder.path), try gpu.device.makeLibrary(URL: folder.url)] {
            #expect {
                _ = try library.makeFunction(name: "forged")
            } throws: { error in
                guard case LibraryError.invalidSPIRV(let name, let reason) = error else { return false }
                return name == "forged.comp.spv" && reason.hasPrefix("word 81: Function end cannot be called in blocks")
            }
            #expect(try library.makeFunction(name: "add").pendingValidation?.validatedByBuild == false)
        }
        // An app that installed the folder itself may trust its stamps, as the default
        // library trusts the build's bundles.
        let trusted = try gpu.device.makeLibrary(filePath: folder.path, trustingBuildStamps: true)
        #expect(try trusted.makeFunction(name: "add").pendingValidation?.validatedByBuild == true)
    }

    @Test("a stamp is read when the module's function is first asked for, and matched against the module as loaded")
    func stampMatchedAgainstLoadedModule() throws {
        let gpu = try TestGPU()
        let bytes = try Self.addBytes()
        let words = try ModuleValidationTests.withoutReturn(bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) })
        let broken = Array(ModuleValidationTests.bytes(words))
        let folder = try TemporaryFolder("swiftgpu-stamps")
        try folder.write(bytes, to: "add.comp.spv")
        try folder.write(Self.stamp(bytes), to: "add.comp.spv.valid")
        let library = try gpu.device.makeDefaultLibrary(bundle: try #require(Bundle(path: folder.path)))
        // Replaced after the library loaded the module, with a stamp that matches the new
        // file: the module in memory is the old one, so the new stamp does not vouch for it.
        try folder.write(broken, to: "add.comp.spv")
        try folder.write(Self.stamp(broken), to: "add.comp.spv.valid")
        let add = try library.makeFunction(name: "add")
        #expect(add.pendingValidation?.validatedByBuild == false)
        _ = try gpu.device.makeComputePipelineState(function: add)
    }

    @Test("a stamped module still gets SwiftGPU's own checks")
    func stampedModulesGetOwnChecks() throws {
        let gpu = try TestGPU()
        var words = try ModuleValidationTests.addWords()
        // Without its BuiltIn decoration the invocation ID is an ordinary input: SPIRV-Tools
        // accepts that, SwiftGPU does not.
        let decoration = try #require(ModuleValidationTests.instructions(words, opcode: 71).first { words[$0 + 2] == 11 })
        let target = words[decoration + 1]
        words.removeSubrange(decoration..<(decoration + Int(words[decoration] >> 16)))
        let bytes = Array(ModuleValidationTests.bytes(words))
        #expect(SPIRVValidator.problem(in: words) == nil)
        let folder = try TemporaryFolder("swiftgpu-stamps")
        try folder.write(bytes, to: "input.comp.spv")
        try folder.write(Self.stamp(bytes), to: "input.comp.spv.valid")
        let library = try gpu.device.makeDefaultLibrary(bundle: try #require(Bundle(path: folder.path)))
        #expect(throws: LibraryError.invalidSPIRV(name: "input.comp.spv", reason: "main: input %\(target) is not a built-in; "
            + "compute functions have no other inputs or outputs")) {
            _ = try library.makeFunction(name: "input")
        }
    }

    /// Runs the `spirv-stamp` tool, built beside the tests: its status and standard error.
    static func stampTool(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let (status, error) = try ExampleTests.run(ExampleProgram.executable("spirv-stamp"), arguments,
                                                   readingStandardError: true)
        return (status, error)
    }

    @Test("spirv-stamp writes the stamp of a valid module, and fails on an invalid one with the validator's message")
    func stampTool() throws {
        let bytes = try Self.addBytes()
        let words = try ModuleValidationTests.withoutReturn(bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) })
        let folder = try TemporaryFolder("swiftgpu-stamps")
        try folder.write(bytes, to: "add.comp.spv")
        try folder.write(ModuleValidationTests.bytes(words), to: "broken.comp.spv")
        try folder.write(Array("not SPIR-V at all".utf8), to: "text.spv")
        let output = folder.url.appendingPathComponent("made/add.comp.spv.valid")

        let valid = try Self.stampTool([folder.path + "/add.comp.spv", output.path])
        #expect(valid.status == 0 && valid.error.isEmpty, "\(valid.error)")
        #expect(Array(try Data(contentsOf: output)) == Self.stamp(bytes))

        let invalidStamp = folder.url.appendingPathComponent("broken.comp.spv.valid")
        let invalid = try Self.stampTool([folder.path + "/broken.comp.spv", invalidStamp.path])
        #expect(invalid.status == 1)
        #expect(invalid.error.hasPrefix("error: \(folder.path)/broken.comp.spv: invalid SPIR-V for vulkan1.3: word 81: "
            + "Function end cannot be called in blocks"), "\(invalid.error)")
        #expect(!FileManager.default.fileExists(atPath: invalidStamp.path))

        let text = try Self.stampTool([folder.path + "/text.spv", folder.path + "/text.spv.valid"])
        #expect(text.status == 1 && text.error.hasPrefix("error: \(folder.path)/text.spv: not SPIR-V: "), "\(text.error)")
        let usage = try Self.stampTool([])
        #expect(usage.status == 1 && usage.error == "usage: spirv-stamp INPUT.spv OUTPUT.valid\n")
    }
}
