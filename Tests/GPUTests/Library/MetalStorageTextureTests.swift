import GPUTestSupport
import Testing
@testable import GPU
import SwiftGPUSPIRV

/// Metal's `access::write` textures compiled at run time: storage images without a pixel
/// format, at the texture's `[[texture(n)]]` index, written by `write` in kernels.
@Suite("Run-time Metal Shading Language storage textures", .validated)
struct MetalStorageTextureTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void gradient(texture2d<float, access::write> output [[texture(1)]],
                             uint2 gid [[thread_position_in_grid]]) {
            float2 size = float2(output.get_width() - 1, output.get_height() - 1);
            output.write(float4(float2(gid) / size, 0.5, 1.0), gid);
        }
        kernel void accumulate(texture2d<float, access::read> previous [[texture(0)]],
                               texture2d<float, access::write> sums [[texture(1)]],
                               device const float* deltas [[buffer(0)]],
                               texture2d<half, access::write> positions [[texture(2)]],
                               uint2 gid [[thread_position_in_grid]]) {
            float4 sum = previous.read(gid);
            sums.write(sum + deltas[gid.y * sums.get_width() + gid.x], gid);
            positions.write(half4(half(gid.x * 10 + gid.y)), gid);
        }
        """

    /// A `.shaderRead` and `.shaderWrite` texture of `format`.
    static func storageTexture(_ gpu: TestGPU, _ format: PixelFormat, size: Int) throws -> Texture {
        let descriptor = TextureDescriptor.texture2D(pixelFormat: format, width: size, height: size, mipmapped: false)
        descriptor.usage = [.shaderRead, .shaderWrite]
        return try gpu.device.makeTexture(descriptor: descriptor)
    }

    @Test("a kernel writes an RGBA8 gradient with write and get_width/get_height; its texture argument reflects as a written storage image")
    func gradient() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let function = try library.makeFunction(name: "gradient")
        let binding = try #require(function.entryPoint.bindings.first)
        #expect(function.entryPoint.bindings.count == 1)
        #expect(binding.binding == 33)
        #expect(binding.kind == .storageImage)
        #expect(!binding.isReadOnly)
        let pipeline = try gpu.device.makeComputePipelineState(function: function)
        let size = 16
        let texture = try Self.storageTexture(gpu, .rgba8Unorm, size: size)
        try gpu.compute { encoder in
            encoder.setComputePipelineState(pipeline)
            encoder.setTexture(texture, index: 1)
            encoder.dispatchThreads(Size(width: size, height: size), threadsPerThreadgroup: Size(width: 8, height: 8))
        }
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        texture.getBytes(&pixels, bytesPerRow: size * 4, from: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0)
        for y in 0..<size {
            for x in 0..<size {
                let color: [Double] = [Double(x) / 15, Double(y) / 15, 0.5, 1]
                #expect(texel(texel(pixels, width: size, x: x, y: y), holds: color), "texel (\(x), \(y))")
            }
        }
    }

    @Test("a kernel adds a buffer's deltas to an access::read texture into an access::write one, twice, and writes a half texture")
    func readThenWrite() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let function = try library.makeFunction(name: "accumulate")
        #expect(function.entryPoint.bindings.filter { $0.kind == .storageImage }.map(\.binding).sorted() == [33, 34])
        let pipeline = try gpu.device.makeComputePipelineState(function: function)
        let size = 8
        let first = try Self.storageTexture(gpu, .r32Float, size: size)
        let second = try Self.storageTexture(gpu, .r32Float, size: size)
        let start = (0..<(size * size)).map { Float($0) * 0.25 }
        first.replace(region: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0, withBytes: start, bytesPerRow: size * 4)
        let positions = try Self.storageTexture(gpu, .rgba32Float, size: size)
        let deltas = (0..<(size * size)).map { Float($0 % 7) - 3 }
        let deltaBuffer = try gpu.buffer(deltas)
        try gpu.compute { encoder in
            encoder.setComputePipelineState(pipeline)
            encoder.setBuffer(deltaBuffer, offset: 0, index: 0)
            encoder.setTexture(positions, index: 2)
            for (source, destination) in [(first, second), (second, first)] {
                encoder.setTexture(source, index: 0)
                encoder.setTexture(destination, index: 1)
                encoder.dispatchThreads(Size(width: size, height: size), threadsPerThreadgroup: Size(width: 4, height: 4))
            }
        }
        var result = [Float](repeating: 0, count: size * size)
        first.getBytes(&result, bytesPerRow: size * 4, from: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0)
        let expectedSums: [Float] = zip(start, deltas).map { (value: Float, delta: Float) -> Float in value + 2 * delta }
        #expect(result == expectedSums)
        var written = [Float](repeating: 0, count: size * size * 4)
        positions.getBytes(&written, bytesPerRow: size * 16, from: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0)
        var expected: [Float] = []
        for index in 0..<(size * size) {
            let value = Float((index % size) * 10 + index / size)
            expected += [value, value, value, value]
        }
        #expect(written == expected)
    }

    @Test("storage textures are refused outside kernels, for cube textures and with a mipmap level; reading a write-only one is an error")
    func refusals() throws {
        let gpu = try TestGPU()
        #expect(gpu.metalMessages(usingMetal: "fragment float4 f(texture2d<float, access::write> t [[texture(0)]]) { return float4(1); }")
            == "program_source:3:51: error: unsupported: access::write textures in a fragment function (SwiftGPU enables stores in kernels only)")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texturecube<float, access::write> t [[texture(0)]]) { t.write(float4(1), uint2(0), 0); }")
            == "program_source:3:49: error: unsupported: access::write on a 'texturecube'")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texture2d<float, access::write> t [[texture(0)]]) { t.write(float4(1), uint2(0), 1); }")
            == "program_source:3:96: error: unsupported: write to a mipmap level (GLSL's imageStore writes the view's first)")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texture2d<float, access::read_write> t [[texture(0)]]) { t.write(t.read(uint2(0), 1), uint2(0)); }")
            == "program_source:3:97: error: unsupported: read of a mipmap level of an access::read_write texture")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texture2d<float, access::write> t [[texture(0)]], sampler s [[sampler(0)]]) { t.write(t.sample(s, float2(0)), uint2(0)); }")
            == "program_source:3:101: error: sample needs a texture that may be read (this one is access::write)")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texture2d<float, access::write> t [[texture(0)]]) { t.write(t.read(uint2(0)), uint2(0)); }")
            == "program_source:3:75: error: read needs a texture that may be read (this one is access::write)")
    }

    /// A kernel that doubles each texel of a read_write texture in place.
    static let doubling = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void twice(texture2d<float, access::read_write> image [[texture(0)]], uint2 gid [[thread_position_in_grid]]) {
            float4 value = image.read(gid);
            image.write(value * 2, gid);
            image.fence();
        }
        """

    /// `doubling`'s kernel.
    static func twice(_ gpu: TestGPU) throws -> Function {
        try gpu.device.makeLibrary(source: doubling, options: nil).makeFunction(name: "twice")
    }

    @Test("access::read_write: read and write one texture in place where the format allows it; on one that does not, the dispatch stops naming it")
    func readWrite() async throws {
        let gpu = try TestGPU()
        let function = try Self.twice(gpu)
        #expect(function.entryPoint.bindings.map(\.accessWithoutFormat) == [[.read, .write]])
        // lavapipe reads no format without one, so there the dispatch stops; elsewhere r32Float doubles.
        guard !gpu.device.backend.physical.storageAccessWithoutFormat(PixelFormat.r32Float.vkFormat).contains(.read) else {
            let texture = try Self.storageTexture(gpu, .r32Float, size: 2)
            texture.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: [Float(1), 2, 3, 4], bytesPerRow: 8)
            let pipeline = try gpu.device.makeComputePipelineState(function: function)
            try gpu.compute { encoder in
                encoder.setComputePipelineState(pipeline)
                encoder.setTexture(texture, index: 0)
                encoder.dispatchThreads(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 2, height: 2))
            }
            var values = [Float](repeating: 0, count: 4)
            texture.getBytes(&values, bytesPerRow: 8, from: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0)
            #expect(values == [2, 4, 6, 8])
            return
        }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let pipeline = try gpu.device.makeComputePipelineState(function: MetalStorageTextureTests.twice(gpu))
            let texture = try MetalStorageTextureTests.storageTexture(gpu, .r32Float, size: 2)
            try gpu.compute { encoder in
                encoder.setComputePipelineState(pipeline)
                encoder.setTexture(texture, index: 0)
                encoder.dispatchThreads(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 2, height: 2))
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreads(_:threadsPerThreadgroup:): 'twice' uses compute texture "
            + "index 0 as a storage image declared without a format (Metal's access::write and access::read_write, GLSL's "
            + "image without a format qualifier), and this device cannot read a .r32Float texture that way"), "\(stderr(result))")
    }
}
