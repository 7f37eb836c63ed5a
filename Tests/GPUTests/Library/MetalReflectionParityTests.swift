import GPUTestSupport
import Testing
@testable import GPU
import SwiftGPUSPIRV

/// The same functions written in MSL and in GLSL on SwiftGPU's binding convention reflect
/// alike: each argument at the same index, of the same kind and access; the same stage
/// inputs and outputs; the same threadgroup size.
@Suite("Metal Shading Language reflects as GLSL does", .validated)
struct MetalReflectionParityTests {
    static let metal = """
        #include <metal_stdlib>
        using namespace metal;
        struct VertexIn { float2 position [[attribute(0)]]; float4 color [[attribute(3)]]; };
        struct VertexOut { float4 position [[position]]; float4 color; float2 uv; };
        vertex VertexOut shade_vertex(VertexIn in [[stage_in]], constant float4x4& transform [[buffer(1)]]) {
            VertexOut out;
            out.position = transform * float4(in.position, 0, 1);
            out.color = in.color;
            out.uv = in.position;
            return out;
        }
        fragment float4 shade_fragment(VertexOut in [[stage_in]], texture2d<float> image [[texture(2)]],
                                       sampler linear [[sampler(0)]]) {
            return image.sample(linear, in.uv) * in.color;
        }
        kernel void filter(device const float* input [[buffer(0)]], device float* output [[buffer(1)]],
                           constant float& factor [[buffer(2)]], texture2d<float, access::write> image [[texture(0)]],
                           texture2d<float> source [[texture(1)]], device atomic_uint* count [[buffer(3)]],
                           uint2 gid [[thread_position_in_grid]]) {
            threadgroup float shared[64];
            shared[gid.x % 64] = input[gid.x] * factor;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            output[gid.x] = shared[(gid.x + 1) % 64];
            image.write(source.read(gid), gid);
            atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
        }
        """

    static let glsl: [String: String] = [
        "shade_vertex": """
            #version 450
            #pragma shader_stage(vertex)
            layout(location = 0) in vec2 position;
            layout(location = 3) in vec4 color;
            layout(std140, set = 0, binding = 1) uniform Transform { mat4 transform; };
            layout(location = 0) out vec4 outColor;
            layout(location = 1) out vec2 outUV;
            void main() {
                gl_Position = transform * vec4(position, 0, 1);
                outColor = color;
                outUV = position;
            }
            """,
        "shade_fragment": """
            #version 450
            #pragma shader_stage(fragment)
            layout(location = 0) in vec4 color;
            layout(location = 1) in vec2 uv;
            layout(set = 0, binding = 98) uniform texture2D image;
            layout(set = 0, binding = 112) uniform sampler linear;
            layout(location = 0) out vec4 result;
            void main() { result = texture(sampler2D(image, linear), uv) * color; }
            """,
        "filter": """
            #version 450
            #extension GL_EXT_samplerless_texture_functions : require
            #pragma shader_stage(compute)
            layout(local_size_x_id = 65536, local_size_y_id = 65537, local_size_z_id = 65538) in;
            layout(std430, set = 0, binding = 0) readonly buffer Input { float input_[]; };
            layout(std430, set = 0, binding = 1) buffer Output { float output_[]; };
            layout(std140, set = 0, binding = 2) uniform Factor { float factor; };
            layout(std430, set = 0, binding = 3) buffer Count { uint count; };
            layout(set = 0, binding = 32, rgba8) uniform writeonly image2D image;
            layout(set = 0, binding = 33) uniform texture2D source;
            shared float shared_[64];
            void main() {
                uvec2 gid = gl_GlobalInvocationID.xy;
                shared_[gid.x % 64] = input_[gid.x] * factor;
                barrier();
                output_[gid.x] = shared_[(gid.x + 1) % 64];
                imageStore(image, ivec2(gid), texelFetch(source, ivec2(gid), 0));
                atomicAdd(count, 1u);
            }
            """,
    ]

    /// What reflection says of an argument, without the names, which the two languages
    /// choose differently.
    struct Argument: Hashable, CustomStringConvertible {
        var binding: UInt32
        var kind: String
        var readOnly: Bool
        var description: String { "\(binding) \(kind)\(readOnly ? " read-only" : "")" }
    }

    static func arguments(_ function: Function) -> [Argument] {
        function.entryPoint.bindings.map { Argument(binding: $0.binding, kind: "\($0.kind)", readOnly: $0.isReadOnly) }
            .sorted { $0.binding < $1.binding }
    }

    @Test("vertex, fragment and kernel functions in MSL and GLSL reflect the same arguments, stage inputs and outputs and threadgroup size",
          arguments: ["shade_vertex", "shade_fragment", "filter"])
    func parity(name: String) throws {
        let gpu = try TestGPU()
        let metal = try gpu.device.makeLibrary(source: Self.metal, options: nil).makeFunction(name: name)
        let glslLibrary = try gpu.device.makeLibrary(source: Self.glsl[name]!, options: nil)
        let glsl = try glslLibrary.makeFunction(name: glslLibrary.functionNames[0])
        #expect(metal.functionType == glsl.functionType)
        #expect(Self.arguments(metal) == Self.arguments(glsl))
        #expect(metal.entryPoint.inputs.sorted { $0.location < $1.location } == glsl.entryPoint.inputs.sorted { $0.location < $1.location })
        #expect(metal.entryPoint.outputs.sorted { $0.location < $1.location } == glsl.entryPoint.outputs.sorted { $0.location < $1.location })
        #expect(metal.entryPoint.localSizeSpecIds == glsl.entryPoint.localSizeSpecIds)
        #expect(metal.entryPoint.localSize.map { [$0.x, $0.y, $0.z] } == glsl.entryPoint.localSize.map { [$0.x, $0.y, $0.z] })
        #expect(metal.entryPoint.workgroupMemorySize == glsl.entryPoint.workgroupMemorySize)
        #expect(metal.entryPoint.pushConstantSize == glsl.entryPoint.pushConstantSize)
        #expect(metal.functionConstantsDictionary == glsl.functionConstantsDictionary)
    }
}
