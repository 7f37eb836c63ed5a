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

    /// The 4×4 pixels of a triangle covering the target, drawn with `library`'s `cover` and
    /// `paint` specialised with the boolean constants `flags` (by index), after `bind`.
    static func draw(_ gpu: TestGPU, _ library: Library, flags: [Bool],
                     bind: (RenderCommandEncoder) throws -> Void = { _ in }) throws -> [UInt8] {
        let values = FunctionConstantValues()
        for (index, flag) in flags.enumerated() {
            var flag = flag
            values.setConstantValue(&flag, type: .bool, index: index)
        }
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "cover", constantValues: values)
        descriptor.fragmentFunction = try library.makeFunction(name: "paint", constantValues: values)
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        return try MetalSourceLibraryTests().draw(gpu, pipeline, width: 4, height: 4) { encoder in
            try bind(encoder)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
    }

    /// 16 copies of `texel`.
    static func filled(_ texel: [UInt8]) -> [UInt8] { Array(repeating: texel, count: 16).flatMap { $0 } }

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
        #expect(message("constant bool b [[function_constant(2015)]];", "out[0] = b ? 1.0 : 0.0;") == "compiled")
        #expect(message("constant bool b [[function_constant(1)]];", "out[0] = is_function_constant_defined(b) ? 1.0 : 0.0;")
            == "program_source:5:10: error: unsupported: is_function_constant_defined (a specialization constant always has a value, zero where the app sets none)")
        #expect(message("constant bool b [[function_constant(65536)]];", "out[0] = b ? 1.0 : 0.0;")
            == "program_source:3:37: error: function_constant index 65536 is outside 0...65535")
        #expect(message("constant bool b [[function_constant(2016)]];", "out[0] = b ? 1.0 : 0.0;")
            == "program_source:3:37: error: unsupported: function_constant index 2016 (SwiftGPU compiles 0...2015: glslang's "
            + "specialization constant ids end at 2046, and the ids after 2015 hold threadgroup memory lengths)")
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
        // float3 of the float4 tint keeps its first three components, as Metal's does.
        #expect(try Self.draw(gpu, library, flags: [true]) == Self.filled([0, 0, 255, 255]))
        #expect(try Self.draw(gpu, library, flags: [false]) == Self.filled([255, 0, 0, 255]))
    }

    /// A fragment function whose texture and buffer arguments are there only under function
    /// constants 0 and 1; the texture's by implicit index.
    static let conditionalArguments = """
        #include <metal_stdlib>
        using namespace metal;
        constant bool textured [[function_constant(0)]];
        constant bool tinted [[function_constant(1)]];
        vertex float4 cover(uint id [[vertex_id]]) {
            float2 p = float2((id << 1) & 2, id & 2);
            return float4(p * 2 - 1, 0, 1);
        }
        fragment float4 paint(float4 position [[position]], texture2d<float> image [[function_constant(textured)]],
                              constant float4& tint [[buffer(2), function_constant(tinted)]]) {
            float4 color = textured ? image.read(uint2(0)) : float4(1, 0, 0, 1);
            return tinted ? color * tint : color;
        }
        """

    /// The 4×4 pixels `conditionalArguments` paints with `textured` and `tinted`, binding
    /// the texture and buffer only where `binds` says.
    static func paint(_ gpu: TestGPU, textured: Bool, tinted: Bool, binds: Bool) throws -> [UInt8] {
        let library = try gpu.device.makeLibrary(source: conditionalArguments, options: nil)
        return try draw(gpu, library, flags: [textured, tinted]) { encoder in
            guard binds else { return }
            let image = try gpu.renderTarget(width: 1, height: 1, usage: [.shaderRead])
            image.replace(region: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: [UInt8(0), 255, 0, 255],
                          bytesPerRow: 4)
            encoder.setFragmentTexture(image, index: 0)
            var tint: SIMD4<Float> = [1, 1, 1, 0.5]
            encoder.setFragmentBytes(&tint, length: 16, index: 2)
        }
    }

    @Test("arguments under [[function_constant]] need no binding where the constant is false, and are read where it is true")
    func conditionalArgumentsBound() throws {
        let gpu = try TestGPU()
        #expect(gpu.device.backend.nullDescriptors)
        #expect(try Self.paint(gpu, textured: false, tinted: false, binds: false) == Self.filled([255, 0, 0, 255]))
        #expect(try Self.paint(gpu, textured: true, tinted: false, binds: true) == Self.filled([0, 255, 0, 255]))
        let both = try Self.paint(gpu, textured: true, tinted: true, binds: true)
        #expect((0..<16).allSatisfy { texel(texel(both, width: 4, x: $0 % 4, y: $0 / 4), holds: [0, 1, 0, 0.5]) }, "\(both)")
    }

    @Test("an argument under a true function constant with nothing bound stops, naming it")
    func conditionalArgumentUnbound() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try MetalFunctionConstantTests.paint(TestGPU(), textured: true, tinted: false, binds: false)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: drawPrimitives(type:vertexStart:vertexCount:instanceCount:"
            + "baseInstance:): 'cover + paint' uses fragment texture index 0, but no texture is set there"), "\(stderr(result))")
    }

    @Test("an argument's condition must be a function constant of its own index, and only buffers and textures take one")
    func conditionalArgumentRefusals() throws {
        let gpu = try TestGPU()
        let prefix = "#include <metal_stdlib>\nusing namespace metal;\nconstant bool a [[function_constant(0)]];\n"
            + "constant bool b = !a;\n"
        #expect(gpu.metalMessages(prefix + "fragment float4 f(texture2d<float> t [[texture(0), function_constant(b)]]) "
            + "{ return b ? t.read(uint2(0)) : 0; }\n")
            == "program_source:5:52: error: unsupported: a texture argument present under 'b', a constant computed from others "
            + "(an argument's condition must be a function constant with its own index)")
        #expect(gpu.metalMessages(prefix + "fragment float4 f(sampler s [[sampler(0), function_constant(a)]]) { return 0; }\n")
            == "program_source:5:27: error: unsupported: the attribute [[function_constant]] on a fragment function's [[sampler]] argument")
    }

    @Test("a texture argument the function asks is_null_texture of may be left unbound, and then is null")
    func nullTexture() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: """
            \(TestGPU.coveringVertexMSL)
            fragment float4 paint(texture2d<float> image [[texture(3)]]) {
                return is_null_texture(image) ? float4(1, 0, 0, 1) : image.read(uint2(0));
            }
            """, options: nil)
        #expect(try Self.draw(gpu, library, flags: []) == Self.filled([255, 0, 0, 255]))
        let image = try gpu.renderTarget(width: 1, height: 1, usage: [.shaderRead])
        image.replace(region: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: [UInt8(0), 0, 255, 255], bytesPerRow: 4)
        #expect(try Self.draw(gpu, library, flags: []) { $0.setFragmentTexture(image, index: 3) } == Self.filled([0, 0, 255, 255]))
    }
}
