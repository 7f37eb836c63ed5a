import GPUTestSupport
import Testing
@testable import GPU

/// Metal's comparison samplers compiled at run time: a `constexpr sampler` with a
/// `compare_func` and `depth2d::sample_compare`, compared on the device.
@Suite("Run-time Metal Shading Language comparison samplers", .validated)
struct MetalCompareSamplerTests {
    @Test("sample_compare through a constexpr comparison sampler passes where the reference is less than the depth")
    func sampleCompare() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            kernel void compare(depth2d<float> depth [[texture(0)]], device float* out [[buffer(0)]],
                                uint i [[thread_position_in_grid]]) {
                constexpr sampler less(coord::normalized, filter::nearest, compare_func::less);
                out[i] = depth.sample_compare(less, float2((float(i) + 0.5) / 4, 0.5), 0.5);
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "compare"))
        let depth = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .depth32Float, width: 4, height: 1,
                                                                             usage: .shaderRead))
        let depths: [Float] = [0.2, 0.4, 0.6, 0.8]
        depths.withUnsafeBytes { depth.replace(region: Region(x: 0, y: 0, width: 4, height: 1), mipmapLevel: 0,
                                               withBytes: $0.baseAddress!, bytesPerRow: 16) }
        let output = try gpu.buffer([Float](repeating: -1, count: 4))
        try gpu.dispatch(pipeline, buffers: [output], textures: [depth], groups: 1, width: 4)
        let values = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 4), count: 4))
        #expect(values == [0, 0, 1, 1])
    }
}
