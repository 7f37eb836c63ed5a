import Foundation
import GPUFoundationCompat
import Shaders
import SwiftGPUSPIRV
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

    @Test("a default library beside other executables' bundles: a name several bundles hold is the executable's own, or an error naming them, never another's shader")
    func defaultLibraryOfOneExecutable() throws {
        let gpu = try TestGPU()
        let shaders = Shaders.bundle.bundlePath
        let color = try Data(contentsOf: URL(fileURLWithPath: shaders + "/color.frag.spv"))
        let other = try Data(contentsOf: URL(fileURLWithPath: shaders + "/bench.frag.spv"))
        let main = try TemporaryFolder("swiftgpu-bundles")
        for (bundle, bytes) in [("Pkg_Alpha.resources", color), ("Pkg_Beta.resources", other)] {
            try FileManager.default.createDirectory(atPath: main.path + "/" + bundle, withIntermediateDirectories: true)
            try main.write(bytes, to: bundle + "/shade.frag.spv")
        }
        try main.write(color, to: "Pkg_Beta.resources/only.frag.spv")

        // Alpha's own bundle wins, by full or short name; a name one bundle holds is found.
        let alpha = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Alpha")
        #expect(try alpha.makeFunction(name: "shade.frag").module.words.withUnsafeBytes { Data($0) } == color)
        #expect(try alpha.makeFunction(name: "shade").module.words.withUnsafeBytes { Data($0) } == color)
        #expect(try alpha.makeFunction(name: "only").name == "only.frag")
        let beta = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Beta")
        #expect(try beta.makeFunction(name: "shade.frag").module.words.withUnsafeBytes { Data($0) } == other)
        // An executable with no bundle of its own gets an error naming both, not one of them.
        let gamma = try gpu.device.makeDefaultLibrary(in: main.path, executable: "Gamma")
        let both = [main.path + "/Pkg_Alpha.resources", main.path + "/Pkg_Beta.resources"]
        #expect(throws: LibraryError.functionInSeveralBundles(name: "shade.frag", bundles: both)) {
            try gamma.makeFunction(name: "shade")
        }
        #expect("\(LibraryError.functionInSeveralBundles(name: "shade.frag", bundles: both))".contains(
            "none of them the executable's own; load the one meant with makeLibrary(filePath:)"))
        #expect(try gamma.makeFunction(name: "only.frag").name == "only.frag")
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
