@testable import MetalShadingLanguage
import Testing

/// What published Metal shaders write that the first subset refused: designated and
/// constructor-style initializers, arrays sized by their initializer, references to constant
/// memory, a fragment's position as its stage_in, samplers declared in functions, half
/// matrices, a variable named like a type.
@Suite("MSL idioms of published shaders")
struct PublishedIdiomsTests {
    @Test("designated initializers place members by name, missing ones zero; out of order or mixed is an error")
    func designatedInitializers() {
        let prelude = "struct L { float3 direction; float3 color; float power; };"
        let text = glsl(kernel("    L l = { .direction = { 0, 1, 0 }, .power = 2 };\n    out[i] = l.power + l.color.x;", prelude: prelude), "k")
        // The float after the second float3 has a padding member before it (zero).
        #expect(text.contains("L l = L(vec3(float(0), float(1), float(0)), vec3(0.0), 0.0, float(2));"))
        #expect(error(kernel("    L l = { .power = 2, .color = { 1, 1, 1 } };", prelude: prelude))
            == "test.metal:5:25: error: designator order for field 'color' does not match the declaration order")
        #expect(error(kernel("    L l = { .power = 2, 1 };", prelude: prelude))
            == "test.metal:5:13: error: mixture of designated and non-designated initializers")
        #expect(error(kernel("    L l = { .size = 2 };", prelude: prelude))
            == "test.metal:5:13: error: field designator 'size' does not refer to any field in type 'L'")
    }

    @Test("a file-scope constant with constructor arguments is a variable; an array takes its size from its initializer list")
    func constantInitializers() {
        let prelude = "constant float3 kLight(0, 0, -1);\nconstant float2 corners[] = { { -1, -1 }, { 1, -1 }, { -1, 1 } };"
        let text = glsl(kernel("    out[i] = kLight.z + corners[i % 3].x;", prelude: prelude), "k")
        #expect(text.contains("const vec3 kLight = vec3(float(0), float(0), float((-1)));"))
        #expect(text.contains("const vec2 corners[3] = vec2[3](vec2(float((-1)), float((-1))), vec2(float(1), float((-1))), "
            + "vec2(float((-1)), float(1)));"))
    }

    @Test("a reference to constant memory reads a const copy; references to memory that may change stay unsupported")
    func referenceVariables() {
        let source = """
            struct Instance { float4x4 model; float4 color; };
            kernel void k(constant Instance* instances [[buffer(0)]], device float4* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
                constant Instance& instance = instances[i];
                out[i] = instance.color * instance.model[0].x;
            }
            """
        let text = glsl(source, "k")
        #expect(text.contains("const Instance instance = instances[i];"))
        #expect(error(kernel("    device float& first = out[0];"))
            == "test.metal:5:5: error: unsupported: reference variables to device, threadgroup or thread memory")
        // `a` may change while `r` lives, which a copy would not see.
        #expect(error(kernel("    float a = 1;\n    const thread float& r = a;\n    a = 2;\n    out[i] = r;"))
            == "test.metal:6:5: error: unsupported: reference variables to device, threadgroup or thread memory")
    }

    @Test("a fragment function's float4 [[stage_in]] is the position a float4 vertex function returned")
    func positionAsStageIn() {
        let source = """
            vertex float4 v(uint id [[vertex_id]]) { return float4(float(id), 0, 0, 1); }
            fragment float4 f(float4 position [[stage_in]]) { return position / 256; }
            """
        #expect(glsl(source, "f").contains("vec4 position = gl_FragCoord;"))
        #expect(error("vertex float4 v(float4 p [[stage_in]]) { return p; }") == "test.metal:1:24: error: [[stage_in]] is for a struct, not 'float4'")
    }

    @Test("a constexpr sampler declared in a function is a constant sampler, even when named 'sampler'; half matrices stay half")
    func localSamplerAndHalfMatrices() throws {
        let source = """
            fragment half4 f(float4 p [[position]], texture2d<half> texture [[texture(0)]], constant float3x3& m [[buffer(0)]]) {
                constexpr sampler sampler(min_filter::linear, mag_filter::linear);
                half3x3 normalMatrix = half3x3(m);
                half3 n = normalMatrix * half3(p.xyz);
                return texture.sample(sampler, p.xy) * n.x;
            }
            """
        let entries = try compile(source).get()
        #expect(entries[0].notes.constantSamplers[15]?.minFilter == .linear)
        #expect(entries[0].glsl.contains("layout(set = 0, binding = 127) uniform sampler mslg_msl_sampler_1;"))
        #expect(entries[0].glsl.contains("texture(sampler2D(msl_texture, mslg_msl_sampler_1), p.xy)"))
        // A half matrix times a half vector is a half vector, which a float matrix's product is not.
        #expect(error("kernel void k(device float* o [[buffer(0)]]) { float3x3 m = float3x3(1); half3 h = m * half3(1); o[0] = h.x; }")
            == "test.metal:1:84: error: cannot convert 'float3' to 'half3'")
    }

    @Test("constructs of published shaders outside the subset name themselves")
    func unsupportedConstructs() {
        #expect(error("using raytracing::instance_acceleration_structure;")
            == "test.metal:1:1: error: unsupported: using-declarations ('using raytracing::…')")
        // A vertex function's output struct with its point size, shared with the fragment function: there, unread.
        let shared = "struct V { float4 p [[position]]; float s [[point_size]]; half4 c; };\n"
            + "vertex V v(uint id [[vertex_id]]) { V o; o.p = float4(0, 0, 0, 1); o.s = 4; o.c = half4(1); return o; }\n"
        if case .failure(let diagnostic) = compile(shared + "fragment half4 f(V in [[stage_in]]) { return in.c; }") {
            Issue.record("\(diagnostic)")
        }
        #expect(error(shared + "fragment half4 f(V in [[stage_in]]) { return in.c * in.s; }").hasSuffix("error: unsupported: reading a "
            + "[[point_size]] member in a fragment function (Vulkan gives fragments no point size)"))
        #expect(error("typedef struct __attribute__((packed)) { float x; } P;\nstruct Q { rgba8unorm<half4> color; };")
            == "test.metal:2:12: error: unsupported: pixel storage types of image blocks ('rgba8unorm')")
        #expect(error("kernel void k(imageblock<float> b, uint i [[thread_position_in_grid]]) {}")
            == "test.metal:1:15: error: unsupported: the type 'imageblock'")
        #expect(error("float3 tonemap(float3 color);\nkernel void k(device float3* o [[buffer(0)]]) { o[0] = tonemap(o[0]); }")
            == "test.metal:2:56: error: unsupported: calling 'tonemap', which is declared here and defined in another file "
            + "(a source compiled at run time stands alone; the build links a target's .metal files)")
        #expect(error("kernel void k(uchar i [[thread_position_in_grid]]) {}")
            == "test.metal:1:21: error: unsupported: [[thread_position_in_grid]] of type 'uchar' (8- and 16-bit integer types)")
    }

    @Test("a scalar after a float3 moves to Metal's offset through padding members, which constructors fill with zeros")
    func float3Padding() {
        let prelude = "struct L { float3 direction; uint type; };"
        let text = glsl(kernel("    L l = { float3(1), 2 };\n    out[i] = float(l.type);", prelude: prelude), "k")
        #expect(text.contains("struct L {\n    vec3 direction;\n    float mslg_pad1_0;\n    uint type;\n};"))
        #expect(text.contains("L l = L(vec3(float(1)), 0.0, uint(2));"))
    }

    @Test("member functions become functions of their struct's object; constructors, operators and static members are refused by name")
    func memberFunctions() {
        let prelude = "struct C { float v; float twice() const { return v * 2; } void add(float x) { v += x; } };"
        let text = glsl(kernel("    C c = { out[i] };\n    c.add(1);\n    out[i] = c.twice();", prelude: prelude), "k")
        #expect(text.contains("float mslg_C_twice(C msl_this)\n{\n    return msl_this.v * float(2);"), "\(text)")
        #expect(text.contains("void mslg_C_add(inout C msl_this, float x)\n{\n    msl_this.v += x;"), "\(text)")
        #expect(text.contains("mslg_C_add(c, float(1));") && text.contains("= mslg_C_twice(c);"), "\(text)")
        #expect(error(kernel("", prelude: "struct C { float v; C(float x) { v = x; } };"))
            == "test.metal:3:21: error: unsupported: constructors")
        #expect(error(kernel("", prelude: "struct C { float v; C operator+(C o) const { return o; } };"))
            == "test.metal:3:23: error: unsupported: operator overloading")
        #expect(error(kernel("", prelude: "struct C { static float f() { return 1; } };"))
            == "test.metal:3:12: error: unsupported: static members")
        #expect(error(kernel("    out[i] = c.missing();", prelude: "struct C { float v; }; constant C c = { 1 };"))
            == "test.metal:5:14: error: 'C' has no member function 'missing'")
        #expect(error(kernel("    out[i] = this->v;")) == "test.metal:5:14: error: invalid use of 'this' outside of a member function")
    }

    @Test("a function template is instantiated once per set of types; one its arguments cannot instantiate matches no call")
    func functionTemplates() {
        let prelude = "template <typename T> T twice(T x) { return x * 2; }\ntemplate <typename T> T zero() { return T(0); }"
        let text = glsl(kernel("    out[i] = twice(out[i]) + twice(float(twice(int(i))));", prelude: prelude), "k")
        #expect(text.contains("float mslg_twice_float(float x)") && text.contains("int mslg_twice_int(int x)"), "\(text)")
        #expect(text.split(separator: "\n").filter { $0 == "float mslg_twice_float(float x)" }.count == 1, "one instance per type")
        #expect(error(kernel("    out[i] = zero();", prelude: prelude)) == "test.metal:6:14: error: no matching function for call to 'zero'")
        #expect(error(kernel("    out[i] = twice(out[i], 1);", prelude: prelude)) == "test.metal:6:14: error: no matching function for call to 'twice'")
    }

    @Test("is_null_texture asks whether the texture's size is zero, as a null descriptor's is, and notes an argument's binding")
    func nullTexture() throws {
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            static bool missing(texture2d<float> u) { return is_null_texture(u); }
            fragment float4 f(texture2d<float> t [[texture(0)]], texture2d<float> u [[texture(1)]]) {
                return is_null_texture(t) || missing(u) ? float4(0) : float4(1);
            }
            """
        let entry = try #require(try? compile(source).get().first)
        #expect(entry.glsl.contains("(uint(textureSize(t, 0).x) == 0u)"))
        // Only the argument the entry point asks of directly may be left unbound.
        #expect(entry.notes.nullableBindings == [64 + 32])
        #expect(error("kernel void k(device float* o [[buffer(0)]]) { o[0] = is_null_texture(o[0]); }")
            == "test.metal:1:55: error: is_null_texture takes a texture")
    }

    @Test("packed vectors in structs take Metal's packed layout: std430 where it places them identically, else the scalar layout, with padding to Metal's size")
    func packedMembers() {
        let text = glsl("""
            struct V { packed_float2 position; packed_float2 uv; };
            vertex float4 v(device const V* vertices [[buffer(0)]], uint id [[vertex_id]]) {
                return float4(vertices[id].position + vertices[id].uv, 0, 1);
            }
            """, "v")
        #expect(text.contains("struct V {\n    vec2 position;\n    vec2 uv;\n};"))
        #expect(text.contains("layout(std430, set = 0, binding = 0) readonly buffer mslg_buffer0"))
        #expect(!text.contains("scalar"))
        // 24 bytes in Metal, 32 in std430: the scalar layout, for the blocks that hold V or P.
        let scalar = glsl("""
            struct V { packed_float4 position; packed_float2 uv; };
            struct P { float4 a; packed_float2 b; packed_float3 c; };
            struct U { float3x3 normalMatrix; float3 n[2]; };
            vertex float4 v(device const V* vertices [[buffer(0)]], constant P& p [[buffer(1)]], device const P* ps [[buffer(2)]],
                            constant U& u [[buffer(3)]], uint id [[vertex_id]]) {
                return vertices[id].position + p.a + ps[id].a + float4(u.normalMatrix[0] + u.n[1], 1);
            }
            """, "v")
        #expect(scalar.contains("#extension GL_EXT_scalar_block_layout : require\n"))
        #expect(scalar.contains("struct V {\n    vec4 position;\n    vec2 uv;\n};"))
        #expect(scalar.contains("struct P {\n    vec4 a;\n    vec2 b;\n    vec3 c;\n    float mslg_pad_end0;\n    float mslg_pad_end1;\n    float mslg_pad_end2;\n};"),
                "\(scalar)")
        #expect(scalar.contains("layout(scalar, set = 0, binding = 0) readonly buffer mslg_buffer0\n{\n    V vertices[];\n};"), "\(scalar)")
        #expect(scalar.contains("layout(scalar, set = 0, binding = 1) readonly buffer mslg_buffer1\n{\n    layout(offset = 0) vec4 a;\n    layout(offset = 16) vec2 b;\n    layout(offset = 24) vec3 c;\n} p;"), "\(scalar)")
        #expect(scalar.contains("layout(scalar, set = 0, binding = 2) readonly buffer mslg_buffer2\n{\n    P ps[];\n};"), "\(scalar)")
        // U keeps std140: a float3x3's columns are 16 bytes apart there, as in Metal.
        #expect(scalar.contains("layout(std140, set = 0, binding = 3) uniform mslg_buffer3\n{\n    layout(offset = 0) mat3 normalMatrix;\n"), "\(scalar)")
        // A struct that holds V is laid out by the scalar rules, where a float3 array's stride is 12 bytes.
        #expect(error("""
            struct V { packed_float4 position; packed_float2 uv; };
            struct W { V v; float3 n[2]; };
            vertex float4 v(device const V* vertices [[buffer(0)]], device const W* w [[buffer(1)]], uint id [[vertex_id]]) {
                return vertices[id].position + w[id].n[0].x;
            }
            """) == "test.metal:3:73: error: unsupported: an array of float3 (its elements are 16 bytes apart in Metal, 12 in GLSL's scalar layout) "
            + "in a buffer (laid out by the scalar rules, which struct 'V' takes for another buffer of this function)")
        #expect(error(kernel("    packed_float3 p = float3(1);")) == "test.metal:5:5: error: unsupported: the type 'packed_float3'")
        #expect(error("""
            struct G { half4 lighting [[color(0)]]; };
            fragment half4 f(G gbuffer) { return gbuffer.lighting; }
            """) == "test.metal:2:20: error: unsupported: reading color attachments in a fragment function (programmable blending)")
    }

    @Test("a comparison sampler's compare function is the constant sampler's; sample_compare compares through a shadow sampler")
    func comparisonSamplers() throws {
        let source = """
            constexpr sampler shadowSampler(coord::normalized, filter::linear, compare_func::greater_equal);
            fragment float4 f(float4 p [[position]], depth2d<float> shadowMap [[texture(0)]]) {
                return float4(shadowMap.sample_compare(shadowSampler, p.xy / 64, 0.5));
            }
            """
        let entries = try compile(source).get()
        #expect(entries[0].notes.constantSamplers[15]?.compareFunction == .greaterEqual)
        #expect(entries[0].glsl.contains("texture(sampler2DShadow(shadowMap, shadowSampler), vec3((p.xy / float(64)), 0.5))"))
        #expect(error("fragment float4 f(texture2d<float> t [[texture(0)]], sampler s [[sampler(0)]]) { return t.sample_compare(s, float2(0), 0.5); }")
            == "test.metal:1:89: error: unsupported: sample_compare of a 'texture2d<float, access::sample>'")
    }

    @Test("default member initializers apply where value, aggregate or default initialization gives a member no value")
    func defaultMemberInitializers() {
        // (The 0.0 after `emitted` pads `weight` to Metal's offset.)
        let prelude = "struct Surface { float3 reflected { 0 }; float3 emitted { 1, 2, 3 }; float weight = 0.5; float other; };"
        let text = glsl(kernel("    Surface s;\n    Surface t = { float3(4) };\n    Surface u = Surface();\n"
            + "    out[i] = s.emitted.y + t.weight + u.reflected.x + s.other;", prelude: prelude), "k")
        #expect(text.contains("Surface s = Surface(vec3(float(0)), vec3(float(1), float(2), float(3)), 0.0, 0.5, 0.0);"))
        #expect(text.contains("Surface t = Surface(vec3(float(4)), vec3(float(1), float(2), float(3)), 0.0, 0.5, 0.0);"))
        #expect(text.contains("Surface u = Surface(vec3(float(0)), vec3(float(1), float(2), float(3)), 0.0, 0.5, 0.0);"))
    }

    @Test("a ushort [[vertex_id]] or [[instance_id]] is the index's low 16 bits as the int it promotes to, read-only")
    func shortVertexIndex() {
        let text = glsl("vertex float4 v(ushort vid [[vertex_id]], ushort iid [[instance_id]]) { return float4(vid - 1, iid, 0, 1); }", "v")
        #expect(text.contains("const int vid = int(uint(gl_VertexIndex) & 0xFFFFu);"))
        #expect(text.contains("const int iid = int(uint(gl_InstanceIndex) & 0xFFFFu);"))
        #expect(text.contains("vec4(float((vid - 1)), float(iid), float(0), float(1))"))
        #expect(error("vertex float4 v(ushort vid [[vertex_id]]) { vid = 2; return float4(1); }")
            == "test.metal:1:45: error: cannot assign: 'vid' is read-only")
    }

    @Test("a default-constructed local sampler is a constant sampler with Metal's defaults; a copied one stays unsupported")
    func defaultSampler() throws {
        let source = "fragment float4 f(float4 p [[position]], texture2d<float> t [[texture(0)]]) { sampler s; return t.sample(s, p.xy); }"
        let entries = try compile(source).get()
        #expect(entries[0].notes.constantSamplers == [15: ConstantSampler()])
        #expect(error("fragment float4 f(texture2d<float> t [[texture(0)]], sampler a [[sampler(0)]]) { sampler s = a; return t.sample(s, float2(0)); }")
            == "test.metal:1:90: error: unsupported: local texture and sampler variables")
    }

    @Test("sizeof is the size in Metal's layout of a type or of an expression's type, unevaluated; a pointer's and alignof stay unsupported")
    func sizeOf() {
        let prelude = """
            struct S { float3 a; float b; };
            struct P { packed_float3 a; float b; };
            constant S table[] = { {float3(1), 2}, {float3(3), 4} };
            constant size_t count = sizeof(table) / sizeof(table[0]);
            """
        let text = glsl(kernel("    int n = 0;\n    out[i] = float(sizeof(S) + sizeof(P) + sizeof(float3) + sizeof(half) + sizeof(char4) + sizeof n++ + count + n);",
                               prelude: prelude), "k")
        #expect(text.contains("(64u / 32u)"), "\(text)")
        #expect(text.contains("32u + 16u) + 16u) + 2u) + 4u) + 4u)"), "\(text)")
        #expect(!text.contains("n++"), "sizeof leaves its operand unevaluated")
        #expect(error(kernel("    out[i] = sizeof(out);")) == "test.metal:5:14: error: unsupported: sizeof of a pointer")
        #expect(error(kernel("    out[i] = alignof(float);")) == "test.metal:5:14: error: unsupported: alignof")
    }

    @Test("simd's m.columns[i] is the matrix's column i")
    func matrixColumns() {
        let text = glsl(kernel("    float4x4 m = float4x4(1);\n    out[i] = m.columns[3].x + m.columns[i % 4][1];"), "k")
        #expect(text.contains("m[3].x + m[(i % 4u)][1]") || text.contains("(m[3].x + m[(i % uint(4))][1])"), "\(text)")
        #expect(error(kernel("    float4x4 m = float4x4(1);\n    out[i] = m.columns.x;"))
            == "test.metal:6:14: error: member reference base type 'float4x4' is not a structure or vector")
    }

    @Test("the math constants M_PI_F, M_SQRT2_F and their kin (and the _H ones) are the standard library's values")
    func mathConstants() {
        let text = glsl(kernel("    out[i] = M_PI_F + M_SQRT1_2_F + float(M_E_H);"), "k")
        #expect(text.contains("((3.141592653589793 + 0.7071067811865476) + 2.718281828459045)"), "\(text)")
        #expect(error(kernel("    out[i] = M_TAU_F;")) == "test.metal:5:14: error: use of undeclared identifier 'M_TAU_F'")
    }
}
