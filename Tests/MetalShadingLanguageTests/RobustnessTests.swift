@testable import MetalShadingLanguage
import Testing

/// Bad input ends in a diagnostic, never a trap, a hang or unbounded memory.
@Suite("MSL front end robustness")
struct RobustnessTests {
    /// Sources that compile, to mutate.
    static let corpus = [
        """
        #include <metal_stdlib>
        using namespace metal;
        #define N 4
        struct Params { uint count; float3 offset; float scale; };
        typedef enum Index { IndexA = 0, IndexB = 1 } Index;
        constant float weights[3] = { 0.25, 0.5, 0.25 };
        constexpr sampler linear(filter::linear, address::repeat);
        float helper(float x, thread float& total) { total += x; return x * 2 + weights[1]; }
        kernel void k(device const float* a [[buffer(IndexA)]], device float* b [[buffer(IndexB)]],
                      constant Params& p [[buffer(2)]], uint2 gid [[thread_position_in_grid]]) {
            float total = 0;
            for (int i = 0; i < N; ++i) { total += p.offset[i % 3] * select(1.0f, 2.0f, i > 1); }
            if (gid.x < p.count) { b[gid.x] = helper(a[gid.x], total) + fmod(total, 3.0) + round(p.scale); }
            switch (gid.y) { case 0: b[0] = 1; break; default: break; }
            do { total -= 1; } while (total > 0);
        }
        """,
        """
        #include <metal_stdlib>
        using namespace metal;
        struct VIn { float3 position [[attribute(0)]]; float2 uv [[attribute(1)]]; };
        struct VOut { float4 position [[position]]; float2 uv; float size [[point_size]]; };
        struct Uniforms { float4x4 mvp; float4 tint; };
        vertex VOut v(VIn in [[stage_in]], constant Uniforms& u [[buffer(1)]], uint id [[vertex_id]]) {
            VOut out;
            out.position = u.mvp * float4(in.position, 1.0);
            out.uv = in.uv + float2(id, 0) * 0.0;
            out.size = 1;
            return out;
        }
        fragment half4 f(VOut in [[stage_in]], texture2d<half> t [[texture(0)]], sampler s [[sampler(0)]],
                         constant Uniforms& u [[buffer(0)]]) {
            half4 c = t.sample(s, in.uv, level(0));
            return c * half4(u.tint) + half4(t.read(uint2(0)));
        }
        """,
    ]

    static let fragments = ["{", "}", "(", ")", "[[", "]]", ";", ",", "*", "&", "<", ">", "::", "#define X X X\n", "#if 1\n",
                            "#endif\n", "float4", "device", "constant", "return", "struct", "=", "0x", "1e", ".", "->", "?",
                            "texture2d<float>", "in", "[", "]", "++", "'", "\"", "/*", "\\\n", "kernel", "vertex", "template"]

    @Test("3,000 mutations of compiling sources (cuts, copies, inserted tokens) each end in GLSL or a diagnostic")
    func mutations() {
        var random = SplitMix(seed: 0x5EED_4D53_4C00)
        var outcomes = (compiled: 0, refused: 0)
        for round in 0..<3000 {
            var text = Array(Self.corpus[round % Self.corpus.count].utf8)
            for _ in 0...random.below(3) {
                let at = random.below(text.count)
                switch random.below(4) {
                case 0: text.removeSubrange(at..<min(text.count, at + 1 + random.below(12)))
                case 1:
                    let start = random.below(text.count), end = min(text.count, start + random.below(40))
                    text.insert(contentsOf: text[start..<end], at: at)
                case 2: text.insert(contentsOf: Array(Self.fragments[random.below(Self.fragments.count)].utf8), at: at)
                default: text[at] = UInt8(32 + random.below(95))
                }
            }
            switch compile(String(decoding: text, as: UTF8.self)) {
            case .success: outcomes.compiled += 1
            case .failure(let diagnostic):
                #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(diagnostic)")
                outcomes.refused += 1
            }
        }
        #expect(outcomes.compiled + outcomes.refused == 3000)
        #expect(outcomes.compiled > 0 && outcomes.refused > 0, "\(outcomes)")
    }

    @Test("macros that double at every level and operator chains past the nesting limit are refused")
    func blowUps() {
        var bomb = "#define M0 x\n"
        for level in 1...40 { bomb += "#define M\(level) M\(level - 1) M\(level - 1)\n" }
        #expect(error(bomb + "M40") == "test.metal:42:1: error: unsupported: sources that expand to more than 1048576 tokens")
        let chain = Array(repeating: "1", count: 20000).joined(separator: " + ")
        #expect(error(kernel("    out[i] = \(chain);")).hasSuffix("error: unsupported: nesting deeper than 128 levels"))
        #expect(error("kernel void k(device float* o [[buffer(0)]]) { float a[65536][2]; }")
            == "test.metal:1:56: error: unsupported: arrays of more than 65,536 elements")
    }
}

/// A deterministic generator (SplitMix64), so that a failing mutation can be found again.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (0 when bound is 0).
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
