import GPUTestSupport
import SwiftGPUSPIRV
import SwiftGPUSupport
import Dispatch
import Foundation
import Shaders
import Testing
@testable import GPU

/// Every shader of the package, mutated a few hundred ways (seeded, so a failure repeats),
/// goes through `makeLibrary(spirv:)` and pipeline creation with the validation layer on:
/// each mutant either throws or makes a working pipeline — no crash, no hang, no validation
/// message. Each shader's mutants run in a child process, so a crash fails only its test and
/// names the mutant.
@Suite("Mutated shaders throw or work")
struct ShaderMutationTests {
    /// Mutants per shader.
    static let mutantsPerShader = 200

    /// The package's compiled shaders, by function name.
    static let shaders: [String] = {
        let urls = Shaders.bundle.paths(forResourcesOfType: "spv", inDirectory: nil)
        return urls.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }.sorted()
    }()

    /// What the child found: mutants that threw, and mutants whose pipeline was made.
    struct Tally: Codable, Sendable {
        var threw = 0
        var worked = 0
    }

    @Test("each mutant of a shader throws or makes a pipeline", arguments: shaders)
    func mutants(of shader: String) async throws {
        // The child names each mutant in this file before it tries it: a child that crashes
        // leaves no output to the test, but the file names the mutant it died on.
        let progress: String = FileManager.default.temporaryDirectory.appendingPathComponent("mutants-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: progress) }
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            [shader, progress = progress as String] in
            try Self.runMutants(of: shader, progress: progress)
        }
        guard let result else {
            let last = (try? String(contentsOfFile: progress, encoding: .utf8)) ?? "before its first mutant"
            Issue.record("the child trying the mutants of \(shader) failed at \(last)")
            return
        }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("tally ") }, "\(stderr(result))")
        let tally = try JSONDecoder().decode(Tally.self, from: Data(line.dropFirst("tally ".count).utf8))
        #expect(tally.threw + tally.worked == Self.mutantsPerShader)
        // The mutations reach past the validator: some mutants still make pipelines.
        #expect(tally.threw > 0)
        print("mutants of \(shader): \(tally.threw) threw, \(tally.worked) made a pipeline")
    }

    /// Runs in the child: every mutant of `shader`, then the tally on standard output.
    /// Before each mutant its seed is written to the file at `progress`. A mutant that takes
    /// over 60 s stops the child with its seed.
    static func runMutants(of shader: String, progress progressFile: String) throws {
        let gpu = try TestGPU()
        let url = Shaders.bundle.url(forResource: shader, withExtension: "spv")!
        let original = try Data(contentsOf: url).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        let progress = DispatchSemaphore(value: 0)
        let current = Locked(0)
        Thread.detachNewThread {
            while true {
                if progress.wait(timeout: .now() + 60) == .timedOut {
                    FileHandle.standardError.write(Data("mutant \(current.current) of \(shader) hangs\n".utf8))
                    abort()
                }
            }
        }
        var tally = Tally()
        for seed in 0..<mutantsPerShader {
            current.withLock { $0 = seed }
            var random = SplitMix64(state: UInt64(seed) &* 0x9E37_79B9 &+ shader.hashValueStable)
            let mutant = ShaderMutator.mutate(original, using: &random)
            try Data("mutant \(seed)".utf8).write(to: URL(fileURLWithPath: progressFile))
            if (try? makePipelines(gpu: gpu, words: mutant)) != nil { tally.worked += 1 } else { tally.threw += 1 }
            progress.signal()
        }
        let messages = Validation.messages
        guard messages.isEmpty else {
            FileHandle.standardError.write(Data("validation messages: \(messages)\n".utf8))
            exit(1)
        }
        print("tally " + String(decoding: try JSONEncoder().encode(tally), as: UTF8.self))
    }

    /// Makes a library of `words` and a pipeline of each of its functions: a compute
    /// pipeline, or a render pipeline with the package's shader of the other stage.
    static func makePipelines(gpu: TestGPU, words: [UInt32]) throws {
        let library = try gpu.device.makeLibrary(spirv: words.withUnsafeBytes { Data($0) })
        for name in library.functionNames {
            let function = try library.makeFunction(name: name)
            switch function.stage {
            case .compute: _ = try gpu.device.makeComputePipelineState(function: function)
            case .vertex, .fragment:
                let descriptor = RenderPipelineDescriptor()
                descriptor.vertexFunction = function.stage == .vertex ? function : try partner(of: function, in: gpu.library)
                descriptor.fragmentFunction = function.stage == .fragment ? function : nil
                descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
                descriptor.colorAttachments[1].pixelFormat = .rgba8Unorm
                descriptor.vertexDescriptor = vertexDescriptor(for: descriptor.vertexFunction!)
                _ = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
            }
        }
    }

    /// A package vertex function that writes every input `fragment` reads (so that a
    /// mutant's pipeline fails only for what the mutation did), or `fullscreen.vert`.
    static func partner(of fragment: Function, in library: Library) throws -> Function {
        for name in library.functionNames where name.hasSuffix(".vert") {
            let vertex = try library.makeFunction(name: name)
            if fragment.entryPoint.inputs.allSatisfy({ input in
                vertex.entryPoint.outputs.contains { $0.location == input.location && $0.componentType == input.componentType
                    && $0.componentCount >= input.componentCount }
            }) { return vertex }
        }
        return try library.makeFunction(name: "fullscreen.vert")
    }

    /// A vertex descriptor that feeds every input of `function` from buffer 0.
    static func vertexDescriptor(for function: Function) -> VertexDescriptor {
        let descriptor = VertexDescriptor()
        var offset = 0
        for input in function.entryPoint.inputs where input.location < 16 {
            let format: VertexFormat = switch (input.componentType, input.componentCount) {
            case (.int32, _): .int
            case (.uint32, _): .uint
            case (_, 1): .float
            case (_, 2): .float2
            case (_, 3): .float3
            default: .float4
            }
            descriptor.attributes[Int(input.location)].format = format
            descriptor.attributes[Int(input.location)].offset = offset
            offset += format.size
        }
        descriptor.layouts[0].stride = max(offset, 4)
        return descriptor
    }
}

extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is seeded per run).
    var hashValueStable: UInt64 {
        utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
