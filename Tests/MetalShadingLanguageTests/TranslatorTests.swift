import Foundation
@testable import MetalShadingLanguage
import Testing

@Suite("MSL to GLSL")
struct TranslatorTests {
    @Test("buffer arguments follow the binding convention: pointers are runtime arrays, read-only unless written; implicit indices fill the gaps")
    func kernelBuffers() {
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Params { uint count; float scale; };
            kernel void k(device const float* a, device float* b [[buffer(3)]], device float* c,
                          constant Params& params, uint3 id [[thread_position_in_grid]]) {
                c[id.x] = a[id.x] * params.scale;
            }
            """
        let text = glsl(source, "k")
        #expect(text.hasPrefix("#version 450\n"))
        #expect(text.contains("layout(local_size_x_id = 65536, local_size_y_id = 65537, local_size_z_id = 65538) in;"))
        #expect(text.contains("layout(std430, set = 0, binding = 0) readonly buffer mslg_buffer0\n{\n    float a[];\n};"))
        // b is never written: read-only too. c took index 1, the first free one; params 2.
        #expect(text.contains("layout(std430, set = 0, binding = 3) readonly buffer mslg_buffer3\n{\n    float b[];\n};"))
        #expect(text.contains("layout(std430, set = 0, binding = 1) buffer mslg_buffer1\n{\n    float c[];\n};"))
        #expect(text.contains("layout(std140, set = 0, binding = 2) uniform mslg_buffer2\n{\n    layout(offset = 0) uint count;\n    layout(offset = 4) float scale;\n} params;"))
        #expect(text.contains("uvec3 id = gl_GlobalInvocationID;"))
        #expect(text.contains("c[id.x] = (a[id.x] * params.scale);"))
    }

    @Test("fragment functions' indices move up by 64; stage_in members become locations in order; [[color(0)]] an output")
    func fragmentInterface() {
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct In { float4 position [[position]]; float2 uv; int layer [[flat]]; float3 normal; };
            fragment float4 f(In in [[stage_in]], texture2d<float> t [[texture(2)]], sampler s [[sampler(1)]],
                              constant float4& tint [[buffer(1)]]) {
                return t.sample(s, in.uv) * tint + float(in.layer);
            }
            """
        let text = glsl(source, "f")
        #expect(text.contains("layout(location = 0) in vec2 mslg_varying0;"))
        #expect(text.contains("layout(location = 1) flat in int mslg_varying1;"))
        #expect(text.contains("layout(location = 2) in vec3 mslg_varying2;"))
        #expect(text.contains("layout(set = 0, binding = 98) uniform texture2D t;"))
        #expect(text.contains("layout(set = 0, binding = 113) uniform sampler s;"))
        #expect(text.contains("layout(std140, set = 0, binding = 65) uniform mslg_buffer1\n{\n    vec4 tint;\n};"))
        #expect(text.contains("In msl_in = In(gl_FragCoord, mslg_varying0, mslg_varying1, mslg_varying2);"))
        #expect(text.contains("layout(location = 0) out vec4 mslg_color0;"))
        #expect(text.contains("texture(sampler2D(t, s), msl_in.uv)"))
    }

    @Test("a constexpr sampler takes the highest free sampler index and carries its settings")
    func constantSampler() throws {
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            constexpr sampler s(filter::linear, mip_filter::nearest, s_address::repeat, coord::pixel);
            fragment float4 f(float4 p [[position]], texture2d<float> t [[texture(0)]], sampler other [[sampler(15)]]) {
                return t.sample(s, p.xy) + t.sample(other, p.xy);
            }
            """
        let entry = try #require(try compile(source).get().first)
        var expected = ConstantSampler()
        expected.minFilter = .linear
        expected.magFilter = .linear
        expected.mipFilter = .nearest
        expected.sAddress = .repeat
        expected.normalizedCoordinates = false
        #expect(entry.notes.constantSamplers == [14: expected])
        #expect(entry.glsl.contains("layout(set = 0, binding = 126) uniform sampler s;"))
    }

    @Test("lod_clamp bounds a constexpr sampler's levels of detail; an argument outside the known ones is refused by name")
    func constantSamplerLevels() throws {
        func sampler(_ arguments: String) -> Result<[TranslatedEntryPoint], Diagnostic> {
            compile("""
                #include <metal_stdlib>
                using namespace metal;
                fragment float4 f(float4 p [[position]], texture2d<float> t [[texture(0)]]) {
                    constexpr sampler s(\(arguments));
                    return t.sample(s, p.xy);
                }
                """)
        }
        let entry = try #require(try sampler("mip_filter::linear, lod_clamp(MAXFLOAT, MAXFLOAT)").get().first)
        #expect(entry.notes.constantSamplers.values.first?.lodClamp == Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude)
        #expect(try sampler("lod_clamp(1, 2.5f)").get().first?.notes.constantSamplers.values.first?.lodClamp == 1...2.5)
        #expect(try sampler("filter::linear").get().first?.notes.constantSamplers.values.first?.lodClamp == 0...Float.greatestFiniteMagnitude)
        func message(_ arguments: String) -> String {
            if case .failure(let diagnostic) = sampler(arguments) { diagnostic.description } else { "compiled" }
        }
        #expect(message("lod_clamp(2, 1)")
            == "test.metal:4:25: error: lod_clamp takes two constant levels of detail, the first no greater than the second")
        #expect(message("lod_bias(1)")
            == "test.metal:4:25: error: unsupported: the sampler argument 'lod_bias' (filter, mip_filter, address, coord, border_color, compare_func, max_anisotropy(1…16) and lod_clamp are)")
    }

    @Test("C++'s implicit conversions become explicit; vector comparisons use GLSL's functions; signed % and fmod keep C's sign")
    func conversions() {
        let text = glsl(kernel("""
                int n = -3;
                uint u = i + n;
                float2 v = float2(u, 1) * 2;
                bool2 less = v < float2(1.0);
                out[i] = v.x + n % 2 + fmod(v.y, -2.0) + (less.x ? 1 : 0) + half(0.5h);
            """), "k")
        #expect(text.contains("uint u = (i + uint(n));"))
        #expect(text.contains("vec2 v = (vec2(float(u), float(1)) * float(2));"))
        #expect(text.contains("bvec2 less = lessThan(v, vec2(1.0));"))
        #expect(text.contains("int mslg_rem(int a, int b) { return a - b * (a / b); }"))
        #expect(text.contains("float mslg_fmod(float x, float y) { return x - y * trunc(x / y); }"))
        #expect(text.contains("mslg_rem(n, 2)"))
    }

    @Test("names GLSL reserves are renamed; helpers are written before their callers, once")
    func namesAndHelpers() {
        let text = glsl(kernel("""
                float input = 2;
                float sample = twice(input);
                out[i] = twice(sample);
            """, prelude: "float twice(float texture) { return texture * 2; }"), "k")
        #expect(text.contains("float twice(float msl_texture)"))
        #expect(text.contains("float msl_input = float(2);"))
        #expect(text.components(separatedBy: "float twice(").count == 2)
        #expect(text.range(of: "float twice(")!.lowerBound < text.range(of: "void main()")!.lowerBound)
    }

    @Test("type errors name the types and the place")
    func typeErrors() {
        #expect(error(kernel("    out[i] = float3(1) + float4(2);"))
            == "test.metal:5:14: error: vector operands do not have the same number of elements ('float3' and 'float4')")
        #expect(error(kernel("    float2 v = 1; out[i] = v.z;")) == "test.metal:5:28: error: vector component access exceeds type 'float2'")
        #expect(error(kernel("    out[i] = undefinedThing;")) == "test.metal:5:14: error: use of undeclared identifier 'undefinedThing'")
        #expect(error(kernel("    const float c;")) == "test.metal:5:17: error: default initialization of an object of const type 'float'")
        #expect(error(kernel("    out[i] = length(1, 2);")) == "test.metal:5:14: error: 'length' takes 1 argument, given 2")
        #expect(error("""
            kernel void k(const device float* in [[buffer(0)]], uint i [[thread_position_in_grid]]) { in[i] = 1; }
            """) == "test.metal:1:91: error: cannot assign: 'msl_in' is read-only")
        #expect(error("kernel void k(device float* out [[buffer(0)]], int i [[thread_position_in_grid]]) {}")
            == "test.metal:1:52: error: [[thread_position_in_grid]] is uint, uint2 or uint3, not 'int'")
        #expect(error("kernel void k(device float* out [[buffer(40)]]) {}") == "test.metal:1:42: error: buffer index 40 is outside 0...30")
        #expect(error(kernel("    float3x3 m = float3x3(1); float4 v = m * float4(1);"))
            == "test.metal:5:42: error: invalid operands to binary expression ('float3x3' and 'float4')")
        #expect(error(kernel("    out[i] = s.w;", prelude: "struct S { float x; };\nconstant S s = { 1 };"))
            == "test.metal:6:14: error: no member named 'w' in 'S'")
    }

    @Test("8- and 16-bit integers are held in 32 bits and wrapped where C++ narrows: conversions, compound assignments, increments, vector arithmetic")
    func narrowIntegers() {
        let text = glsl(kernel("""
                uchar a = 300;
                char b = int(i);
                b++;
                a += b;
                uchar2 v = uchar2(a) * uchar2(2);
                short s = -b;
                out[i] = float(a + v.x + s);
            """), "k")
        #expect(text.contains("uint a = (uint(300) & 0xFFu);"))
        #expect(text.contains("int b = ((int(i) << 24) >> 24);"))
        // A postfix increment gives the old value back by undoing the wrapped step.
        #expect(text.contains("(((b = (((b + 1) << 24) >> 24)) - 1) << 24) >> 24;"))
        #expect(text.contains("a = (uint((int(a) + b)) & 0xFFu);"))
        #expect(text.contains("uvec2 v = ((uvec2(a) * uvec2((uint(2) & 0xFFu))) & 0xFFu);"))
        #expect(text.contains("int s = (((-b) << 16) >> 16);"))
    }

    @Test("function constants are specialization constants at their index; a compare-exchange is one sequence expression")
    func functionConstantsAndCompareExchange() {
        let text = glsl("""
            #include <metal_stdlib>
            using namespace metal;
            constant bool useOffset [[function_constant(4)]];
            constant float bias [[function_constant(9)]];
            kernel void k(device atomic_uint* counter [[buffer(0)]], device float* out [[buffer(1)]]) {
                uint seen = 0;
                bool swapped = atomic_compare_exchange_weak_explicit(counter, &seen, 1u, memory_order_relaxed, memory_order_relaxed);
                out[0] = useOffset && swapped ? bias : 0.0;
            }
            """, "k")
        #expect(text.contains("layout(constant_id = 4) const bool useOffset = false;"))
        #expect(text.contains("layout(constant_id = 9) const float bias = 0.0;"))
        #expect(text.contains("uint mslg_held1;\nbool mslg_exchanged2;"))
        #expect(text.contains("bool swapped = (mslg_held1 = atomicCompSwap(counter[0], seen, 1u), mslg_exchanged2 = mslg_held1 == seen, seen = mslg_held1, mslg_exchanged2);"))
    }

    @Test("a function declared here and defined in a linked file joins the file, with what it uses there; the linked file's entry points do not")
    func linkedFiles() throws {
        let header = "struct Light { float3 direction; float power; };\nfloat shade(Light light, float3 n);\n"
        let main = "#include <metal_stdlib>\nusing namespace metal;\n" + header + """
            kernel void k(constant Light& light [[buffer(0)]], device float* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
                out[i] = shade(light, float3(0, 0, 1));
            }
            """
        let common = "#include <metal_stdlib>\nusing namespace metal;\n" + header + """
            constant float ambient = 0.25;
            static float lit(float d) { return max(d, 0.0) + ambient; }
            float shade(Light light, float3 n) { return lit(dot(-light.direction, n)) * light.power; }
            kernel void other(device float* out [[buffer(0)]]) { out[0] = 1; }
            """
        let result = MetalCompiler.compile(main, file: "main.metal", linked: [LinkedSource(text: common, file: "common.metal")])
        let entries = try result.get()
        #expect(entries.map(\.name) == ["k"])
        #expect(entries[0].glsl.contains("""
            const float ambient = 0.25;
            float lit(float d)
            {
                return max(d, 0.0) + ambient;
            }
            float shade(Light light, vec3 n)
            {
                return lit(dot((-light.direction), n)) * light.power;
            }
            """), "\(entries[0].glsl)")
        // Without the linked file, the call is refused by name.
        guard case .failure(let alone) = MetalCompiler.compile(main, file: "main.metal") else {
            Issue.record("compiled without the definition")
            return
        }
        #expect(alone.description.hasSuffix("calling 'shade', which is declared here and defined in another file (a source compiled "
            + "at run time stands alone; the build links a target's .metal files)"))
    }

    @Test("Apple's MSAA sample: the files that call the tone-mapping function AAPLShaderCommon.metal defines compile linked with the sample's other files, the one with image blocks left out")
    func linkedPublishedSample() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "GPUTests/MetalCorpus/apple/ImprovingEdgeRenderingQualityWithMultisampleAntialiasingMSAA")
        let names = ["AAPLShaders.metal", "AAPLIMResolve.metal", "AAPLShaderCommon.metal", "AAPLTileBasedResolve.metal"]
        let texts = try names.map { try String(contentsOf: folder.appending(path: $0), encoding: .utf8) }
        let headers: (String) -> Preprocessor.HeaderLookup = { name in
            (try? String(contentsOf: folder.appending(path: name), encoding: .utf8)).map { .found(text: $0, file: name) } ?? .notFound
        }
        for (index, name) in names.prefix(2).enumerated() {
            let others = zip(names, texts).filter { $0.0 != name }.map { LinkedSource(text: $0.1, file: $0.0) }
            let entries = try MetalCompiler.compile(texts[index], file: name, linked: others, readHeader: headers).get()
            #expect(entries.contains { $0.glsl.contains("tonemapByLuminance(") }, "\(name)")
        }
    }

    @Test("constructs outside the subset are refused with the construct's name")
    func unsupported() {
        #expect(error(kernel("    device float* p;")) == "test.metal:5:19: error: unsupported: a pointer variable without an initializer "
            + "(it is given the array it points into)")
        #expect(error(kernel("    device float* p = i > 0 ? out : out + 1;")).hasSuffix("error: unsupported: pointers used as values "
            + "(passing pointers to functions, choosing one with ?:, casting them)"))
        #expect(error(kernel("    out++;")) == "test.metal:5:5: error: unsupported: changing a pointer argument (copy it into a pointer "
            + "variable: 'device T* p = argument;')")
        #expect(error(kernel("    device float* p = &out[0]; p = (device float*)&i;")).contains("error: "))
        #expect(error(kernel("    uint* p = &i;")) == "test.metal:5:15: error: unsupported: taking the address of anything but an array "
            + "element ('&a[i]')")
        #expect(error("kernel void k(device float* a [[buffer(0)]], device float* b [[buffer(1)]]) { device float* p = a; p = b; }")
            == "test.metal:1:100: error: unsupported: a pointer variable that points into two arrays (it first pointed into another)")
        #expect(error("kernel void k(device float* a [[buffer(0)]], constant float* b [[buffer(1)]]) { device float* p = b; }")
            == "test.metal:1:99: error: cannot initialize a 'device' pointer with a pointer into 'constant' memory")
        #expect(error("float first(device float* p) { return p[0]; }\nkernel void k(device float* a [[buffer(0)]]) { a[0] = first(a); }")
            .contains("error: unsupported: pointer parameters of functions other than entry points"))
        #expect(error(kernel("    out[i] = simd_sum(out[i]);")) == "test.metal:5:14: error: unsupported: the function 'simd_sum'")
        #expect(error("short get(constant short& s) { return s; }\nkernel void k(constant short& s [[buffer(0)]], device int* o [[buffer(1)]]) { o[0] = get(s); }")
            == "test.metal:1:27: error: unsupported: 8- and 16-bit integers ('short') in a 'constant' parameter of a function other than an entry point")
        // A struct GLSL cannot place at Metal's offsets, even with padding: refused, not misread.
        #expect(error("""
            struct P { half3x3 m; float weight; };
            kernel void k(device P* points [[buffer(0)]]) {}
            """) == "test.metal:2:25: error: unsupported: half matrices in a buffer")
        #expect(error("int f(int n) { return n > 0 ? f(n - 1) : 0; }\nkernel void k(device int* o [[buffer(0)]]) { o[0] = f(3); }")
            == "test.metal:1:5: error: unsupported: recursion ('f' calls itself)")
    }

    @Test("a constant struct whose float3 is followed by a float is placed at Metal's offsets")
    func explicitOffsets() {
        let text = glsl("""
            struct Light { float3 direction; float intensity; float4x4 transform; };
            kernel void k(constant Light& light [[buffer(0)]], device float* out [[buffer(1)]]) { out[0] = light.intensity; }
            """, "k")
        #expect(text.contains("layout(offset = 0) vec3 direction;\n    layout(offset = 16) float intensity;\n    layout(offset = 32) mat4 transform;"))
    }
}
