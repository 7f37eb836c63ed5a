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
}
