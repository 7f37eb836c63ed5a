import Foundation
import GPUTestSupport
import SwiftGPUSPIRV
import Testing
@testable import GPU

/// GLSL compiled at run time with glslang, as Metal's `makeLibrary(source:options:)`.
@Suite("Run-time GLSL compilation", .validated)
struct SourceLibraryTests {
    static let scaleAdd = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x = 64) in;
        layout(std430, binding = 0) readonly buffer A { float a[]; };
        layout(std430, binding = 1) buffer Result { float result[]; };
        layout(std140, binding = 2) uniform Params { uint count; };
        void main() {
            uint i = gl_GlobalInvocationID.x;
            if (i < count) { result[i] = a[i] * SCALE + OFFSET; }
        }
        """

    /// Runs `pipeline` over `count` floats 0, 1, 2, … and returns its output.
    func run(_ pipeline: ComputePipelineState, gpu: TestGPU, count: Int) throws -> [Float] {
        let input = try gpu.buffer((0..<count).map(Float.init))
        let output = try gpu.device.makeBuffer(length: count * 4)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(input, offset: 0, index: 0)
        encoder.setBuffer(output, offset: 0, index: 1)
        var n = UInt32(count)
        encoder.setBytes(&n, length: 4, index: 2)
        encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: 64))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        return Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: count), count: count))
    }

    @Test("a compute kernel with macros from the options runs with the binding convention of the plugin's shaders")
    func computeWithMacros() throws {
        let gpu = try TestGPU()
        let options = CompileOptions()
        options.preprocessorMacros = ["SCALE": "3.0", "OFFSET": "0.5"]
        options.functionName = "scale_add"
        let library = try gpu.device.makeLibrary(source: Self.scaleAdd, options: options)
        #expect(library.functionNames == ["scale_add"])
        let function = try library.makeFunction(name: "scale_add")
        #expect(function.functionType == .kernel)
        let output = try run(try gpu.device.makeComputePipelineState(function: function), gpu: gpu, count: 1000)
        #expect(output == (0..<1000).map { Float($0) * 3 + 0.5 })
    }

    @Test("vertex and fragment functions from source, the stage given by the options, draw a triangle")
    func renderFromSource() throws {
        let gpu = try TestGPU()
        let vertex = """
            #version 450
            void main() {
                vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
                gl_Position = vec4(corners[gl_VertexIndex], 0.0, 1.0);
            }
            """
        let fragment = """
            #version 450
            #pragma shader_stage(fragment)
            layout(location = 0) out vec4 color;
            layout(std140, binding = 64) uniform Tint { vec4 tint; };
            void main() { color = tint; }
            """
        let vertexOptions = CompileOptions()
        vertexOptions.functionType = .vertex
        vertexOptions.functionName = "fullscreen"
        let vertexFunction = try gpu.device.makeLibrary(source: vertex, options: vertexOptions).makeFunction(name: "fullscreen")
        let fragmentFunction = try gpu.device.makeLibrary(source: fragment).makeFunction(name: "main")
        #expect(vertexFunction.functionType == .vertex && fragmentFunction.functionType == .fragment)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = vertexFunction
        descriptor.fragmentFunction = fragmentFunction
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        let target = try gpu.renderTarget(width: 8, height: 8)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(pipeline)
        var tint: [Float] = [0, 1, 0, 1]
        encoder.setFragmentBytes(&tint, length: 16, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        let pixels = try gpu.pixels(of: target)
        #expect(texel(pixels, width: 8, x: 0, y: 0) == [0, 255, 0, 255])
        #expect(texel(pixels, width: 8, x: 7, y: 7) == [0, 255, 0, 255])
    }

    @Test("the async and completion-handler forms compile off the calling thread")
    func asyncForms() async throws {
        let gpu = try TestGPU()
        let options = CompileOptions()
        options.preprocessorMacros = ["SCALE": "2.0", "OFFSET": "1.0"]
        let library = try await gpu.device.makeLibrary(source: Self.scaleAdd, options: options)
        let output = try run(try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "main")),
                             gpu: gpu, count: 64)
        #expect(output == (0..<64).map { Float($0) * 2 + 1 })

        let failure: LibraryError? = await withCheckedContinuation { continuation in
            gpu.device.makeLibrary(source: Self.scaleAdd, options: nil) { library, error in
                #expect(library == nil)
                continuation.resume(returning: error)
            }
        }
        // No macros: SCALE is undeclared on line 9 of the source.
        guard case .compilationFailed(_, let messages)? = failure else {
            Issue.record("expected compilationFailed, got \(String(describing: failure))")
            return
        }
        #expect(messages.contains { $0.hasPrefix("line 9:") && $0.contains("SCALE") }, "\(messages)")
    }

    /// The messages of the compile of `source`, which must fail.
    func messages(_ source: String, options: CompileOptions? = nil) throws -> [String] {
        let gpu = try TestGPU()
        do {
            _ = try gpu.device.makeLibrary(source: source, options: options)
        } catch .compilationFailed(_, let messages) {
            return messages
        }
        Issue.record("the source compiled")
        return []
    }

    @Test("#include reads headers only from the include folders: nested headers compile with their own line numbers; escapes, FIFOs, missing headers, deep nesting and includes with no folder are refused")
    func includes() throws {
        let gpu = try TestGPU()
        let folder = try TemporaryFolder("swiftgpu-include")
        let outside = try TemporaryFolder("swiftgpu-outside")
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: true)
        try folder.write(Array("#define SCALE 2.0\n#include \"sub/offset.glsl\"\n".utf8), to: "scale.glsl")
        try folder.write(Array("#define OFFSET 1.0\n".utf8), to: "sub/offset.glsl")
        try folder.write(Array("\n\nfloat broken = ;\n".utf8), to: "broken.glsl")
        try folder.write(Array("#include \"loop.glsl\"\n".utf8), to: "loop.glsl")
        try outside.write(Array("#define SCALE 9.0\n".utf8), to: "secret.glsl")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.glsl", withDestinationPath: outside.path + "/secret.glsl")
        #expect(mkfifo(folder.path + "/pipe.glsl", 0o600) == 0)

        let options = CompileOptions()
        options.includeFolders = [folder.path]
        options.functionName = "scale_add"
        let kernel = Self.scaleAdd.replacingOccurrences(of: "layout(local_size_x = 64) in;",
                                                      with: "#include \"scale.glsl\"\nlayout(local_size_x = 64) in;")
        let function = try gpu.device.makeLibrary(source: kernel, options: options).makeFunction(name: "scale_add")
        let output = try run(try gpu.device.makeComputePipelineState(function: function), gpu: gpu, count: 100)
        #expect(output == (0..<100).map { Float($0) * 2 + 1 })

        // An error after an include keeps the source's line; one in a header names the header's.
        let after = "#version 450\n#pragma shader_stage(compute)\n#include \"scale.glsl\"\nlayout(local_size_x = 1) in;\nvoid main() { float x = y; }\n"
        #expect(try messages(after, options: options).contains { $0.hasPrefix("line 5:") && $0.contains("'y'") })
        let inHeader = "#version 450\n#pragma shader_stage(compute)\n#include \"broken.glsl\"\nlayout(local_size_x = 1) in;\nvoid main() {}\n"
        #expect(try messages(inHeader, options: options).contains { $0.hasPrefix("line 3:") })

        let cases: [(String, String)] = [
            ("../swiftgpu-outside/secret.glsl", "may not be absolute or climb out of the include folders"),
            ("/dev/zero", "may not be absolute or climb out of the include folders"),
            ("link.glsl", "resolves outside the include folders"),
            ("pipe.glsl", "a FIFO, not a regular file"),
            ("missing.glsl", "in none of the include folders"),
            ("loop.glsl", "nests deeper than 16 headers"),
        ]
        for (name, reason) in cases {
            let source = "#version 450\n#pragma shader_stage(compute)\n#include \"\(name)\"\nvoid main() {}\n"
            let found = try messages(source, options: options)
            #expect(found.count == 1 && found[0].contains(reason), "\(name): \(found)")
        }
        // With no include folder, any include is refused: it is never read as empty.
        let none = try messages("#version 450\n#pragma shader_stage(compute)\n#include \"../../../../dev/zero\"\nvoid main() {}\n")
        #expect(none == ["the source, line 3: #include \"../../../../dev/zero\": run-time GLSL reads headers only from "
            + "CompileOptions.includeFolders, and it names none"])
    }

    /// Runs one threadgroup of `threads` of `pipeline` with a new buffer of `outputBytes` at
    /// index 0, and returns the buffer.
    static func runOneGroup(_ pipeline: ComputePipelineState, threads: Int, outputBytes: Int, on gpu: TestGPU) throws -> Buffer {
        let output = try gpu.device.makeBuffer(length: outputBytes)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(output, offset: 0, index: 0)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: threads))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        return output
    }

    @Test("threadgroup (shared) memory is reflected and checked against the device's limit before the driver sees the pipeline")
    func threadgroupMemory() throws {
        let gpu = try TestGPU()
        func kernel(floats: Int) -> String {
            """
            #version 450
            #pragma shader_stage(compute)
            layout(local_size_x = 64) in;
            layout(std430, binding = 0) buffer Out { float o[]; };
            shared float data[\(floats)];
            shared vec4 extra[2];
            void main() {
                data[gl_LocalInvocationIndex] = float(gl_LocalInvocationIndex);
                extra[0] = vec4(1.0);
                barrier();
                o[gl_GlobalInvocationID.x] = data[63u - gl_LocalInvocationIndex] + extra[0].x;
            }
            """
        }
        let limit = gpu.device.maxThreadgroupMemoryLength
        #expect(limit >= 16384, "Vulkan's minimum is 16 KiB")
        let fits = try gpu.device.makeComputePipelineState(
            function: gpu.device.makeLibrary(source: kernel(floats: 1024)).makeFunction(name: "main"))
        #expect(fits.staticThreadgroupMemoryLength == 1024 * 4 + 2 * 16)
        let output = try Self.runOneGroup(fits, threads: 64, outputBytes: 64 * 4, on: gpu)
        let values = UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 64), count: 64)
        #expect(Array(values) == (0..<64).map { Float(63 - $0) + 1 })

        for floats in [limit / 4 + 1, 1 << 28] {   // one float over the limit, and 1 GiB
            let function = try gpu.device.makeLibrary(source: kernel(floats: floats)).makeFunction(name: "main")
            let declared = floats * 4 + 32
            #expect(throws: LibraryError.unsupportedModule(name: "main", reason: "it declares \(declared) bytes of threadgroup "
                + "(shared) memory, over this device's maxThreadgroupMemoryLength of \(limit)")) {
                try gpu.device.makeComputePipelineState(function: function)
            }
        }
    }

    @Test("private memory per invocation (globals and locals, every stage) is bounded before the driver sees the pipeline")
    func privateMemory() throws {
        let gpu = try TestGPU()
        let bound = gpu.device.maxPrivateMemoryLength
        #expect(bound == 65_536)
        // A local array of `floats`, a loop counter and a global of 4 floats, all private to
        // each invocation.
        func kernel(floats: Int) -> String {
            """
            #version 450
            #pragma shader_stage(compute)
            layout(local_size_x = 1) in;
            layout(std430, binding = 0) buffer Out { float o[]; };
            vec4 global;
            void main() {
                float local[\(floats)];
                for (int i = 0; i < \(floats); i++) local[i] = float(i);
                global = vec4(local[\(floats - 1)]);
                o[0] = global.x + local[1];
            }
            """
        }
        let small = try gpu.device.makeLibrary(source: kernel(floats: 16)).makeFunction(name: "main")
        #expect(small.entryPoint.privateMemorySize == 16 * 4 + 4 + 16)
        let fits = try gpu.device.makeComputePipelineState(function: small)
        let output = try Self.runOneGroup(fits, threads: 1, outputBytes: 4, on: gpu)
        #expect(output.contents().load(as: Float.self) == 16)

        // Just over the bound, and 64 MiB (whose pipeline lavapipe never finished making).
        for floats in [bound / 4 - 4, 1 << 24] {
            let function = try gpu.device.makeLibrary(source: kernel(floats: floats)).makeFunction(name: "main")
            #expect(throws: LibraryError.unsupportedModule(name: "main", reason: "it declares \(floats * 4 + 20) bytes of private "
                + "(thread) memory per invocation, over SwiftGPU's bound of \(bound) (maxPrivateMemoryLength)")) {
                try gpu.device.makeComputePipelineState(function: function)
            }
        }
        // A render pipeline's functions too.
        let vertex = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(vertex)
            void main() {
                vec4 corners[\(bound / 16 + 1)];
                for (int i = 0; i < corners.length(); i++) corners[i] = vec4(float(i));
                gl_Position = corners[gl_VertexIndex];
            }
            """).makeFunction(name: "main")
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = vertex
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        #expect(throws: LibraryError.unsupportedModule(name: "main", reason: "it declares \(bound + 20) bytes of private "
            + "(thread) memory per invocation, over SwiftGPU's bound of \(bound) (maxPrivateMemoryLength)")) {
            try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        }
    }

    @Test("errors name their line; a missing or unsupported stage and bad macros are refused with a reason")
    func errors() throws {
        let syntax = "#version 450\n#pragma shader_stage(compute)\nlayout(local_size_x = 1) in;\n\nvoid main() {\n  float x = y;\n}\n"
        #expect(try messages(syntax).contains { $0.hasPrefix("line 6:") && $0.contains("'y'") })

        let noStage = try messages("#version 450\nvoid main() {}\n")
        #expect(noStage.first?.contains("#pragma shader_stage") == true)

        let geometry = try messages("#version 450\n#pragma shader_stage(geometry)\nvoid main() {}\n")
        #expect(geometry.first == "line 2: shader stage 'geometry' is not one SwiftGPU runs (vertex, fragment, compute)")

        let conflicting = CompileOptions()
        conflicting.functionType = .vertex
        #expect(try messages(Self.scaleAdd, options: conflicting).first?.contains("differs from CompileOptions.functionType") == true)

        let badMacro = CompileOptions()
        badMacro.preprocessorMacros = ["2X": "1"]
        #expect(try messages(Self.scaleAdd, options: badMacro) == ["preprocessor macro name '2X' is not an identifier"])

        let error = LibraryError.compilationFailed(name: "main", messages: ["line 6: 'y' : undeclared identifier"])
        #expect(error.description == "GLSL for 'main' did not compile:\n  line 6: 'y' : undeclared identifier")
    }

    @Test("every shader in the repository compiles at run time to the plugin's bindings, interface and local size")
    func sameReflectionAsPlugin() throws {
        let gpu = try TestGPU()
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Shaders").standardized
        let stages: [String: FunctionType] = ["vert": .vertex, "frag": .fragment, "comp": .kernel]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { stages[($0 as NSString).pathExtension] != nil }.sorted()
        #expect(files.count >= 14)
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let options = CompileOptions()
            options.functionType = stages[(file as NSString).pathExtension]
            options.functionName = file
            let compiled = try gpu.device.makeLibrary(source: source, options: options).makeFunction(name: file).entryPoint
            let built = try gpu.function(file).entryPoint
            // glslc -O strips names, glslang's run-time compile keeps them (for messages).
            let unnamed = compiled.bindings.map { binding in
                var copy = binding
                copy.name = ""
                return copy
            }
            #expect(unnamed == built.bindings, "\(file)")
            #expect(compiled.inputs == built.inputs && compiled.outputs == built.outputs, "\(file)")
            #expect(compiled.localSize.map { [$0.x, $0.y, $0.z] } == built.localSize.map { [$0.x, $0.y, $0.z] }, "\(file)")
            #expect(compiled.pushConstantSize == built.pushConstantSize, "\(file)")
        }
    }

    @Test("a shader the validator refuses after compiling is refused as any SPIR-V is, before the driver")
    func unsupportedCapability() throws {
        let gpu = try TestGPU()
        // Float64 needs shaderFloat64, which SwiftGPU does not enable.
        let source = "#version 450\n#pragma shader_stage(compute)\nlayout(local_size_x = 1) in;\n"
            + "layout(std430, binding = 0) buffer B { double d[]; };\nvoid main() { d[0] = d[1] * 2.0lf; }\n"
        #expect {
            _ = try gpu.device.makeLibrary(source: source)
        } throws: { error in
            guard case LibraryError.unsupportedModule(_, let reason) = error else { return false }
            return reason.contains("Float64")
        }
    }
}
