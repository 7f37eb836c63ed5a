import GPUTestSupport
import SwiftGPUSPIRV
import Testing
@testable import GPU

/// Buffers of Metal structs whose layout std430 cannot give (packed vectors, sizes not
/// rounded to 16 bytes), laid out by the scalar block layout: the bytes are where C (and
/// Swift) put them.
@Suite("Metal buffer layouts", .validated)
struct MetalBufferLayoutTests {
    /// `struct Vertex { packed_float4 position; packed_float2 texCoords; }`: 24 bytes.
    struct Vertex {
        var position: (Float, Float, Float, Float)
        var texCoords: (Float, Float)
    }

    /// `struct Particle { float4 velocity; packed_float2 size; packed_float3 colour; }`:
    /// 36 bytes of members, 48 a step (a float4's alignment).
    struct Particle {
        var velocity: SIMD4<Float>
        var size: (Float, Float)
        var colour: (Float, Float, Float)
    }

    /// `struct Params { packed_float3 scale; float bias; }`: 16 bytes.
    struct Params {
        var scale: (Float, Float, Float)
        var bias: Float
    }

    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        struct Vertex { packed_float4 position; packed_float2 texCoords; };
        struct Particle { float4 velocity; packed_float2 size; packed_float3 colour; };
        struct Params { packed_float3 scale; float bias; };
        kernel void update(device const Vertex *vertices [[buffer(0)]],
                           device Particle *particles [[buffer(1)]],
                           constant Params &params [[buffer(2)]],
                           uint i [[thread_position_in_grid]])
        {
            Vertex v = vertices[i];
            Particle p = particles[i];
            p.velocity = v.position * params.scale.x + params.bias;
            p.size = v.texCoords * params.scale.y;
            p.colour = p.colour * params.scale.z;
            particles[i] = p;
        }
        """

    @Test("packed vectors and a struct with 12 bytes of tail padding are read and written at C's offsets and strides")
    func packedStructs() throws {
        #expect(MemoryLayout<Vertex>.stride == 24)
        #expect(MemoryLayout<Particle>.stride == 48 && MemoryLayout<Particle>.offset(of: \.colour) == 24)
        #expect(MemoryLayout<Params>.size == 16 && MemoryLayout<Params>.offset(of: \.bias) == 12)
        let gpu = try TestGPU()
        #expect(gpu.device.backend.scalarBlockLayout, "lavapipe offers scalarBlockLayout")
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "update"))
        let count = 37
        let vertices = (0..<count).map { i in
            let f = Float(i)
            return Vertex(position: (f, f + 0.25, f + 0.5, f + 0.75), texCoords: (-f, f * 2))
        }
        let particles = (0..<count).map { i in
            let f = Float(i)
            return Particle(velocity: SIMD4(repeating: -9), size: (-9, -9), colour: (f + 100, f + 200, f + 300))
        }
        let params = Params(scale: (2, 3, 0.5), bias: 1)
        let particleBuffer = try gpu.buffer(particles)
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(vertices), particleBuffer, try gpu.buffer([params])], groups: count, width: 1)
        let results = Array(UnsafeBufferPointer(start: particleBuffer.contents().bindMemory(to: Particle.self, capacity: count), count: count))
        for (i, result) in results.enumerated() {
            let f = Float(i)
            #expect(result.velocity == SIMD4(f, f + 0.25, f + 0.5, f + 0.75) * 2 + 1, "particle \(i)")
            #expect(result.size == (-f * 3, f * 6), "particle \(i)")
            #expect(result.colour == ((f + 100) / 2, (f + 200) / 2, (f + 300) / 2), "particle \(i)")
        }
    }

    @Test("a module laid out by the scalar rules names the feature on a device without it; one std430 lays out needs nothing")
    func deviceWithoutScalarLayout() throws {
        let gpu = try TestGPU()
        let scalar = try gpu.device.makeLibrary(source: Self.source, options: nil).makeFunction(name: "update")
        #expect(ShaderCapabilities.scalarBlockLayoutProblem(in: scalar.module.words, deviceOffers: true) == nil)
        #expect(ShaderCapabilities.scalarBlockLayoutProblem(in: scalar.module.words, deviceOffers: false)
            == "it lays a buffer out by the scalar block layout (offsets std430 and std140 do not allow, as for Metal's "
            + "packed vectors), which needs the device feature scalarBlockLayout that this device does not offer")
        let std430 = try gpu.device.makeLibrary(source: MetalSourceLibraryTests.addArrays, options: nil).makeFunction(name: "add_arrays")
        #expect(ShaderCapabilities.scalarBlockLayoutProblem(in: std430.module.words, deviceOffers: false) == nil)
    }

    @Test("a vertex function reads a buffer of 24-byte packed vertices by [[vertex_id]], as Metal by Example's shaders do")
    func packedVertices() throws {
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Vertex { packed_float4 position; packed_float2 texCoords; };
            struct Out { float4 position [[position]]; float2 uv; };
            vertex Out v(const device Vertex* vertices [[buffer(0)]], uint id [[vertex_id]]) {
                Out out;
                out.position = vertices[id].position;
                out.uv = vertices[id].texCoords;
                return out;
            }
            fragment float4 f(Out in [[stage_in]]) { return float4(in.uv, 0, 1); }
            """
        let gpu = try TestGPU()
        let pipeline = try gpu.renderPipeline(try gpu.device.makeLibrary(source: source, options: nil), vertex: "v", fragment: "f")
        // A triangle over the whole target: a 32-byte stride would read the second and third
        // vertices' positions and coordinates from the wrong bytes.
        let vertices = [(Float(-1), Float(-1)), (3, -1), (-1, 3)].map { Vertex(position: ($0.0, $0.1, 0, 1), texCoords: (0.25, 0.75)) }
        let pixels = try MetalSourceLibraryTests().draw(gpu, pipeline, width: 4, height: 4) { encoder in
            encoder.setVertexBuffer(try gpu.buffer(vertices), offset: 0, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        #expect(pixels == Array([[UInt8]](repeating: [64, 191, 0, 255], count: 16).joined()))
    }

    /// `struct Sample { half2 uv; float weight; half gain; }`: 12 bytes, as Swift lays it out.
    struct Sample: Equatable {
        var uv: SIMD2<Float16>
        var weight: Float
        var gain: Float16
    }

    @Test("half in buffers: members and arrays are read and written in 16 bits at C's offsets, compound assignments and ++ included")
    func halfBuffers() throws {
        #expect(MemoryLayout<Sample>.stride == 12 && MemoryLayout<Sample>.offset(of: \.gain) == 8)
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Sample { half2 uv; float weight; half gain; };
            kernel void k(device const Sample* input [[buffer(0)]], device Sample* output [[buffer(1)]],
                          device half4* colours [[buffer(2)]], uint i [[thread_position_in_grid]]) {
                Sample s = input[i];
                output[i].uv = s.uv * 2;
                output[i].weight = s.weight + float(s.gain);
                output[i].gain = s.gain;
                output[i].gain += 1;
                colours[i] = half4(s.uv, s.gain, 1) * half(0.5);
                colours[i].w++;
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "k"))
        let count = 16
        let samples = (0..<count).map { i in Sample(uv: [Float16(i) / 4, -Float16(i)], weight: Float(i) * 10, gain: Float16(i) / 2) }
        let output = try gpu.buffer([Sample](repeating: Sample(uv: .zero, weight: 0, gain: 0), count: count))
        let colours = try gpu.buffer([SIMD4<Float16>](repeating: .zero, count: count))
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(samples), output, colours], groups: count / 4, width: 4)
        let results = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Sample.self, capacity: count), count: count))
        let colourResults = Array(UnsafeBufferPointer(start: colours.contents().bindMemory(to: SIMD4<Float16>.self, capacity: count),
                                                      count: count))
        for (i, sample) in samples.enumerated() {
            #expect(results[i] == Sample(uv: sample.uv * 2, weight: sample.weight + Float(sample.gain), gain: sample.gain + 1), "sample \(i)")
            #expect(colourResults[i] == SIMD4(sample.uv.x / 2, sample.uv.y / 2, sample.gain / 2, 1.5), "colour \(i)")
        }
    }

    /// `struct Flags { bool textured; float scale; bool inverted; }`: Metal's one-byte
    /// bools, 12 bytes, as Swift lays it out.
    struct Flags {
        var textured: Bool
        var scale: Float
        var inverted: Bool
    }

    @Test("bool in buffers takes Metal's one byte: a constant struct's flags are read and a bool array is written")
    func boolBuffers() throws {
        #expect(MemoryLayout<Flags>.stride == 12 && MemoryLayout<Flags>.offset(of: \.inverted) == 8)
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Flags { bool textured; float scale; bool inverted; };
            kernel void k(constant Flags& flags [[buffer(0)]], device const float* input [[buffer(1)]],
                          device float* output [[buffer(2)]], device bool* odd [[buffer(3)]], uint i [[thread_position_in_grid]]) {
                float v = input[i] * (flags.textured ? flags.scale : 1.0);
                output[i] = flags.inverted ? -v : v;
                odd[i] = (i % 2) == 1;
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "k"))
        let input: [Float] = (0..<8).map { Float($0) + 1 }
        for flags in [Flags(textured: true, scale: 3, inverted: false), Flags(textured: false, scale: 3, inverted: true)] {
            let output = try gpu.buffer([Float](repeating: 0, count: 8))
            let odd = try gpu.buffer([UInt8](repeating: 7, count: 8))
            try gpu.dispatch(pipeline, buffers: [try gpu.buffer([flags]), try gpu.buffer(input), output, odd], groups: 2, width: 4)
            let values = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 8), count: 8))
            let bytes = Array(UnsafeBufferPointer(start: odd.contents().bindMemory(to: UInt8.self, capacity: 8), count: 8))
            #expect(values == input.map { ($0 * (flags.textured ? flags.scale : 1)) * (flags.inverted ? -1 : 1) })
            #expect(bytes == [0, 1, 0, 1, 0, 1, 0, 1])
        }
    }
}
