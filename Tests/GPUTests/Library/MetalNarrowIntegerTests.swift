import GPUTestSupport
import SwiftGPUSPIRV
import Testing
@testable import GPU

/// Metal's 8- and 16-bit integers (`char`, `uchar`, `short`, `ushort` and their vectors)
/// compiled at run time: held in 32 bits, wrapped wherever C++ narrows, so results match
/// Metal's bit for bit; vertex attributes read them from integer vertex formats; buffers
/// hold them in GLSL's 8- and 16-bit storage types.
@Suite("Run-time Metal Shading Language 8- and 16-bit integers", .validated)
struct MetalNarrowIntegerTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        static short negate(short value) { return -value; }
        kernel void narrow(device const int* input [[buffer(0)]], device int* out [[buffer(1)]],
                           ushort i [[thread_position_in_grid]]) {
            int v = input[i];
            uchar a = v;
            char b = v;
            ushort c = v * 300;
            short d = v * 300;
            uchar e = a;
            e += 200;
            char f = b;
            f++;
            char g = b;
            int old = g--;
            uchar4 h = uchar4(a, 250, 3, 128) + uchar4(10);
            char2 k = char2(b, 100) * char2(3);
            uchar n = ~a;
            ushort p = c;
            p <<= 4;
            short q = d;
            q /= 7;
            int sum = a + b;
            char magnitude = abs(b);
            uint base = uint(i) * 19;
            out[base + 0] = a;
            out[base + 1] = b;
            out[base + 2] = c;
            out[base + 3] = d;
            out[base + 4] = e;
            out[base + 5] = f;
            out[base + 6] = g;
            out[base + 7] = old;
            out[base + 8] = h.x;
            out[base + 9] = h.y;
            out[base + 10] = k.x;
            out[base + 11] = k.y;
            out[base + 12] = n;
            out[base + 13] = p;
            out[base + 14] = q;
            out[base + 15] = sum;
            out[base + 16] = negate(d);
            out[base + 17] = i;
            out[base + 18] = magnitude;
        }
        """

    /// What Metal computes for one input, by Swift's wrapping conversions.
    static func expected(_ v: Int32, _ i: Int) -> [Int32] {
        let a = UInt8(truncatingIfNeeded: v), b = Int8(truncatingIfNeeded: v)
        let c = UInt16(truncatingIfNeeded: v &* 300), d = Int16(truncatingIfNeeded: v &* 300)
        let e = a &+ 200, f = b &+ 1, g = b &- 1
        let h = (a &+ 10, UInt8(250) &+ 10)
        let k = (b &* 3, Int8(100) &* 3)
        let n = ~a, p = c << 4, q = d / 7
        return [Int32(a), Int32(b), Int32(c), Int32(d), Int32(e), Int32(f), Int32(g), Int32(b), Int32(h.0), Int32(h.1),
                Int32(k.0), Int32(k.1), Int32(n), Int32(p), Int32(q), Int32(a) + Int32(b), Int32(Int16(truncatingIfNeeded: -Int32(d))),
                Int32(i), Int32(b == Int8.min ? b : abs(b))]
    }

    @Test("conversions, compound assignments, increments, vectors, abs and a helper's short wrap as Metal's 8- and 16-bit integers do")
    func arithmetic() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "narrow"))
        let inputs: [Int32] = [0, 1, 127, 128, 255, 256, -1, -128, -129, 1000, 70000, -70000, 32767, 32768, 109, -110]
        let output = try gpu.buffer([Int32](repeating: 0, count: inputs.count * 19))
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(inputs), output], groups: 1, width: inputs.count)
        let results = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Int32.self, capacity: inputs.count * 19),
                                                count: inputs.count * 19))
        for (index, input) in inputs.enumerated() {
            #expect(Array(results[(index * 19)..<(index * 19 + 19)]) == Self.expected(input, index), "input \(input)")
        }
    }

    @Test("8- and 16-bit integers in varyings, and a whole struct of them assigned to a buffer, are refused, naming the type")
    func refusals() throws {
        let gpu = try TestGPU()
        #expect(gpu.metalMessages(usingMetal: "struct P { float x; short y; };\nkernel void k(device P* p [[buffer(0)]]) { p[0] = P(); }")
            == "program_source:4:44: error: unsupported: assigning a whole 'P' that holds 8- or 16-bit values in a buffer (assign its members)")
        #expect(gpu.metalMessages(usingMetal: "struct O { float4 p [[position]]; ushort2 id; };\nvertex O v() { return O(); }")
            == "program_source:3:43: error: unsupported: 8- and 16-bit integers passed between stages ('ushort2'; SwiftGPU enables no 8- or 16-bit stage inputs and outputs)")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(device float* o [[buffer(0)]], uchar i [[thread_position_in_grid]]) { o[i] = 1; }")
            == "program_source:3:52: error: unsupported: [[thread_position_in_grid]] of type 'uchar' (8- and 16-bit integer types)")
    }

    static let attributes = """
        #include <metal_stdlib>
        using namespace metal;
        struct In {
            float2 position [[attribute(0)]];
            ushort4 joints [[attribute(1)]];
            short2 offsets [[attribute(2)]];
            uchar4 bytes [[attribute(3)]];
            char2 signedBytes [[attribute(4)]];
        };
        struct Out { float4 position [[position]]; float4 colour; };
        vertex Out v(In in [[stage_in]]) {
            ushort4 next = in.joints + ushort4(1);
            bool same = all(in.joints == ushort4(1, 300, 40000, 65535)) && all(in.offsets == short2(-32768, 1234))
                && all(in.bytes == uchar4(0, 7, 128, 255)) && all(in.signedBytes == char2(-128, 127))
                && all(next == ushort4(2, 301, 40001, 0)) && in.offsets.x - 1 == -32769;
            Out out;
            out.position = float4(in.position, 0, 1);
            out.colour = same ? float4(0, 1, 0, 1) : float4(1, 0, 0, 1);
            return out;
        }
        fragment float4 f(Out in [[stage_in]]) { return in.colour; }
        """

    /// One vertex's bytes: a float2 position, then ushort4, short2, uchar4 and char2
    /// attributes: 26 bytes, a stride of 28.
    struct Vertex {
        var position: (Float, Float)
        var joints: (UInt16, UInt16, UInt16, UInt16)
        var offsets: (Int16, Int16)
        var bytes: (UInt8, UInt8, UInt8, UInt8)
        var signedBytes: (Int8, Int8)
    }

    @Test("ushort4, short2, uchar4 and char2 vertex attributes read their formats' values, extremes included, and wrap as Metal's")
    func vertexAttributes() throws {
        #expect(MemoryLayout<Vertex>.offset(of: \.joints) == 8 && MemoryLayout<Vertex>.offset(of: \.offsets) == 16
                && MemoryLayout<Vertex>.offset(of: \.bytes) == 20 && MemoryLayout<Vertex>.offset(of: \.signedBytes) == 24)
        let gpu = try TestGPU()
        let layout = VertexDescriptor()
        for (index, (format, offset)) in [(VertexFormat.float2, 0), (.ushort4, 8), (.short2, 16), (.uchar4, 20), (.char2, 24)].enumerated() {
            layout.attributes[index].format = format
            layout.attributes[index].offset = offset
        }
        layout.layouts[0].stride = MemoryLayout<Vertex>.stride
        let pipeline = try gpu.renderPipeline(try gpu.device.makeLibrary(source: Self.attributes, options: nil), vertex: "v", fragment: "f",
                                              vertexDescriptor: layout)
        // A triangle over the whole 4×4 target, every vertex with the same integers.
        let vertices = [(Float(-1), Float(-1)), (3, -1), (-1, 3)].map { position in
            Vertex(position: position, joints: (1, 300, 40000, 65535), offsets: (-32768, 1234), bytes: (0, 7, 128, 255),
                   signedBytes: (-128, 127))
        }
        let pixels = try MetalSourceLibraryTests().draw(gpu, pipeline, width: 4, height: 4) { encoder in
            encoder.setVertexBuffer(try gpu.buffer(vertices), offset: 0, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        #expect(pixels == Array([[UInt8]](repeating: [0, 255, 0, 255], count: 16).joined()))
    }

    static let buffers = """
        #include <metal_stdlib>
        using namespace metal;
        struct Texel { uchar4 colour; short2 offset; ushort weight; char bias; };
        kernel void k(device const Texel* texels [[buffer(0)]], device Texel* out [[buffer(1)]],
                      device uchar* bytes [[buffer(2)]], constant short2& delta [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
            Texel t = texels[i];
            out[i].colour = texels[i].colour + uchar4(200);
            out[i].offset = t.offset + delta;
            out[i].weight = texels[i].weight;
            out[i].weight *= 3;
            out[i].weight++;
            out[i].bias = -t.bias;
            bytes[i] = texels[i].colour.y;
            bytes[i] += 100;
        }
        """

    /// `struct Texel { uchar4 colour; short2 offset; ushort weight; char bias; }`: 11 bytes,
    /// a stride of 12.
    struct Texel: Equatable {
        var colour: SIMD4<UInt8>
        var offset: SIMD2<Int16>
        var weight: UInt16
        var bias: Int8
    }

    @Test("buffers of uchar4, short2, ushort and char members are read and written at C's offsets, and wrap as Metal's")
    func narrowBuffers() throws {
        #expect(MemoryLayout<Texel>.stride == 12 && MemoryLayout<Texel>.offset(of: \.weight) == 8 && MemoryLayout<Texel>.offset(of: \.bias) == 10)
        let gpu = try TestGPU()
        #expect(gpu.device.backend.narrowStorageFeatures == ["storageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess",
                                                             "storageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess"])
        let function = try gpu.device.makeLibrary(source: Self.buffers, options: nil).makeFunction(name: "k")
        let pipeline = try gpu.device.makeComputePipelineState(function: function)
        let count = 64
        let texels = (0..<count).map { (i: Int) -> Texel in
            let colour = SIMD4<UInt8>(UInt8(i * 4), UInt8(255 - i), UInt8(i * 3 + 1), 255)
            let offset = SIMD2<Int16>(Int16(i * 1000 - 32000), Int16(-i))
            return Texel(colour: colour, offset: offset, weight: UInt16(i * 1000), bias: Int8(i * 4 - 128))
        }
        let delta = SIMD2<Int16>(1000, -32000)
        let output = try gpu.buffer([Texel](repeating: Texel(colour: .zero, offset: .zero, weight: 0, bias: 0), count: count))
        let bytes = try gpu.buffer([UInt8](repeating: 0, count: count))
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(texels), output, bytes, try gpu.buffer([delta])], groups: count / 8, width: 8)
        let results = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Texel.self, capacity: count), count: count))
        let byteResults = Array(UnsafeBufferPointer(start: bytes.contents().bindMemory(to: UInt8.self, capacity: count), count: count))
        for (i, texel) in texels.enumerated() {
            let expected = Texel(colour: texel.colour &+ SIMD4(repeating: 200), offset: texel.offset &+ delta,
                                 weight: texel.weight &* 3 &+ 1, bias: 0 &- texel.bias)
            #expect(results[i] == expected, "texel \(i)")
            #expect(byteResults[i] == texel.colour.y &+ 100, "byte \(i)")
        }
    }

    @Test("a module with 8- or 16-bit storage names the feature it needs on a device without it")
    func narrowStorageFeatures() throws {
        let gpu = try TestGPU()
        let words = try gpu.device.makeLibrary(source: Self.buffers, options: nil).makeFunction(name: "k").module.words
        let all = gpu.device.backend.narrowStorageFeatures
        #expect(ShaderCapabilities.featureProblem(in: words, enabled: all) == nil)
        for feature in ["storageBuffer8BitAccess", "storageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess"] {
            let capability = feature.prefix(1).uppercased() + feature.dropFirst()
            #expect(ShaderCapabilities.featureProblem(in: words, enabled: all.subtracting([feature]))
                == "it declares the capability \(capability), which needs the device feature \(feature) that this device does not offer")
        }
    }
}
