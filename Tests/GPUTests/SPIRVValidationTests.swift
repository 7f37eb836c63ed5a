import Foundation
import Shaders
import SwiftGPUSPIRV
import Testing

/// The push-constant rewrite's output for every shader in the repository passes the
/// Khronos SPIR-V validator (`spirv-val`, Debian's spirv-tools), as the originals do.
@Suite("SPIR-V validity of the push-constant rewrite")
struct SPIRVValidationTests {
    /// `spirv-val --target-env vulkan1.3` on `words`: nil when valid, else its message.
    static func validate(_ words: [UInt32], name: String) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("swiftgpu-\(UUID().uuidString)-\(name).spv")
        defer { try? FileManager.default.removeItem(at: file) }
        try words.withUnsafeBytes { try Data($0).write(to: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/spirv-val")
        process.arguments = ["--target-env", "vulkan1.3", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let message = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : message
    }

    @Test("every bundled shader, and each of its uniform blocks moved to push constants (alone and all together), validates")
    func rewrittenShadersValidate() throws {
        let urls = try #require(Shaders.bundle.urls(forResourcesWithExtension: "spv", subdirectory: nil)).map { $0 as URL }
        #expect(urls.count >= 10, "the repository's shaders")
        var rewritten = 0
        for url in urls.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let name = url.deletingPathExtension().lastPathComponent
            let module = try SPIRVModule(bytes: try Data(contentsOf: url))
            #expect(try Self.validate(module.words, name: name) == nil, "\(name) as compiled")
            var all = module.words
            var offset: UInt32 = 0
            for binding in module.uniformBlockSizes.keys.sorted() {
                guard let alone = SPIRVModule.movingUniformBlock(in: module.words, atBinding: binding, toPushConstantOffset: 0)
                else { continue }
                rewritten += 1
                let failure = try Self.validate(alone, name: "\(name)-\(binding)")
                #expect(failure == nil, "\(name), binding \(binding) moved: \(failure ?? "")")
                if let moved = SPIRVModule.movingUniformBlock(in: all, atBinding: binding, toPushConstantOffset: offset) {
                    all = moved
                    offset += UInt32((module.uniformBlockSizes[binding]! + 15) & ~15)
                }
            }
            let failure = try Self.validate(all, name: "\(name)-all")
            #expect(failure == nil, "\(name), every block moved: \(failure ?? "")")
        }
        // The validator really runs: a truncated module fails.
        let first = try SPIRVModule(bytes: try Data(contentsOf: urls[0]))
        #expect(try Self.validate(Array(first.words.prefix(first.words.count / 2)), name: "truncated") != nil)
        print("spirv-val: \(urls.count) shaders and \(rewritten) single-block rewrites valid")
        #expect(rewritten >= 5, "the rewrite ran on the shaders that have uniform blocks")
    }
}
