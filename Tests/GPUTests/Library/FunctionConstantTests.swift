import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Metal's function constants as Vulkan specialization constants: GLSL's
/// `layout(constant_id = N)` is index N.
@Suite("Function constants", .validated)
struct FunctionConstantTests {
    /// A kernel that writes its constants (and a uniform block's value, fed by `setBytes`,
    /// which the push-constant twin reads) as floats.
    static let kernel = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x = 1) in;
        layout(constant_id = 0) const bool flag = false;
        layout(constant_id = 1) const int offset = 7;
        layout(constant_id = 2) const uint scale = 3u;
        layout(constant_id = 5) const float factor = 0.5;
        layout(binding = 1) uniform Extra { float extra; };
        layout(std430, binding = 0) writeonly buffer Out { float result[5]; };
        void main() {
            result[0] = flag ? 1.0 : 0.0;
            result[1] = float(offset);
            result[2] = float(scale);
            result[3] = factor;
            result[4] = extra;
        }
        """

    /// A kernel whose local size comes from constant 3, with a constant of its own at 4.
    static let sizedKernel = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x_id = 3) in;
        layout(constant_id = 4) const uint bias = 1u;
        layout(std430, binding = 0) buffer Out { uint result[]; };
        void main() { result[gl_GlobalInvocationID.x] = gl_LocalInvocationID.x + bias; }
        """

    /// Runs `functions`' pipelines, one dispatch each, in one command buffer; returns each
    /// one's five results.
    static func run(_ gpu: TestGPU, _ functions: [Function]) throws -> [[Float]] {
        let outputs = try functions.map { _ in try gpu.device.makeBuffer(length: 5 * 4) }
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        var extra: Float = 42
        for (function, output) in zip(functions, outputs) {
            encoder.setComputePipelineState(try gpu.device.makeComputePipelineState(function: function))
            encoder.setBuffer(output, offset: 0, index: 0)
            encoder.setBytes(&extra, length: 4, index: 1)
            encoder.dispatchThreadgroups(Size(width: 1, height: 1, depth: 1),
                                         threadsPerThreadgroup: Size(width: 1, height: 1, depth: 1))
        }
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        return outputs.map { Array(UnsafeBufferPointer(start: $0.contents().assumingMemoryBound(to: Float.self), count: 5)) }
    }

    @Test("functionConstantsDictionary reflects each constant's name, type and index; none is required")
    func reflection() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.kernel)
        let constants = try library.makeFunction(name: library.functionNames[0]).functionConstantsDictionary
        #expect(constants == [
            "flag": FunctionConstant(name: "flag", type: .bool, index: 0, required: false),
            "offset": FunctionConstant(name: "offset", type: .int, index: 1, required: false),
            "scale": FunctionConstant(name: "scale", type: .uint, index: 2, required: false),
            "factor": FunctionConstant(name: "factor", type: .float, index: 5, required: false),
        ])
        // A compute function's local-size constants are the dispatch's, not the app's.
        let sized = try gpu.device.makeLibrary(source: Self.sizedKernel)
        #expect(try sized.makeFunction(name: sized.functionNames[0]).functionConstantsDictionary
            == ["bias": FunctionConstant(name: "bias", type: .uint, index: 4, required: false)])
    }

    @Test("a module stripped of names (glslc -O) lists its constants under their index, and takes values by index")
    func unnamedConstants() throws {
        let gpu = try TestGPU()
        let source = Self.kernel.replacingOccurrences(of: "#pragma shader_stage(compute)\n", with: "")
        let library = try gpu.device.makeLibrary(spirv: try GLSLC.compile(source, stage: "comp", options: ["-O"]))
        let function = try library.makeFunction(name: "main")
        #expect(function.functionConstantsDictionary["2"] == FunctionConstant(name: "2", type: .uint, index: 2, required: false))
        #expect(function.functionConstantsDictionary.count == 4)
        let values = FunctionConstantValues()
        var scale: UInt32 = 21
        values.setConstantValue(&scale, type: .uint, index: 2)
        #expect(try Self.run(gpu, [try library.makeFunction(name: "main", constantValues: values)])[0] == [0, 7, 21, 0.5, 42])
    }

    @Test("values set by index, by name and by range specialise the kernel, unset constants keep their defaults, and pipelines of one function with different values differ",
          arguments: [true, false])
    func computeValues(pushConstants: Bool) throws {
        let gpu = try TestGPU(pushConstants: pushConstants)
        let library = try gpu.device.makeLibrary(source: Self.kernel)
        let name = library.functionNames[0]

        let byIndex = FunctionConstantValues()
        var flag = true, offset: Int32 = -12, factor: Float = 2.25
        byIndex.setConstantValue(&flag, type: .bool, index: 0)
        byIndex.setConstantValue(&offset, type: .int, index: 1)
        byIndex.setConstantValue(&factor, type: .float, index: 5)

        let byName = FunctionConstantValues()
        var scale: UInt32 = 11
        byName.setConstantValue(&scale, type: .uint, withName: "scale")
        byName.setConstantValue(&factor, type: .float, withName: "factor")
        byName.setConstantValue(&scale, type: .uint, withName: "noSuchConstant")

        // A range sets consecutive indices from an array of values of one type.
        let byRange = FunctionConstantValues()
        var unsigned: [UInt32] = [8, 9]
        byRange.setConstantValues(&unsigned, type: .uint, range: 1..<3)
        var signed: [Int32] = [5]
        byRange.setConstantValues(&signed, type: .int, range: 1..<2)
        // The index wins over the name.
        var named: Int32 = 99
        byRange.setConstantValue(&named, type: .int, withName: "offset")

        let results = try Self.run(gpu, [
            try library.makeFunction(name: name),
            try library.makeFunction(name: name, constantValues: byIndex),
            try library.makeFunction(name: name, constantValues: byName),
            try library.makeFunction(name: name, constantValues: byRange),
            try library.makeFunction(name: name, constantValues: FunctionConstantValues()),
        ])
        #expect(results[0] == [0, 7, 3, 0.5, 42])
        #expect(results[1] == [1, -12, 3, 2.25, 42])
        #expect(results[2] == [0, 7, 11, 2.25, 42])
        #expect(results[3] == [0, 5, 9, 0.5, 42])
        #expect(results[4] == results[0])

        byIndex.reset()
        #expect(try Self.run(gpu, [try library.makeFunction(name: name, constantValues: byIndex)])[0] == results[0])
    }

    @Test("a kernel's constants hold in every local-size variant of its pipeline, each made once and kept")
    func constantsWithLocalSize() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.sizedKernel)
        let values = FunctionConstantValues()
        var bias: UInt32 = 1000
        values.setConstantValue(&bias, type: .uint, index: 4)
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try library.makeFunction(name: library.functionNames[0], constantValues: values))
        let output = try gpu.device.makeBuffer(length: 8 * 4)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(output, offset: 0, index: 0)
        encoder.dispatchThreads(Size(width: 8, height: 1, depth: 1), threadsPerThreadgroup: Size(width: 4, height: 1, depth: 1))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        let results = Array(UnsafeBufferPointer(start: output.contents().assumingMemoryBound(to: UInt32.self), count: 8))
        #expect(results == [1000, 1001, 1002, 1003, 1000, 1001, 1002, 1003])
        #expect(try pipeline.variant(for: Size(width: 4, height: 1, depth: 1))
            === pipeline.variant(for: Size(width: 4, height: 1, depth: 1)))

        let sizing = FunctionConstantValues()
        sizing.setConstantValue(&bias, type: .uint, index: 3)
        #expect(throws: LibraryError.unsupportedFunction(name: library.functionNames[0], reason:
            "constant index 3 sets its local size, which each dispatch's threadsPerThreadgroup chooses")) {
            try library.makeFunction(name: library.functionNames[0], constantValues: sizing)
        }
    }

    @Test("a value of another type than its constant's throws, naming both")
    func typeMismatch() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.kernel)
        let name = library.functionNames[0]
        let values = FunctionConstantValues()
        var value: Float = 1
        values.setConstantValue(&value, type: .float, withName: "offset")
        #expect(throws: LibraryError.unsupportedFunction(name: name, reason:
            "function constant 'offset' (index 1) is of type int; the value given for it is of type float")) {
            try library.makeFunction(name: name, constantValues: values)
        }
    }

    @Test("vertex and fragment constants specialise a render pipeline's stages")
    func renderStages() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(vertex)
            layout(constant_id = 3) const float shift = 0.0;
            layout(location = 0) in vec2 position;
            void main() { gl_Position = vec4(position.x + shift, position.y, 0, 1); }
            """)
        let fragments = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(fragment)
            layout(constant_id = 0) const float red = 1.0;
            layout(constant_id = 1) const float green = 0.0;
            layout(location = 0) out vec4 color;
            void main() { color = vec4(red, green, 0, 1); }
            """)
        func pipeline(shift: Float?, green: Float?) throws -> RenderPipelineState {
            let vertexValues = FunctionConstantValues(), fragmentValues = FunctionConstantValues()
            if var shift { vertexValues.setConstantValue(&shift, type: .float, withName: "shift") }
            if var green {
                fragmentValues.setConstantValue(&green, type: .float, index: 1)
                var red: Float = 0
                fragmentValues.setConstantValue(&red, type: .float, index: 0)
            }
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try library.makeFunction(name: library.functionNames[0], constantValues: vertexValues)
            descriptor.fragmentFunction = try fragments.makeFunction(name: fragments.functionNames[0],
                                                                     constantValues: fragmentValues)
            let vertices = VertexDescriptor()
            vertices.attributes[0].format = .float2
            vertices.layouts[0].stride = 8
            descriptor.vertexDescriptor = vertices
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        }
        let target = try gpu.renderTarget()
        // The left half of the target.
        let quad: [Float] = [-1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1]
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setVertexBuffer(try gpu.buffer(quad), offset: 0, index: 0)
        encoder.setRenderPipelineState(try pipeline(shift: nil, green: nil))
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        encoder.setRenderPipelineState(try pipeline(shift: 1, green: 1))
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        let pixels = try gpu.pixels(of: target)
        #expect(texel(pixels, width: 64, x: 10, y: 32) == [255, 0, 0, 255])
        #expect(texel(pixels, width: 64, x: 50, y: 32) == [0, 255, 0, 255])
    }

    @Test("misuse: a negative constant index or range")
    func negativeIndex() async {
        let index = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var value: Int32 = 1
            FunctionConstantValues().setConstantValue(&value, type: .int, index: -1)
        }
        #expect(stderr(index).contains("SwiftGPU API misuse: setConstantValue(_:type:index:): index -1 is outside 0...4294967295"))
        let range = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var values: [Int32] = [1, 2]
            FunctionConstantValues().setConstantValues(&values, type: .int, range: -1..<1)
        }
        #expect(stderr(range).contains("SwiftGPU API misuse: setConstantValues(_:type:range:): range -1..<1 is outside"))
    }
}
