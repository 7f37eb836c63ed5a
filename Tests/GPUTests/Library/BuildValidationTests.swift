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
    /// The stamp this build's validator writes for a module of `bytes`, with `key` (by
    /// default the key the SPIRVCompiler plugin built into this test executable).
    static func stamp(_ bytes: [UInt8], key: StampKey? = nil) throws -> [UInt8] {
        let key = try key ?? #require(ValidationStamp.buildKeys.first)
        return Array(bytes.withUnsafeBytes { ValidationStamp.make(for: $0, key: key) }.utf8)
    }

    /// Whether `stamp` matches a module of `bytes` under the executable's keys.
    static func matches(_ stamp: [UInt8], _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { ValidationStamp.matches(stamp, module: $0, keys: ValidationStamp.buildKeys) }
    }

    /// `add.comp`'s bytes, as the plugin compiled them.
    static func addBytes() throws -> [UInt8] {
        Array(try Data(contentsOf: try #require(Shaders.bundle.url(forResource: "add.comp", withExtension: "spv"))))
    }

    @Test("a stamp names the validator, its version and the environment, and matches its own module under its own key only")
    func stampMatchesItsModule() throws {
        let bytes = try Self.addBytes()
        let stamp = try Self.stamp(bytes)
        let text = String(decoding: stamp, as: UTF8.self)
        #expect(text.hasPrefix("SPIRV-Tools \(SPIRVValidator.version); vulkan1.3; \(bytes.count) bytes; siphash128 "), "\(text)")
        #expect(text.hasSuffix("\n") && text.split(separator: " ").last?.count == 33, "one line ending in 32 hex digits")
        #expect(Self.matches(stamp, bytes))
        var changed = bytes
        changed[changed.count / 2] ^= 0x01
        #expect(!Self.matches(stamp, changed))
        #expect(!Self.matches(stamp, Array(bytes.dropLast(4))))
        let otherVersion = text.replacingOccurrences(of: SPIRVValidator.version, with: "v1999.9")
        #expect(!Self.matches(Array(otherVersion.utf8), bytes))
        // Another build's key: the same line with another hash, which this executable refuses.
        let foreign = try Self.stamp(bytes, key: StampKey(k0: 1, k1: 2))
        #expect(foreign != stamp && !Self.matches(foreign, bytes))
        #expect(bytes.withUnsafeBytes { ValidationStamp.matches(foreign, module: $0, keys: [StampKey(k0: 1, k1: 2)]) })
        #expect(bytes.withUnsafeBytes { !ValidationStamp.matches(stamp, module: $0, keys: []) })
    }

    @Test("stamps are SipHash-2-4 with 128-bit output: the reference vectors (key 00…0f, message 00…n-1)")
    func sipHashReferenceVectors() {
        let key = StampKey(k0: 0x0706_0504_0302_0100, k1: 0x0F0E_0D0C_0B0A_0908)
        #expect(key.hex == "000102030405060708090a0b0c0d0e0f")
        #expect(StampKey(hex: key.hex) == key)
        #expect(StampKey(hex: "00") == nil && StampKey(hex: String(repeating: "g", count: 32)) == nil)
        let expected = [
            0: "a3817f04ba25a8e66df67214c7550293",
            1: "da87c1d86b99af44347659119b22fc45",
            2: "8177228da4a45dc7fca38bdef60affe4",
            15: "5493e99933b0a8117e08ec0f97cfc3d9",
            63: "5150d1772f50834a503e069a973fbd7c",
        ]
        for (length, tag) in expected {
            let message = (0..<length).map { UInt8($0) }
            #expect(message.withUnsafeBytes { StampKey.hex(key.mac($0)) } == tag, "\(length) bytes")
        }
    }

    @Test("the build's stamp keys are in the executable and nowhere in the shader bundle")
    func stampKeysLiveInTheExecutable() throws {
        let keys = ValidationStamp.buildKeys
        #expect(!keys.isEmpty)
        #expect(Set(keys.map(\.hex)).count == keys.count)
        let folder = try #require(Shaders.bundle.resourcePath)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name)), as: UTF8.self)
            for key in keys { #expect(!text.contains(key.hex), "\(name) holds a stamp key") }
            #expect(!name.hasSuffix(".swift") && !text.contains("stamp key"), "\(name)")
        }
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
        let stamp = try Self.stamp(bytes)
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
        // Even a stamp made with the build's key vouches for nothing in a folder the app did not name.
        try folder.write(Self.stamp(Array(broken)), to: "forged.comp.spv.valid")
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

    @Test("spirv-stamp makes a key source once and keeps its key, stamps a valid module with it, and fails on an invalid one with the validator's message")
    func stampTool() throws {
        let bytes = try Self.addBytes()
        let words = try ModuleValidationTests.withoutReturn(bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) })
        let folder = try TemporaryFolder("swiftgpu-stamps")
        try folder.write(bytes, to: "add.comp.spv")
        try folder.write(ModuleValidationTests.bytes(words), to: "broken.comp.spv")
        try folder.write(Array("not SPIR-V at all".utf8), to: "text.spv")
        let keySource = folder.path + "/key/ShaderStampKey.swift"
        let output = folder.url.appendingPathComponent("made/add.comp.spv.valid")

        let made = try Self.stampTool(["key", keySource])
        #expect(made.status == 0 && made.error.isEmpty, "\(made.error)")
        let source = try String(contentsOfFile: keySource, encoding: .utf8)
        let keyLine = try #require(source.split(separator: "\n").first { $0.hasPrefix("// stamp key: ") })
        let key = try #require(StampKey(hex: keyLine.dropFirst("// stamp key: ".count)))
        #expect(source.contains("#if compiler(>=6.3)\n@section(\"swiftgpu_stamp_keys\") @used\n"
            + "private let swiftGPUShaderStampKey: (UInt64, UInt64) = (0x\(String(key.k0, radix: 16)), 0x\(String(key.k1, radix: 16)))\n"
            + "#endif\n"), "\(source)")
        #expect(!ValidationStamp.buildKeys.contains(key), "a new random key")
        let again = try Self.stampTool(["key", keySource])
        let kept = try String(contentsOfFile: keySource, encoding: .utf8)
        #expect(again.status == 0 && kept == source, "the key is kept")

        let valid = try Self.stampTool([keySource, folder.path + "/add.comp.spv", output.path])
        #expect(valid.status == 0 && valid.error.isEmpty, "\(valid.error)")
        let expected = try Self.stamp(bytes, key: key)
        #expect(Array(try Data(contentsOf: output)) == expected)

        let invalidStamp = folder.url.appendingPathComponent("broken.comp.spv.valid")
        let invalid = try Self.stampTool([keySource, folder.path + "/broken.comp.spv", invalidStamp.path])
        #expect(invalid.status == 1)
        #expect(invalid.error.hasPrefix("error: \(folder.path)/broken.comp.spv: invalid SPIR-V for vulkan1.3: word 81: "
            + "Function end cannot be called in blocks"), "\(invalid.error)")
        #expect(!FileManager.default.fileExists(atPath: invalidStamp.path))

        let text = try Self.stampTool([keySource, folder.path + "/text.spv", folder.path + "/text.spv.valid"])
        #expect(text.status == 1 && text.error.hasPrefix("error: \(folder.path)/text.spv: not SPIR-V: "), "\(text.error)")
        let noKey = try Self.stampTool([folder.path + "/add.comp.spv", folder.path + "/add.comp.spv", output.path])
        #expect(noKey.status == 1 && noKey.error.hasPrefix("error: \(folder.path)/add.comp.spv: no stamp key"), "\(noKey.error)")
        let usage = try Self.stampTool([])
        #expect(usage.status == 1
            && usage.error == "usage: spirv-stamp key KEY.swift | spirv-stamp KEY.swift INPUT.spv OUTPUT.valid\n")
    }

    /// Invalid modules that SwiftGPU's reader accepts and SPIRV-Tools refuses, with the
    /// reason it gives (its start): an id bound of 0xFFFFFFFF (a driver that trusts it crashes), and a
    /// function without its `OpReturn`.
    static func invalidModules() throws -> [(name: String, bytes: [UInt8], reason: String)] {
        var hugeBound = try ModuleValidationTests.addWords()
        hugeBound[3] = 0xFFFF_FFFF
        let noReturn = try ModuleValidationTests.withoutReturn(ModuleValidationTests.addWords())
        return [
            ("bound.comp", Array(ModuleValidationTests.bytes(hugeBound)),
             "word 0: Invalid SPIR-V.  The id bound is larger than the max id bound 4194303."),
            ("noreturn.comp", Array(ModuleValidationTests.bytes(noReturn)), "word 81: Function end cannot be called in blocks"),
        ]
    }

    @Test("forged stamps where stamps are trusted (the default library, trustingBuildStamps): each invalid module ends in the full validation's error")
    func forgedStampsInTrustedFolders() throws {
        let gpu = try TestGPU()
        let modules = try Self.invalidModules()
        // What a forger can write without the executable's key: the old unkeyed stamp
        // (FNV-1a, computable by anyone), and this format under keys of their own.
        func fnv1a(_ bytes: [UInt8]) -> String {
            let hash = bytes.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
            let digits = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        let forgeries: [(String, ([UInt8]) throws -> [UInt8])] = [
            ("unkeyed", { Array("SPIRV-Tools \(SPIRVValidator.version); \(SPIRVValidator.environment); \($0.count) bytes; fnv1a64 \(fnv1a($0))\n".utf8) }),
            ("random key", { try Self.stamp($0, key: StampKey.random()) }),
            ("zero key", { try Self.stamp($0, key: StampKey(k0: 0, k1: 0)) }),
        ]
        for (forgery, forge) in forgeries {
            let folder = try TemporaryFolder("swiftgpu-forged")
            for module in modules {
                try folder.write(module.bytes, to: module.name + ".spv")
                try folder.write(forge(module.bytes), to: module.name + ".spv.valid")
            }
            let libraries = [
                try gpu.device.makeDefaultLibrary(in: folder.path, executable: nil),
                try gpu.device.makeLibrary(filePath: folder.path, trustingBuildStamps: true),
                try gpu.device.makeLibrary(URL: folder.url, trustingBuildStamps: true),
            ]
            for library in libraries {
                for module in modules {
                    #expect("\(forgery)") {
                        _ = try library.makeFunction(name: module.name)
                    } throws: { error in
                        guard case LibraryError.invalidSPIRV(let name, let reason) = error else { return false }
                        return name == module.name + ".spv" && reason.hasPrefix(module.reason)
                    }
                }
            }
        }
    }
}
