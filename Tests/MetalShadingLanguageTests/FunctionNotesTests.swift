import MetalShadingLanguage
import Testing

@Suite("Function notes")
struct FunctionNotesTests {
    /// The notes of `source`'s entry point `name`; empty notes, and an issue, when there is none.
    static func notes(_ source: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> FunctionNotes {
        guard case .success(let entries) = compile(source), let entry = entries.first(where: { $0.name == name }) else {
            Issue.record("\(name) did not compile", sourceLocation: sourceLocation)
            return FunctionNotes()
        }
        return entry.notes
    }

    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        constant bool tinted [[function_constant(4)]];
        fragment float4 paint(float4 p [[position]], texture2d<float> image [[texture(3)]], texture2d<float> depth [[texture(1)]],
                              constant float4& tint [[buffer(2), function_constant(tinted)]]) {
            constexpr sampler tiles(filter::linear, mip_filter::nearest, s_address::repeat, t_address::mirrored_repeat,
                                    border_color::opaque_white, compare_func::less_equal, coord::pixel, max_anisotropy(8),
                                    lod_clamp(0.5, 2.25));
            constexpr sampler plain;
            float4 color = is_null_texture(image) ? float4(1, 0, 0, 1) : image.sample(tiles, p.xy);
            color += depth.sample(plain, p.xy);
            return tinted ? color * tint : color;
        }
        kernel void grid(device uint* out [[buffer(0)]], uint n [[threads_per_grid]], threadgroup float4* shared [[threadgroup(2)]]) {
            shared[0] = float4(n);
            out[0] = n + uint(shared[0].x);
        }
        kernel void none(device uint* out [[buffer(0)]]) { out[0] = 1; }
        """

    @Test("a function's notes, as text: a sampler's every setting, conditions, nullable textures and the grid, each at its binding")
    func text() {
        // Constant samplers take the highest sampler indices the function leaves free; fragment texture 3 is binding 99,
        // fragment buffer 2 binding 66; 0.5 is 0x3f000000, 2.25 0x40100000, FLT_MAX 0x7f7fffff.
        #expect(Self.notes(Self.source, "paint").text == """
            SwiftGPU MSL notes 1
            sampler 14 nearest nearest none clamp_to_edge clamp_to_edge clamp_to_edge transparent_black - normalized 1 0 7f7fffff
            sampler 15 linear linear nearest repeat mirrored_repeat clamp_to_edge opaque_white less_equal pixel 8 3f000000 40100000
            conditional 66 4
            nullable 99
            """)
        // Threadgroup argument 2's element count is specialization constant 2018; a float4 is 16 bytes.
        #expect(Self.notes(Self.source, "grid").text == "SwiftGPU MSL notes 1\ngrid 31\nthreadgroup 2 2018 16")
        #expect(Self.notes(Self.source, "none").isEmpty)
    }

    @Test("notes read back from their text are the same notes")
    func roundTrip() throws {
        for name in ["paint", "grid", "none"] {
            let notes = Self.notes(Self.source, name)
            #expect(try FunctionNotes(text: notes.text) == notes, "\(name)")
        }
    }

    @Test("a text not as the compilers write it is refused, naming its line")
    func refused() {
        let header = FunctionNotes.header + "\n"
        let sampler = "sampler 0 linear linear none repeat repeat repeat transparent_black - normalized"
        let grey = "sampler 0 linear linear none repeat repeat repeat grey - normalized"
        for (text, reason) in [
            ("SwiftGPU MSL notes 2", "the first line is not 'SwiftGPU MSL notes 1'"),
            (header + "grid", "line 2 ('grid'): not a line of the notes"),
            (header + "grid -1", "line 2 ('grid -1'): field 2 is not a whole number"),
            (header + "grid 31\ngrid 31", "line 3 ('grid 31'): a second grid index"),
            (header + "conditional 66 1\nconditional 66 2", "line 3 ('conditional 66 2'): a second condition for binding 66"),
            (header + "\(sampler) 1 0 7f7fffff\n\(sampler) 1 0 7f7fffff",
             "line 3 ('\(sampler) 1 0 7f7fffff'): a second sampler at index 0"),
            (header + "\(sampler) 17 0 7f7fffff", "line 2 ('\(sampler) 17 0 7f7fffff'): the anisotropy '17' is not a number in 1...16"),
            (header + "\(sampler) 1 40000000 3f800000",
             "line 2 ('\(sampler) 1 40000000 3f800000'): the LOD bounds are not the bits of two numbers with 0 ≤ minimum ≤ maximum"),
            (header + "\(sampler) 1 7fc00000 7f7fffff",
             "line 2 ('\(sampler) 1 7fc00000 7f7fffff'): the LOD bounds are not the bits of two numbers with 0 ≤ minimum ≤ maximum"),
            (header + grey + " 1 0 7f7fffff", "line 2 ('\(grey) 1 0 7f7fffff'): 'grey' is not a BorderColor of a sampler"),
        ] {
            do {
                _ = try FunctionNotes(text: text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.reason == reason)
            }
        }
    }
}
