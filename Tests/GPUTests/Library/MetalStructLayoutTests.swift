import GPUTestSupport
import Testing
@testable import GPU

/// Structs in buffers at Metal's offsets: an array of structs whose `float3` is followed by
/// a scalar, which GLSL's `vec3` would pack into the `float3`'s fourth component.
@Suite("Run-time Metal Shading Language struct layouts", .validated)
struct MetalStructLayoutTests {
    @Test("an array of structs with a float3 before a uint and a float is read at Metal's offsets and sizes")
    func float3BeforeScalars() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Light { float3 direction; uint type; float3 color; float power; };
            kernel void shade(constant Light* lights [[buffer(0)]], device float* out [[buffer(1)]],
                              uint i [[thread_position_in_grid]]) {
                Light light = lights[i];
                out[i * 3] = float(light.type) + light.direction.z;
                out[i * 3 + 1] = lights[i].power * light.color.y;
                Light copy = { light.direction, light.type + 1, light.color, 0.5 };
                out[i * 3 + 2] = float(copy.type) + copy.power;
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "shade"))
        // Metal's layout: direction at 0 (16 bytes), type at 16, color at 32, power at 48; 64 bytes a light.
        var bytes = [UInt8](repeating: 0, count: 64 * 4)
        func put<T>(_ value: T, at offset: Int) { withUnsafeBytes(of: value) { bytes.replaceSubrange(offset..<(offset + $0.count), with: $0) } }
        for light in 0..<4 {
            let base = light * 64
            put(Float(light) * 10, at: base + 8)        // direction.z
            put(Float(99), at: base + 12)                // the float3's padding, never read
            put(UInt32(light + 1), at: base + 16)        // type
            put(Float(light) + 2, at: base + 36)        // color.y
            put(Float(3), at: base + 48)                 // power
        }
        let output = try gpu.buffer([Float](repeating: -1, count: 12))
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(bytes), output], groups: 1, width: 4)
        let values = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 12), count: 12))
        var expected: [Float] = []
        for light in 0..<4 {
            let index = Float(light)
            expected += [index + 1 + index * 10, 3 * (index + 2), index + 2 + 0.5]
        }
        #expect(values == expected)
    }

    @Test("packed and aligned structs of C headers shared with Swift: members without padding, sizes and strides as Metal's")
    func packedAndAligned() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            typedef struct __attribute__ ((__packed__)) { float4 position; packed_float2 uv; } QuadVertex;
            typedef struct __attribute__((aligned(32))) { float4 color; } Padded;
            struct alignas(16) Small { float a; };
            kernel void k(device const QuadVertex* quads [[buffer(0)]], device const Padded* padded [[buffer(1)]],
                          device const Small* smalls [[buffer(2)]], device float* out [[buffer(3)]], uint i [[thread_position_in_grid]]) {
                out[i * 4] = quads[i].position.w;
                out[i * 4 + 1] = quads[i].uv.y;
                out[i * 4 + 2] = padded[i].color.z;
                out[i * 4 + 3] = smalls[i].a;
                if (i == 0) { out[12] = sizeof(QuadVertex); out[13] = sizeof(Padded); out[14] = sizeof(Small); }
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(function: try gpu.device.makeLibrary(source: source, options: nil)
            .makeFunction(name: "k"))
        // Metal's bytes: a packed QuadVertex is 24 bytes (no padding after its float2), a Padded
        // 32 (its float4, then 16 to its alignment), a Small 16.
        let quads = (0..<3).flatMap { i -> [Float] in let f = Float(i); return [f, f, f, 10 + f, 20 + f, 30 + f] }
        let padded = (0..<3).flatMap { i -> [Float] in let f = Float(i); return [0, 0, 40 + f, 0, -1, -1, -1, -1] }
        let smalls = (0..<3).flatMap { i -> [Float] in [50 + Float(i), -1, -1, -1] }
        let out = try MetalSourceLibraryTests().dispatch(gpu, pipeline, inputs: [quads, padded, smalls], count: 15)
        #expect(Array(out[0..<12]) == (0..<3).flatMap { i -> [Float] in let f = Float(i); return [10 + f, 30 + f, 40 + f, 50 + f] })
        #expect(Array(out[12...]) == [24, 32, 16])
    }

    @Test("an attribute on a struct other than packed and aligned is refused by name")
    func otherAttributes() {
        let gpu = try? TestGPU()
        #expect(gpu?.metalMessages(usingMetal: "typedef struct __attribute__((visibility(\"default\"))) { float x; } P;\n"
            + "kernel void k(device float* o [[buffer(0)]]) { o[0] = 1; }")
            == "program_source:3:31: error: unsupported: __attribute__((visibility)) on a struct")
        #expect(gpu?.metalMessages(usingMetal: "struct __attribute__((aligned(3))) P { float x; };\n"
            + "kernel void k(device P* o [[buffer(0)]]) { o[0].x = 1; }")
            == "program_source:3:31: error: requested alignment 3 is not a power of 2 in 1...4096")
    }
}
