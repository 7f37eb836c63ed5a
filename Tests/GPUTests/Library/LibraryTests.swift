import Foundation
import GPUFoundationCompat
import Shaders
import SPIRVValidation
import SwiftGPUSPIRV
import SwiftGPUSupport
import GPUTestSupport
import Testing
@testable import GPU

@Suite("Libraries", .validated)
struct LibraryTests {
    @Test("a function is found by its full name or by its file name without the stage extension, as a Metal user names it")
    func shortNames() throws {
        let gpu = try TestGPU()
        #expect(try gpu.library.makeFunction(name: "add").name == "add.comp")
        #expect(try gpu.library.makeFunction(name: "add.comp").name == "add.comp")
        #expect(throws: LibraryError.ambiguousFunctionName(name: "textured", candidates: ["textured.frag", "textured.vert"])) {
            try gpu.library.makeFunction(name: "textured")
        }
        #expect(throws: LibraryError.functionNotFound(name: "nothing", available: gpu.library.functionNames)) {
            try gpu.library.makeFunction(name: "nothing")
        }
        #expect("\(LibraryError.ambiguousFunctionName(name: "textured", candidates: ["textured.frag", "textured.vert"]))"
            == "'textured' names several functions (textured.frag, textured.vert); use the full name")
    }

    @Test("makeDefaultLibrary() finds the app's shaders in the resource bundles beside the executable")
    func defaultLibrary() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeDefaultLibrary()
        #expect(Set(gpu.library.functionNames).isSubset(of: Set(library.functionNames)))
        let pipeline = try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "increment"))
        #expect(pipeline.threadsPerThreadgroup == Size(width: 1))
    }

    @Test("a default library beside other executables' bundles holds only the running executable's: its own and its dependencies', known by their stamps' keys; a name two of them hold is its own, or an error naming them")
    func defaultLibraryOfOneExecutable() throws {
        let gpu = try TestGPU()
        let shaders = Shaders.bundle.bundlePath
        let color = try Data(contentsOf: URL(fileURLWithPath: shaders + "/color.frag.spv"))
        let other = try Data(contentsOf: URL(fileURLWithPath: shaders + "/bench.frag.spv"))
        // Two executables' bundles side by side, as SwiftPM leaves them: Alpha's and
        // Beta's own, a library target both link (Common), and one only Gamma links.
        let (alphaKey, betaKey, commonKey, gammaKey) = (StampKey.random(), StampKey.random(), StampKey.random(),
                                                       StampKey.random())
        let main = try TemporaryFolder("swiftgpu-bundles")
        func bundle(_ name: String, key: StampKey?, _ files: [(String, Data)]) throws {
            try FileManager.default.createDirectory(atPath: main.path + "/" + name, withIntermediateDirectories: true)
            for (file, bytes) in files {
                try main.write(bytes, to: "\(name)/\(file).spv")
                if let key { try main.write(BuildValidationTests.stamp(Array(bytes), key: key), to: "\(name)/\(file).spv.valid") }
            }
        }
        try bundle("Pkg_Alpha.resources", key: alphaKey, [("shade.frag", color), ("alpha.frag", color)])
        try bundle("Pkg_Beta.resources", key: betaKey, [("shade.frag", other), ("beta.frag", other)])
        try bundle("Pkg_Common.resources", key: commonKey, [("common.frag", color)])
        try bundle("Pkg_Extra.resources", key: gammaKey, [("shade.frag", color), ("extra.frag", color)])
        try bundle("Pkg_Unstamped.resources", key: nil, [("loose.frag", color)])

        // Each executable's library holds its own bundle's functions and its dependency's,
        // never the other executable's.
        let alpha = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Alpha", keys: [alphaKey, commonKey])
        #expect(alpha.functionNames == ["alpha.frag", "common.frag", "shade.frag"])
        #expect(try alpha.makeFunction(name: "shade").module.words.withUnsafeBytes { Data($0) } == color)
        #expect(throws: LibraryError.functionNotFound(name: "beta", available: alpha.functionNames)) {
            try alpha.makeFunction(name: "beta")
        }
        let beta = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Beta", keys: [betaKey, commonKey])
        #expect(beta.functionNames == ["beta.frag", "common.frag", "shade.frag"])
        #expect(try beta.makeFunction(name: "shade.frag").module.words.withUnsafeBytes { Data($0) } == other)

        // The bundle named for the executable is its own even without stamps of its keys.
        let named = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Unstamped", keys: [commonKey])
        #expect(named.functionNames == ["common.frag", "loose.frag"])

        // Two bundles it links hold one name, neither its own: asking for it throws, naming both.
        let gamma = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Gamma", keys: [alphaKey, gammaKey])
        let both = [main.path + "/Pkg_Alpha.resources", main.path + "/Pkg_Extra.resources"]
        #expect(throws: LibraryError.functionInSeveralBundles(name: "shade.frag", bundles: both)) {
            try gamma.makeFunction(name: "shade")
        }
        #expect("\(LibraryError.functionInSeveralBundles(name: "shade.frag", bundles: both))".contains(
            "none of them the executable's own; load the one meant with makeLibrary(filePath:)"))
        #expect(try gamma.makeFunction(name: "extra").name == "extra.frag")
        #expect(!gamma.functionNames.contains("beta.frag"))

        // A build that placed no keys cannot tell the bundles apart: it reads them all.
        let unkeyed = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Alpha", keys: [])
        #expect(unkeyed.functionNames == ["alpha.frag", "beta.frag", "common.frag", "extra.frag", "loose.frag", "shade.frag"])
        #expect(try unkeyed.makeFunction(name: "shade").module.words.withUnsafeBytes { Data($0) } == color)
    }

    @Test("makeDefaultLibrary() of the test executable reads the bundles it links, not a port's beside it")
    func defaultLibraryLeavesOutOtherExecutables() throws {
        let gpu = try TestGPU()
        // The ports' bundles lie beside the test executable in the build folder (the
        // suite's examples are built with it); none of their functions is in its library.
        let folder = try #require(ExecutableFolder.path)
        let ports = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasSuffix("_PortMetalVertexAttributes.resources")
        }
        let portFunctions = try ports.flatMap { try FileManager.default.contentsOfDirectory(atPath: folder + "/" + $0) }
            .filter { $0.hasSuffix(".spv") }
        #expect(portFunctions.contains("vertex_main.vert.spv"), "\(ports): \(portFunctions)")
        let library = try gpu.device.makeDefaultLibrary()
        #expect(library.functionNames.contains("increment.comp"))
        #expect(!library.functionNames.contains { $0.hasPrefix("vertex_main") || $0.hasPrefix("fragment_main") },
                "\(library.functionNames)")
    }

    @Test("makeLibrary(filePath:) and makeLibrary(URL:) read a folder of SPIR-V or one file, named as bundle functions are, trusting stamps when asked")
    func fileLibraries() throws {
        let gpu = try TestGPU()
        let bytes = try BuildValidationTests.addBytes()
        let folder = try TemporaryFolder("swiftgpu-files")
        try folder.write(bytes, to: "add.comp.spv")
        try folder.write(BuildValidationTests.stamp(bytes), to: "add.comp.spv.valid")
        try folder.write(bytes, to: "plain.comp.spv")
        try folder.write(Array("not a shader".utf8), to: "notes.txt")

        let library = try gpu.device.makeLibrary(filePath: folder.path, trustingBuildStamps: true)
        #expect(library.functionNames == ["add.comp", "plain.comp"])
        #expect(try library.makeFunction(name: "add").pendingValidation?.validatedByBuild == true)
        #expect(try library.makeFunction(name: "plain").pendingValidation?.validatedByBuild == false)
        let pipeline = try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "plain"))
        #expect(pipeline.functionName == "plain.comp")

        let viaURL = try gpu.device.makeLibrary(URL: folder.url)
        #expect(viaURL.functionNames == library.functionNames)
        let one = try gpu.device.makeLibrary(URL: folder.url.appendingPathComponent("add.comp.spv"), trustingBuildStamps: true)
        #expect(one.functionNames == ["add.comp"])
        #expect(try one.makeFunction(name: "add").pendingValidation?.validatedByBuild == true)
        // Untrusted, the same stamp spares nothing.
        #expect(try gpu.device.makeLibrary(URL: folder.url).makeFunction(name: "add").pendingValidation?.validatedByBuild == false)
        // A file named otherwise keeps its whole name.
        try folder.write(bytes, to: "kernel")
        #expect(try gpu.device.makeLibrary(filePath: folder.path + "/kernel").functionNames == ["kernel"])
    }

    @Test("a file library's bad input: a missing file, a folder without SPIR-V, a URL that names no file, bytes that are no module")
    func fileLibraryErrors() throws {
        let gpu = try TestGPU()
        let folder = try TemporaryFolder("swiftgpu-files")
        #expect(throws: LibraryError.unreadable(path: folder.path + "/missing.spv", reason: "no such file")) {
            try gpu.device.makeLibrary(filePath: folder.path + "/missing.spv")
        }
        #expect(throws: LibraryError.noShaders(bundlePath: folder.path)) {
            try gpu.device.makeLibrary(filePath: folder.path)
        }
        #expect("\(LibraryError.noShaders(bundlePath: folder.path))" == "no compiled shaders (*.spv) in \(folder.path)")
        #expect(throws: LibraryError.unreadable(path: "https://example.com/add.comp.spv", reason: "not a file URL")) {
            try gpu.device.makeLibrary(URL: try #require(URL(string: "https://example.com/add.comp.spv")))
        }
        // A FIFO named like a module is refused at once: opening it to read would wait for a writer.
        #expect(mkfifo(folder.path + "/pipe.spv", 0o600) == 0)
        #expect(throws: LibraryError.unreadable(path: folder.path + "/pipe.spv", reason: "a FIFO, not a regular file")) {
            try gpu.device.makeLibrary(filePath: folder.path + "/pipe.spv")
        }
        #expect(throws: LibraryError.unreadable(path: folder.path + "/pipe.spv", reason: "a FIFO, not a regular file")) {
            try gpu.device.makeLibrary(filePath: folder.path)
        }
        #expect("\(LibraryError.unreadable(path: "/x.spv", reason: "a FIFO, not a regular file"))"
            == "could not read shader file /x.spv: a FIFO, not a regular file")
        #expect(unlink(folder.path + "/pipe.spv") == 0)
        try folder.write(Array("not SPIR-V at all".utf8), to: "text.spv")
        #expect {
            try gpu.device.makeLibrary(filePath: folder.path)
        } throws: { error in
            guard case LibraryError.notSPIRV(let name, _) = error else { return false }
            return name == "text.spv"
        }
    }

    @Test("what cannot be a module is refused before it is read, never blocking: a device, a socket, a folder named *.spv, a sparse file over 64 MiB, a FIFO as a stamp")
    func filesThatCannotBeModules() throws {
        let gpu = try TestGPU()
        let folder = try TemporaryFolder("swiftgpu-files")
        // The path handed to makeLibrary(filePath:), the file refused and why.
        let cases: [(path: String, file: String, reason: String)] = [
            ("/dev/zero", "/dev/zero", "a character device, not a regular file"),
            (folder.path + "/socket.spv", folder.path + "/socket.spv", "a socket, not a regular file"),
            (folder.path + "/nested", folder.path + "/nested/folder.spv", "a folder, not a regular file"),
            (folder.path + "/huge.spv", folder.path + "/huge.spv", "\((64 << 20) + 1) bytes, more than the limit of \(64 << 20)"),
        ]
        try folder.makeSocket("socket.spv")
        try FileManager.default.createDirectory(atPath: folder.path + "/nested/folder.spv", withIntermediateDirectories: true)
        try folder.makeSparseFile("huge.spv", size: (64 << 20) + 1)
        for (path, file, reason) in cases {
            #expect(throws: LibraryError.unreadable(path: file, reason: reason)) {
                try gpu.device.makeLibrary(filePath: path)
            }
        }
        // Exactly at the limit the file is read (and refused as no module: it is all zeros).
        try folder.makeSparseFile("limit.spv", size: 64 << 20)
        #expect {
            try gpu.device.makeLibrary(filePath: folder.path + "/limit.spv")
        } throws: { error in
            guard case LibraryError.notSPIRV(let name, _) = error else { return false }
            return name == "limit.spv"
        }
        // A stamp that is a FIFO, where stamps are trusted: never opened so as to wait for a
        // writer; the module is validated instead.
        let stamped = try TemporaryFolder("swiftgpu-files")
        let add = try Data(contentsOf: try #require(Shaders.bundle.url(forResource: "add.comp", withExtension: "spv")))
        try stamped.write(add, to: "add.comp.spv")
        #expect(mkfifo(stamped.path + "/add.comp.spv.valid", 0o600) == 0)
        let library = try gpu.device.makeLibrary(filePath: stamped.path, trustingBuildStamps: true)
        #expect(try library.makeFunction(name: "add").pendingValidation?.validatedByBuild == false)
    }

    @Test("makeDefaultLibrary(bundle:) reads the bundle's resources, and names a bundle without shaders")
    func bundleLibrary() throws {
        let gpu = try TestGPU()
        let folder = try TemporaryFolder("swiftgpu-bundle")
        let empty = try #require(Bundle(path: folder.path))
        #expect(throws: LibraryError.noShaders(bundlePath: empty.bundlePath)) {
            try gpu.device.makeDefaultLibrary(bundle: empty)
        }
        try folder.write(try BuildValidationTests.addBytes(), to: "add.comp.spv")
        #expect(try gpu.device.makeDefaultLibrary(bundle: empty).functionNames == ["add.comp"])
    }
}
