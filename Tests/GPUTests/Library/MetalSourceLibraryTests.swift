import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Metal Shading Language compiled at run time by `makeLibrary(source:options:)`: the front
/// end's GLSL through glslang, bound at Metal's indices, run on the device.
@Suite("Run-time Metal Shading Language", .validated)
struct MetalSourceLibraryTests {
    /// Apple's "Performing Calculations on a GPU" kernel, as the sample writes it: buffer
    /// arguments without attributes take indices 0, 1 and 2 in order.
    static let addArrays = """
        /*
        See LICENSE folder for this sample's licensing information.
        Abstract: A shader that adds two arrays of floats.
        */
        #include <metal_stdlib>
        using namespace metal;
        /// This is a Metal Shading Language (MSL) function equivalent to the add_arrays() C function, used to perform the calculation on a GPU.
        kernel void add_arrays(device const float* inA,
                               device const float* inB,
                               device float* result,
                               uint index [[thread_position_in_grid]])
        {
            // the for-loop is replaced with a collection of threads, each of which
            // calls this function.
            result[index] = inA[index] + inB[index];
        }
        """

    /// Runs `pipeline` over `count` threads with buffers 0... bound to `inputs` and a last
    /// buffer of `count` floats for the output (-1 before the dispatch), which it returns;
    /// `bytes` go to the index after the output.
    func dispatch(_ gpu: TestGPU, _ pipeline: ComputePipelineState, inputs: [[Float]], count: Int,
                  bytes: [UInt8]? = nil) throws -> [Float] {
        let output = try gpu.buffer([Float](repeating: -1, count: count))
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        for (index, input) in inputs.enumerated() { encoder.setBuffer(try gpu.buffer(input), offset: 0, index: index) }
        encoder.setBuffer(output, offset: 0, index: inputs.count)
        if var bytes { encoder.setBytes(&bytes, length: bytes.count, index: inputs.count + 1) }
        let width = min(pipeline.maxTotalThreadsPerThreadgroup, count)
        encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: width))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        return Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: count), count: count))
    }

    /// Draws with `pipeline` into a cleared `width`×`height` RGBA8 target, `encode` binding
    /// and drawing, and returns the target's texels.
    func draw(_ gpu: TestGPU, _ pipeline: RenderPipelineState, width: Int, height: Int,
              _ encode: (RenderCommandEncoder) throws -> Void) throws -> [UInt8] {
        let target = try gpu.renderTarget(width: width, height: height)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(pipeline)
        try encode(encoder)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        return try gpu.pixels(of: target)
    }

    @Test("Apple's add_arrays sample, unchanged, adds 1,000 floats at the indices Metal gives its arguments")
    func addArraysSample() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.addArrays, options: nil)
        #expect(library.functionNames == ["add_arrays"])
        let function = try library.makeFunction(name: "add_arrays")
        #expect(function.functionType == .kernel)
        let pipeline = try gpu.device.makeComputePipelineState(function: function)
        #expect(pipeline.specializesLocalSize)
        let a = (0..<1000).map { Float($0) * 0.5 }, b = (0..<1000).map { Float(1000 - $0) }
        let sum = try dispatch(gpu, pipeline, inputs: [a, b], count: 1000)
        #expect(sum == zip(a, b).map { $0 + $1 })
    }

    @Test("a kernel with a constant struct, a helper with a thread reference, loops, integer and math functions computes what C computes")
    func kernelArithmetic() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            #define STEPS 4
            struct Params { uint count; float scale; float3 offset; float bias; };
            static float accumulate(float x, thread float& total) {
                total += x;
                return x * 2;
            }
            kernel void compute(device const float* input [[buffer(0)]],
                                device float* output [[buffer(1)]],
                                constant Params& params [[buffer(2)]],
                                uint2 position [[thread_position_in_grid]])
            {
                uint i = position.x;
                if (i >= params.count) { return; }
                float total = 0;
                for (int k = 0; k < STEPS; ++k) { total += params.offset[k % 3]; }
                int j = int(i) - 50;
                int remainder = j % 7;
                uint steps = 0;
                while (steps < i % 5) { steps++; }
                float value = accumulate(input[i], total) * params.scale + params.bias;
                value += float(remainder) + float(steps) + fmod(float(j), 4.0f) + round(float(j) / 4.0f);
                output[i] = value + clamp(total, 0.0f, 100.0f) + max(abs(float(j)), 3.0) + select(0.0f, 1.0f, j < 0);
            }
            """
        let library = try gpu.device.makeLibrary(source: source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "compute"))
        let count = 200
        let input = (0..<count).map { Float($0) / 3 }
        // Params in Metal's layout: count at 0, scale at 4, offset at 16 (a float3 takes 16 bytes), bias at 32.
        var params = [UInt8](repeating: 0, count: 48)
        func put<T>(_ value: T, at offset: Int) { withUnsafeBytes(of: value) { params.replaceSubrange(offset..<(offset + $0.count), with: $0) } }
        put(UInt32(count - 10), at: 0)
        put(Float(1.5), at: 4)
        put(Float(0.25), at: 16)
        put(Float(0.5), at: 20)
        put(Float(1), at: 24)
        put(Float(-2), at: 32)
        let output = try dispatch(gpu, pipeline, inputs: [input], count: count, bytes: params)
        for i in 0..<count {
            guard i < count - 10 else {
                #expect(output[i] == -1, "thread \(i) is past params.count")
                continue
            }
            var total: Float = 0.25 + 0.5 + 1 + 0.25
            let j = i - 50
            total += input[i]
            var value = input[i] * 2 * 1.5 + -2
            let cRound = (Float(j) / 4).rounded(.toNearestOrAwayFromZero)
            value += Float(j % 7) + Float(i % 5) + fmodf(Float(j), 4) + cRound
            let expected = value + min(max(total, 0), 100) + max(abs(Float(j)), 3) + (j < 0 ? 1 : 0)
            #expect(abs(output[i] - expected) <= 1e-4 * max(1, abs(expected)), "thread \(i): \(output[i]) against \(expected)")
        }
    }

    /// A triangle through a vertex descriptor and a constant uniforms struct with a
    /// float4x4, and a fragment function returning a struct with [[color(0)]].
    static let triangle = """
        #include <metal_stdlib>
        using namespace metal;
        struct VertexIn {
            float2 position [[attribute(0)]];
            float4 color [[attribute(1)]];
        };
        struct VertexOut {
            float4 position [[position]];
            float4 color;
        };
        struct Uniforms { float4x4 transform; float4 tint; };
        struct FragmentOut { float4 color [[color(0)]]; };
        vertex VertexOut vertex_main(VertexIn in [[stage_in]], constant Uniforms& uniforms [[buffer(1)]]) {
            VertexOut out;
            out.position = uniforms.transform * float4(in.position, 0.0, 1.0);
            out.color = in.color;
            return out;
        }
        fragment FragmentOut fragment_main(VertexOut in [[stage_in]], constant Uniforms& uniforms [[buffer(0)]]) {
            FragmentOut out;
            out.color = in.color * uniforms.tint;
            return out;
        }
        """

    @Test("a vertex function with [[stage_in]] attributes and a float4x4 uniform, and a fragment function returning [[color(0)]], draw a triangle")
    func triangleWithVertexDescriptor() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.triangle, options: nil)
        #expect(library.functionNames == ["fragment_main", "vertex_main"])
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "vertex_main")
        descriptor.fragmentFunction = try library.makeFunction(name: "fragment_main")
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[1].format = .float4
        vertices.attributes[1].offset = 8
        vertices.layouts[0].stride = 24
        descriptor.vertexDescriptor = vertices
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        // Moved left by 1 and stretched up by 2 by the transform, the triangle has its corners
        // at (-1, -1), (1, -1) and (-1, 1) in clip space: the lower-left half of the target.
        // Tinted to (0, 1, 0, 1), green.
        let triangle: [Float] = [0, -0.5, 0, 1, 0, 1, 2, -0.5, 0, 1, 0, 1, 0, 0.5, 0, 1, 0, 1]
        let transform: [Float] = [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1]
        var uniforms = transform + [1, 1, 1, 1]
        var tint: [Float] = transform + [0, 1, 0, 1]
        let pixels = try draw(gpu, pipeline, width: 8, height: 8) { encoder in
            encoder.setVertexBuffer(try gpu.buffer(triangle), offset: 0, index: 0)
            encoder.setVertexBytes(&uniforms, length: uniforms.count * 4, index: 1)
            encoder.setFragmentBytes(&tint, length: tint.count * 4, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        // Below the diagonal (rows count down from the top) is green, above it clear.
        for y in 0..<8 {
            for x in 0..<8 where x != y {
                #expect(texel(pixels, width: 8, x: x, y: y) == (x < y ? [0, 255, 0, 255] : [0, 0, 0, 255]), "texel (\(x), \(y))")
            }
        }
    }

    @Test("Apple's Hello Triangle shaders: vertices from a buffer by [[vertex_id]], enum indices from a header, colours interpolated")
    func helloTriangle() throws {
        let gpu = try TestGPU()
        let folder = try TemporaryFolder("swiftgpu-msl")
        try """
            #ifndef AAPLShaderTypes_h
            #define AAPLShaderTypes_h
            #include <simd/simd.h>
            typedef enum AAPLVertexInputIndex
            {
                AAPLVertexInputIndexVertices     = 0,
                AAPLVertexInputIndexViewportSize = 1,
            } AAPLVertexInputIndex;
            typedef struct
            {
                vector_float2 position;
                vector_float4 color;
            } AAPLVertex;
            #endif
            """.write(toFile: folder.path + "/AAPLShaderTypes.h", atomically: true, encoding: .utf8)
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            #include "AAPLShaderTypes.h"
            struct RasterizerData
            {
                float4 position [[position]];
                float4 color;
            };
            vertex RasterizerData
            vertexShader(uint vertexID [[vertex_id]],
                         constant AAPLVertex *vertices [[buffer(AAPLVertexInputIndexVertices)]],
                         constant vector_uint2 *viewportSizePointer [[buffer(AAPLVertexInputIndexViewportSize)]])
            {
                RasterizerData out;
                float2 pixelSpacePosition = vertices[vertexID].position.xy;
                vector_float2 viewportSize = vector_float2(*viewportSizePointer);
                out.position = vector_float4(0.0, 0.0, 0.0, 1.0);
                out.position.xy = pixelSpacePosition / (viewportSize / 2.0);
                out.color = vertices[vertexID].color;
                return out;
            }
            fragment float4 fragmentShader(RasterizerData in [[stage_in]])
            {
                return in.color;
            }
            """
        let options = CompileOptions()
        options.includeFolders = [folder.path]
        let library = try gpu.device.makeLibrary(source: source, options: options)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "vertexShader")
        descriptor.fragmentFunction = try library.makeFunction(name: "fragmentShader")
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
        // AAPLVertex: float2 at 0, float4 at 16, 32 bytes. The lower-left half of the 16×16
        // target in pixels from its centre (y up): red, green and blue corners.
        let vertices: [Float] = [-8, -8, 0, 0, 1, 0, 0, 1, 8, -8, 0, 0, 0, 1, 0, 1, -8, 8, 0, 0, 0, 0, 1, 1]
        var viewport: [UInt32] = [16, 16]
        let pixels = try draw(gpu, pipeline, width: 16, height: 16) { encoder in
            encoder.setVertexBuffer(try gpu.buffer(vertices), offset: 0, index: 0)
            encoder.setVertexBytes(&viewport, length: 8, index: 1)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        // Each corner's texel is mostly its vertex's colour; the upper-right half is clear.
        let lowerLeft = texel(pixels, width: 16, x: 0, y: 15), lowerRight = texel(pixels, width: 16, x: 13, y: 15)
        let upperLeft = texel(pixels, width: 16, x: 0, y: 2)
        #expect(lowerLeft[0] > 200 && lowerLeft[1] < 40 && lowerLeft[2] < 40, "\(lowerLeft)")
        #expect(lowerRight[1] > 180 && lowerRight[0] < 60 && lowerRight[2] < 60, "\(lowerRight)")
        #expect(upperLeft[2] > 180 && upperLeft[0] < 60 && upperLeft[1] < 60, "\(upperLeft)")
        #expect(texel(pixels, width: 16, x: 15, y: 0) == [0, 0, 0, 255])
        #expect(texel(pixels, width: 16, x: 9, y: 6) == [0, 0, 0, 255])
    }

    /// A 2×2 texture: red, green / blue, white.
    func checkerTexture(_ gpu: TestGPU, usage: TextureUsage = .shaderRead) throws -> Texture {
        let descriptor = TextureDescriptor.texture2D(pixelFormat: .rgba8Unorm, width: 2, height: 2, mipmapped: false)
        descriptor.usage = usage
        let image = try gpu.device.makeTexture(descriptor: descriptor)
        let texels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        image.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: texels, bytesPerRow: 8)
        return image
    }

    @Test("a texture sampled with a sampler argument and with a constexpr sampler, on a quad from a vertex buffer")
    func sampledTexture() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Vertex { float2 position; float2 uv; };
            struct Varyings { float4 position [[position]]; float2 uv; };
            constexpr sampler nearestRepeat(filter::nearest, address::repeat);
            vertex Varyings quad(const device Vertex* vertices [[buffer(0)]], uint id [[vertex_id]]) {
                Varyings out;
                out.position = float4(vertices[id].position, 0, 1);
                out.uv = vertices[id].uv;
                return out;
            }
            fragment float4 sampled(Varyings in [[stage_in]], texture2d<float> image [[texture(0)]], sampler s [[sampler(0)]]) {
                return image.sample(s, in.uv);
            }
            fragment half4 tiled(Varyings in [[stage_in]], texture2d<half> image [[texture(0)]]) {
                return image.sample(nearestRepeat, in.uv * 2.0);
            }
            """
        let library = try gpu.device.makeLibrary(source: source, options: nil)
        #expect(library.functionNames == ["quad", "sampled", "tiled"])
        let quad: [Float] = [-1, 1, 0, 0, 1, 1, 1, 0, 1, -1, 1, 1, -1, 1, 0, 0, 1, -1, 1, 1, -1, -1, 0, 1]
        let image = try checkerTexture(gpu)
        let nearest = try gpu.device.makeSamplerState(descriptor: SamplerDescriptor())
        func draw(_ fragment: String, sampler: SamplerState?) throws -> [UInt8] {
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try library.makeFunction(name: "quad")
            descriptor.fragmentFunction = try library.makeFunction(name: fragment)
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
            return try self.draw(gpu, pipeline, width: 8, height: 8) { encoder in
                encoder.setVertexBuffer(try gpu.buffer(quad), offset: 0, index: 0)
                encoder.setFragmentTexture(image, index: 0)
                if let sampler { encoder.setFragmentSamplerState(sampler, index: 0) }
                encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
            }
        }
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        let white: [UInt8] = [255, 255, 255, 255]
        let sampled = try draw("sampled", sampler: nearest)
        #expect(texel(sampled, width: 8, x: 1, y: 1) == red)
        #expect(texel(sampled, width: 8, x: 6, y: 1) == green)
        #expect(texel(sampled, width: 8, x: 1, y: 6) == blue)
        #expect(texel(sampled, width: 8, x: 6, y: 6) == white)
        // Twice the coordinates with address::repeat: the 2×2 image four times.
        let tiled = try draw("tiled", sampler: nil)
        for (x, y, color) in [(0, 0, red), (3, 0, green), (4, 0, red), (7, 1, green), (0, 7, blue), (7, 7, white), (4, 4, red)] {
            #expect(texel(tiled, width: 8, x: x, y: y) == color, "texel (\(x), \(y))")
        }
    }

    @Test("a kernel reads a texture with read() and its size with get_width() and get_height()")
    func textureRead() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            kernel void unpack(texture2d<float, access::read> image [[texture(0)]],
                               device float4* texels [[buffer(0)]],
                               uint2 gid [[thread_position_in_grid]]) {
                if (gid.x >= image.get_width() || gid.y >= image.get_height()) return;
                texels[gid.y * image.get_width() + gid.x] = image.read(gid);
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "unpack"))
        let output = try gpu.device.makeBuffer(length: 4 * 16)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setTexture(try checkerTexture(gpu), index: 0)
        encoder.setBuffer(output, offset: 0, index: 0)
        encoder.dispatchThreads(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 2, height: 2))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        let values = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 16), count: 16))
        #expect(values == [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1])
    }

    @Test("a threadgroup reduction: threadgroup memory, threadgroup_barrier and the threadgroup built-ins")
    func threadgroupReduction() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            kernel void partial_sums(device const float* input [[buffer(0)]],
                                     device float* sums [[buffer(1)]],
                                     uint global [[thread_position_in_grid]],
                                     uint local [[thread_position_in_threadgroup]],
                                     uint index [[thread_index_in_threadgroup]],
                                     uint group [[threadgroup_position_in_grid]],
                                     uint size [[threads_per_threadgroup]]) {
                threadgroup float shared[64];
                shared[local] = input[global];
                threadgroup_barrier(mem_flags::mem_threadgroup);
                for (uint stride = size / 2; stride > 0; stride /= 2) {
                    if (index < stride) { shared[index] += shared[index + stride]; }
                    threadgroup_barrier(mem_flags::mem_threadgroup);
                }
                if (index == 0) { sums[group] = shared[0]; }
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "partial_sums"))
        let input = (0..<256).map { Float($0) }
        let sums = try gpu.buffer([Float](repeating: -1, count: 4))
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(input), sums], groups: 4, width: 64)
        let values = Array(UnsafeBufferPointer(start: sums.contents().bindMemory(to: Float.self, capacity: 4), count: 4))
        let expected: [Float] = (0..<4).map { group in
            var sum: Float = 0
            for offset in 0..<64 { sum += Float(group * 64 + offset) }
            return sum
        }
        #expect(values == expected)
    }

    @Test("every texture kind and member function, the vertex and fragment built-ins, discard, switch and as_type compile, validate and make pipelines")
    func languageCoverage() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            struct Out { float4 position [[position]]; float size [[point_size]]; int layer [[flat]];
                         float2 uv [[center_no_perspective]]; };
            struct In { float4 position [[position]]; int layer [[flat]]; float2 uv [[center_no_perspective]]; };
            struct Colors { float4 color [[color(0)]]; float depth [[depth(any)]]; };
            vertex Out points(uint id [[vertex_id]], uint instance [[instance_id]]) {
                Out out;
                out.position = float4(float(id % 2), float(instance), 0, 1);
                out.size = 4;
                out.layer = int(id);
                out.uv = float2(0.5);
                return out;
            }
            fragment Colors shade(In in [[stage_in]], bool front [[front_facing]], float2 point [[point_coord]],
                                  texture2d_array<float> layers [[texture(0)]], texture3d<float> volume [[texture(1)]],
                                  texturecube<float> cube [[texture(2)]], depth2d<float> shadow [[texture(3)]],
                                  texture2d<uint> ids [[texture(4)]], sampler s [[sampler(0)]]) {
                float4 sum = layers.sample(s, in.uv, uint(in.layer)) + volume.sample(s, float3(in.uv, 0.5), level(0))
                    + cube.sample(s, float3(1, 0, 0), bias(1)) + float4(shadow.sample(s, point));
                sum += layers.read(uint2(0), 0) + volume.read(uint3(0)) + float4(ids.read(uint2(in.position.xy)));
                uint size = layers.get_width() + layers.get_height() + layers.get_array_size() + volume.get_depth()
                    + ids.get_num_mip_levels() + as_type<uint>(sum.x);
                switch (size % 3) {
                case 0: sum.x = 1; break;
                case 1: sum.y = 1; break;
                default: do { sum.z += 0.25; } while (sum.z < 1);
                }
                if (!front || sum.w < 0) { discard_fragment(); }
                Colors result;
                result.color = saturate(sum * as_type<float>(0x3f800000u));
                result.depth = 0.5;
                return result;
            }
            """
        let library = try gpu.device.makeLibrary(source: source, options: nil)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "points")
        descriptor.fragmentFunction = try library.makeFunction(name: "shade")
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        descriptor.depthAttachmentPixelFormat = .depth32Float
        _ = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    @Test("the SPIRVCompiler plugin compiles a .metal file of the Shaders target: each entry point is a function of the bundle, found by its MSL name")
    func buildTimeMetal() throws {
        let gpu = try TestGPU()
        #expect(gpu.library.functionNames.contains("msl_scale.comp") && gpu.library.functionNames.contains("msl_negate.comp"))
        let scale = try gpu.device.makeComputePipelineState(function: try gpu.library.makeFunction(name: "msl_scale"))
        let input = (0..<100).map { Float($0) }
        // Scale in Metal's layout: factor at 0, offset at 4.
        let parameters: [Float] = [3, -1]
        let bytes = parameters.withUnsafeBytes { Array($0) }
        #expect(try dispatch(gpu, scale, inputs: [input], count: 100, bytes: bytes) == input.map { $0 * 3 - 1 })
        let negate = try gpu.device.makeComputePipelineState(function: try gpu.library.makeFunction(name: "msl_negate"))
        #expect(try dispatch(gpu, negate, inputs: [], count: 10) == Array(repeating: 1, count: 10))
    }

    @Test("pointer variables into a buffer, a local array and threadgroup memory: arithmetic, differences, comparisons, ++, += and &a[i]")
    func pointerVariables() throws {
        let gpu = try TestGPU()
        let pipeline = try gpu.device.makeComputePipelineState(function: try gpu.device.makeLibrary(source: """
            #include <metal_stdlib>
            using namespace metal;
            kernel void rows(device const float* matrix [[buffer(0)]], device float* sums [[buffer(1)]],
                             uint y [[thread_position_in_grid]], uint t [[thread_position_in_threadgroup]]) {
                threadgroup float shared[4];
                device const float* row = matrix + y * 4;
                device const float* end = row + 4;
                float sum = 0;
                for (device const float* p = row; p < end; p++) { sum += *p; }
                float local[4] = { 1, 2, 3, 4 };
                thread float* q = &local[1];
                q++;
                sum += q[1] * 10;
                threadgroup float* mine = &shared[0] + t;
                *mine = sum;
                device float* out = &sums[1];
                out += y;
                out -= 1;
                out[0] = *mine + float(end - row) * 1000 + (row == matrix + y * 4 ? 100000 : 0);
            }
            """, options: nil).makeFunction(name: "rows"))
        let matrix = (0..<16).map { Float($0) }
        #expect(try dispatch(gpu, pipeline, inputs: [matrix], count: 4)
            == (0..<4).map { y in Float((0..<4).map { y * 4 + $0 }.reduce(0, +)) + 40 + 4000 + 100000 })
    }

    @Test("length_squared and distance_squared of scalars and vectors")
    func squaredLengths() throws {
        let gpu = try TestGPU()
        let pipeline = try gpu.device.makeComputePipelineState(function: try gpu.device.makeLibrary(source: """
            #include <metal_stdlib>
            using namespace metal;
            kernel void k(device const float* input [[buffer(0)]], device float* output [[buffer(1)]], uint i [[thread_position_in_grid]]) {
                float x = input[i];
                output[i] = length_squared(float3(x, 1, 2)) + distance_squared(x, 1.0) + length_squared(x) + distance_squared(float2(x), float2(0, 1));
            }
            """, options: nil).makeFunction(name: "k"))
        let input: [Float] = [0, 1, 2, 3]
        #expect(try dispatch(gpu, pipeline, inputs: [input], count: 4)
            == input.map { x in (x * x + 5) + (x - 1) * (x - 1) + x * x + (x * x + (x - 1) * (x - 1)) })
    }

    @Test("member functions: const and not, calling each other, members shadowing globals, locals shadowing members, this->")
    func memberFunctions() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            constant float scale = 100;
            struct Light {
                float4 position;
                float4 direction;
                float scale;
                float3 toward(float3 p) const {
                    if (direction.w == 0) { return -direction.xyz; }
                    return p - position.xyz;
                }
                float reach(float3 p) const { return length(toward(p)) * scale; }
                void dim(float by) { float scale = by; this->scale *= scale; }
            };
            kernel void lights(device const float* input [[buffer(0)]], device float* output [[buffer(1)]],
                               uint i [[thread_position_in_grid]]) {
                Light light = { float4(1, 2, 2, 1), float4(0, 0, 0, i % 2 == 0 ? 1 : 0), 2 };
                light.dim(input[i]);
                output[i] = light.reach(float3(1, 2, 0)) + scale;
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "lights"))
        let input: [Float] = [1, 0.5, 2, 3]
        // Even threads: a point light 2 away; odd: a directional light, its direction (0, 0, 0).
        let expected = input.indices.map { i in (i % 2 == 0 ? 2 : 0) * 2 * input[i] + 100 }
        #expect(try dispatch(gpu, pipeline, inputs: [input], count: 4) == expected)
    }

    @Test("function templates: each call instantiates one for its arguments' types, scalar, vector and integer")
    func functionTemplates() throws {
        let gpu = try TestGPU()
        let source = """
            #include <metal_stdlib>
            using namespace metal;
            template <typename T>
            T bilerp(T c00, T c01, T c10, T c11, float2 uv) {
                T c0 = mix(c00, c01, T(uv[0]));
                T c1 = mix(c10, c11, T(uv[0]));
                return mix(c0, c1, T(uv[1]));
            }
            template <typename T> T twice(T x) { return x * 2; }
            kernel void templates(device const float* input [[buffer(0)]], device float* output [[buffer(1)]],
                                  uint i [[thread_position_in_grid]]) {
                float3 corners = bilerp(float3(0), float3(1), float3(2), float3(3), float2(input[i], 0.5));
                float scalar = bilerp(0.0f, 1.0f, 2.0f, 3.0f, float2(0.25, input[i]));
                output[i] = corners.y + scalar + float(twice(int(i))) + twice(input[i]);
            }
            """
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: source, options: nil).makeFunction(name: "templates"))
        let input: [Float] = [0, 0.5, 1, 0.25]
        // bilerp of corners 0, 1, 2, 3 at (u, v) is u + 2v.
        let expected = input.indices.map { i in (input[i] + 1) + (0.25 + 2 * input[i]) + Float(2 * i) + 2 * input[i] }
        #expect(try dispatch(gpu, pipeline, inputs: [input], count: 4) == expected)
    }

    @Test("a constexpr sampler's lod_clamp reaches the sampler: clamped to MAXFLOAT it reads the smallest level")
    func samplerLevelClamp() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: """
            \(TestGPU.coveringVertexMSL)
            fragment float4 smallest(float4 p [[position]], texture2d<float> t [[texture(0)]]) {
                constexpr sampler s(mip_filter::nearest, lod_clamp(MAXFLOAT, MAXFLOAT));
                return t.sample(s, p.xy / 4);
            }
            fragment float4 largest(float4 p [[position]], texture2d<float> t [[texture(0)]]) {
                constexpr sampler s(mip_filter::nearest);
                return t.sample(s, p.xy / 4);
            }
            """, options: nil)
        let descriptor = TextureDescriptor.texture2D(pixelFormat: .rgba8Unorm, width: 4, height: 4, mipmapped: true)
        descriptor.usage = [.shaderRead]
        let texture = try gpu.device.makeTexture(descriptor: descriptor)
        // Level 0 red, level 1 blue, level 2 (one texel) green.
        for (level, texel) in [[UInt8(255), 0, 0, 255], [0, 0, 255, 255], [0, 255, 0, 255]].enumerated() {
            let side = 4 >> level
            texture.replace(region: Region(x: 0, y: 0, width: side, height: side), mipmapLevel: level,
                            withBytes: Array(repeating: texel, count: side * side).flatMap { $0 }, bytesPerRow: side * 4)
        }
        for (fragment, texel) in [("smallest", [UInt8(0), 255, 0, 255]), ("largest", [255, 0, 0, 255])] {
            let pipeline = try gpu.renderPipeline(library, vertex: "cover", fragment: fragment)
            let pixels = try draw(gpu, pipeline, width: 4, height: 4) { encoder in
                encoder.setFragmentTexture(texture, index: 0)
                encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
            }
            #expect(pixels == Array(repeating: texel, count: 16).flatMap { $0 }, "\(fragment)")
        }
    }

    /// A kernel that writes, for each thread, the grid's size in threads and threadgroups.
    static let gridSize = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void grid(device uint4* out [[buffer(0)]], uint2 position [[thread_position_in_grid]],
                         uint2 threads [[threads_per_grid]], uint3 groups [[threadgroups_per_grid]]) {
            out[position.y * threads.x + position.x] = uint4(threads, groups.xy);
        }
        """

    /// `gridSize`'s kernel, made into a pipeline.
    static func gridPipeline(_ gpu: TestGPU) throws -> ComputePipelineState {
        try gpu.device.makeComputePipelineState(function: gpu.device.makeLibrary(source: gridSize, options: nil).makeFunction(name: "grid"))
    }

    @Test("[[threads_per_grid]] and [[threadgroups_per_grid]] are the dispatch's grid, in every partial threadgroup's dispatch too")
    func gridSizes() throws {
        let gpu = try TestGPU()
        let pipeline = try Self.gridPipeline(gpu)
        for (threads, group, groups, exact) in [(Size(width: 10, height: 3), Size(width: 4, height: 2), (3, 2), true),
                                                (Size(width: 8, height: 2), Size(width: 4, height: 1), (2, 2), false)] {
            let count = threads.width * threads.height
            let output = try gpu.buffer([SIMD4<UInt32>](repeating: .zero, count: count))
            try gpu.compute { encoder in
                encoder.setComputePipelineState(pipeline)
                encoder.setBuffer(output, offset: 0, index: 0)
                if exact {
                    encoder.dispatchThreads(threads, threadsPerThreadgroup: group)
                } else {
                    encoder.dispatchThreadgroups(Size(width: groups.0, height: groups.1), threadsPerThreadgroup: group)
                }
            }
            let written = Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: SIMD4<UInt32>.self, capacity: count), count: count))
            #expect(written == Array(repeating: SIMD4(UInt32(threads.width), UInt32(threads.height), UInt32(groups.0), UInt32(groups.1)),
                                     count: count), "\(threads) in groups of \(group)")
        }
    }

    @Test("a kernel that reads the grid's size, dispatched indirectly, stops naming it")
    func gridSizeIndirect() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let pipeline = try MetalSourceLibraryTests.gridPipeline(gpu)
            let arguments = try gpu.buffer([UInt32(1), 1, 1])
            try gpu.compute { encoder in
                encoder.setComputePipelineState(pipeline)
                encoder.setBuffer(try gpu.device.makeBuffer(length: 16), offset: 0, index: 0)
                encoder.dispatchThreadgroups(indirectBuffer: arguments, indirectBufferOffset: 0, threadsPerThreadgroup: Size(width: 1))
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreadgroups(indirectBuffer:indirectBufferOffset:threadsPerThreadgroup:): "
            + "'grid' reads [[threads_per_grid]] or [[threadgroups_per_grid]]"), "\(stderr(result))")
    }

    @Test("errors name program_source, the line and the column; constructs outside the subset say unsupported; macros come from the options")
    func errors() throws {
        let gpu = try TestGPU()
        func messages(_ source: String, _ options: CompileOptions? = nil) -> [String] {
            do {
                _ = try gpu.device.makeLibrary(source: source, options: options)
            } catch .compilationFailed(let name, let messages) {
                #expect(name == "program_source")
                return messages
            } catch {
                Issue.record("unexpected error \(error)")
                return []
            }
            Issue.record("the source compiled")
            return []
        }
        let undeclared = """
            #include <metal_stdlib>
            using namespace metal;
            kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
                out[i] = missing + 1;
            }
            """
        #expect(messages(undeclared) == ["program_source:4:14: error: use of undeclared identifier 'missing'"])
        let atomic = """
            #include <metal_stdlib>
            using namespace metal;
            kernel void k(device atomic_float* counter [[buffer(0)]]) {}
            """
        #expect(messages(atomic) == ["program_source:3:22: error: unsupported: the type 'atomic_float'"])
        // The macro is undefined without the options.
        let scaled = """
            #include <metal_stdlib>
            kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = SCALE; }
            """
        #expect(messages(scaled) == ["program_source:2:95: error: use of undeclared identifier 'SCALE'"])
        let options = CompileOptions()
        options.preprocessorMacros = ["SCALE": "2.5"]
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: scaled, options: options).makeFunction(name: "k"))
        #expect(try dispatch(gpu, pipeline, inputs: [], count: 10) == Array(repeating: 2.5, count: 10))
        // Without <metal_stdlib> the language option selects MSL.
        let plain = "kernel void k(device float* out [[buffer(0)]]) { out[0] = 1; }"
        options.language = .metal
        #expect(try gpu.device.makeLibrary(source: plain, options: options).functionNames == ["k"])
    }
}
