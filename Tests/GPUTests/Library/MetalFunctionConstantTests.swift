import GPUTestSupport
import Testing
@testable import GPU

/// Metal's `[[function_constant(n)]]` compiled at run time: specialization constant n, set by
/// `makeFunction(name:constantValues:)` as GLSL's `layout(constant_id = n)` is.
@Suite("Run-time Metal Shading Language function constants", .validated)
struct MetalFunctionConstantTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        constant bool doubled [[function_constant(0)]];
        constant int offset [[function_constant(3)]];
        constant float scale [[function_constant(7)]];
        constant bool halved = !doubled;
        static float adjust(float value) { return halved ? value * 0.5 : value * 2.0; }
        kernel void apply(device const float* input [[buffer(0)]], device float* output [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
            output[i] = adjust(input[i]) * scale + float(offset);
        }
        """

    @Test("function constants reflect under their names and indices, and two sets of values give two results")
    func values() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        #expect(try library.makeFunction(name: "apply").functionConstantsDictionary == [
            "doubled": FunctionConstant(name: "doubled", type: .bool, index: 0, required: false),
            "offset": FunctionConstant(name: "offset", type: .int, index: 3, required: false),
            "scale": FunctionConstant(name: "scale", type: .float, index: 7, required: false),
        ])
        let input: [Float] = [1, 2, 3, 4]
        func run(doubled: Bool, offset: Int32, scale: Float) throws -> [Float] {
            let values = FunctionConstantValues()
            var doubled = doubled, offset = offset, scale = scale
            values.setConstantValue(&doubled, type: .bool, index: 0)
            values.setConstantValue(&offset, type: .int, withName: "offset")
            values.setConstantValue(&scale, type: .float, index: 7)
            let function = try library.makeFunction(name: "apply", constantValues: values)
            let pipeline = try gpu.device.makeComputePipelineState(function: function)
            let output = try gpu.buffer([Float](repeating: 0, count: 4))
            try gpu.dispatch(pipeline, buffers: [try gpu.buffer(input), output], groups: 1, width: 4)
            return Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 4), count: 4))
        }
        #expect(try run(doubled: true, offset: 1, scale: 3) == input.map { $0 * 2 * 3 + 1 })
        #expect(try run(doubled: false, offset: -10, scale: 0.25) == input.map { $0 * 0.5 * 0.25 - 10 })
    }

    @Test("a function constant's initializer, type and is_function_constant_defined are refused by name")
    func refusals() throws {
        let gpu = try TestGPU()
        func message(_ declarations: String, _ body: String = "") -> String {
            gpu.metalMessages("#include <metal_stdlib>\nusing namespace metal;\n\(declarations)\n"
                + "kernel void k(device float* out [[buffer(0)]]) {\n\(body)\n}\n")
        }
        #expect(message("constant float3 tint [[function_constant(1)]];", "out[0] = tint.x;")
            == "program_source:3:17: error: unsupported: function constants of type 'float3' (bool, int, uint, float and half are)")
        #expect(message("constant int n [[function_constant(1)]] = 4;", "out[0] = float(n);")
            == "program_source:3:14: error: a function constant takes its value from the pipeline, not an initializer")
        #expect(message("constant bool b [[function_constant(1)]];", "out[0] = is_function_constant_defined(b) ? 1.0 : 0.0;")
            == "program_source:5:10: error: unsupported: is_function_constant_defined (a specialization constant always has a value, zero where the app sets none)")
        #expect(message("constant bool b [[function_constant(65536)]];", "out[0] = b ? 1.0 : 0.0;")
            == "program_source:3:37: error: function_constant index 65536 is outside 0...65535")
    }

    @Test("a member passed between stages under [[function_constant]] is there when the constant is true, unread when false")
    func conditionalMember() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            constant bool tinted [[function_constant(0)]];
            struct Out { float4 position [[position]]; float4 tint [[function_constant(tinted)]]; };
            vertex Out cover(uint id [[vertex_id]]) {
                Out out;
                float2 p = float2((id << 1) & 2, id & 2);
                out.position = float4(p * 2 - 1, 0, 1);
                if (tinted) { out.tint = float4(0, 0, 1, 0.25); }
                return out;
            }
            fragment float4 paint(Out in [[stage_in]]) { return tinted ? float4(float3(in.tint), 1) : float4(1, 0, 0, 1); }
            """
        let library = try gpu.device.makeLibrary(source: source, options: nil)
        func render(tinted: Bool) throws -> [UInt8] {
            let values = FunctionConstantValues()
            var tinted = tinted
            values.setConstantValue(&tinted, type: .bool, index: 0)
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try library.makeFunction(name: "cover", constantValues: values)
            descriptor.fragmentFunction = try library.makeFunction(name: "paint", constantValues: values)
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
            let target = try gpu.renderTarget(width: 4, height: 4)
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            encoder.setRenderPipelineState(pipeline)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            encoder.endEncoding()
            commandBuffer.commit()
            commandBuffer.waitUntilCompleted()
            #expect(commandBuffer.status == .completed)
            return try gpu.pixels(of: target)
        }
        // float3 of the float4 tint keeps its first three components, as Metal's does.
        #expect(try render(tinted: true) == Array(repeating: [UInt8(0), 0, 255, 255], count: 16).flatMap { $0 })
        #expect(try render(tinted: false) == Array(repeating: [UInt8(255), 0, 0, 255], count: 16).flatMap { $0 })
    }
}
