import GPUTestSupport
import Testing
@testable import GPU

/// Namespaces in run-time MSL: named and anonymous namespaces' declarations join the file's
/// scope, reached by their plain, qualified (`shading::twice`) or global (`::kScale`) names.
@Suite("Run-time Metal Shading Language namespaces", .validated)
struct MetalNamespaceTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        namespace {
            constant float kScale = 3.0;
        }
        namespace shading {
            struct Light { float intensity; float bias; };
            namespace detail {
                float twice(float x) { return 2 * x; }
            }
            float lit(Light light, float value) { return detail::twice(value) * light.intensity + light.bias; }
        }
        using namespace shading;
        kernel void shade(device const float* input [[buffer(0)]], device float* output [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
            shading::Light light = shading::Light{ ::kScale, 1.0 };
            Light plain = { 0.5, 0.0 };
            output[i] = shading::lit(light, input[i]) + lit(plain, input[i]) + shading::detail::twice(1.0);
        }
        """

    @Test("a kernel calls functions and builds structs of nested and anonymous namespaces by plain, qualified and global names")
    func qualifiedNames() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "shade"))
        let input: [Float] = [0, 1, 2.5, -4]
        let output = try gpu.buffer([Float](repeating: 0, count: 4))
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(input), output], groups: 1, width: 4)
        let results = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 4), count: 4))
        #expect(results == input.map { (2 * $0 * 3 + 1) + (2 * $0 * 0.5) + 2 })
    }

    @Test("a constant or a function of one signature that two namespaces declare is a redefinition, since their declarations share the file's scope")
    func sharedScope() throws {
        let gpu = try TestGPU()
        #expect(gpu.metalMessages(usingMetal: "namespace a { constant float k = 1; }\nnamespace b { constant float k = 2; }\n"
                                  + "kernel void f(device float* o [[buffer(0)]]) { o[0] = a::k; }")
            == "program_source:4:30: error: redefinition of 'k'")
        #expect(gpu.metalMessages(usingMetal: "namespace a { float f(float x) { return x; } }\nnamespace b { float f(float y) { return 2 * y; } }\n"
                                  + "kernel void g(device float* o [[buffer(0)]]) { o[0] = a::f(1); }")
            == "program_source:4:21: error: redefinition of 'f'")
    }
}
