import GPUTestSupport
import Testing
@testable import GPU

/// Metal's `texture2d_ms` compiled at run time: a multisampled texture read sample by sample
/// (`read(coordinates, sample)`) in a kernel.
@Suite("Run-time Metal Shading Language multisampled textures", .validated)
struct MetalMultisampledTextureTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void average(texture2d_ms<float> samples [[texture(0)]], device float* red [[buffer(0)]],
                            device uint* sizes [[buffer(1)]], uint2 gid [[thread_position_in_grid]]) {
            uint count = samples.get_num_samples();
            float sum = 0;
            for (uint s = 0; s < count; ++s) { sum += samples.read(gid, s).r; }
            red[gid.y * samples.get_width() + gid.x] = sum / float(count);
            if (gid.x == 0 && gid.y == 0) {
                sizes[0] = count;
                sizes[1] = samples.get_width();
                sizes[2] = samples.get_height();
            }
        }
        """

    @Test("a kernel averages each pixel's four samples of a 4x MSAA triangle as the resolve does, and reads the sample count and size")
    func averageSamples() throws {
        let gpu = try TestGPU()
        let samples = try gpu.renderTarget(sampleCount: 4, usage: [.renderTarget, .shaderRead])
        let resolved = try gpu.renderTarget()
        let pass = gpu.clearingPass(samples)
        pass.colorAttachments[0].storeAction = .storeAndMultisampleResolve
        pass.colorAttachments[0].resolveTexture = resolved
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(try RenderTests.colorPipeline(gpu, samples: 4))
        try RenderTests.draw(encoder, gpu, try gpu.buffer(RenderTests.solid(1, 1, 1, 1)))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")

        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "average"))
        let red = try gpu.buffer([Float](repeating: -1, count: 64 * 64))
        let sizes = try gpu.buffer([UInt32](repeating: 0, count: 3))
        try gpu.compute { encoder in
            encoder.setComputePipelineState(pipeline)
            encoder.setTexture(samples, index: 0)
            encoder.setBuffer(red, offset: 0, index: 0)
            encoder.setBuffer(sizes, offset: 0, index: 1)
            encoder.dispatchThreads(Size(width: 64, height: 64), threadsPerThreadgroup: Size(width: 8, height: 8))
        }
        #expect(Array(UnsafeBufferPointer(start: sizes.contents().bindMemory(to: UInt32.self, capacity: 3), count: 3)) == [4, 64, 64])
        let averages = Array(UnsafeBufferPointer(start: red.contents().bindMemory(to: Float.self, capacity: 64 * 64), count: 64 * 64))
        let pixels = try gpu.pixels(of: resolved)
        var partial = 0
        for index in 0..<(64 * 64) {
            // The resolve stores the average, rounded either way (as an RGBA8 texel may be).
            let expected = Double(averages[index]) * 255
            let stored = Double(pixels[index * 4])
            #expect(stored == expected.rounded(.down) || stored == expected.rounded(.up), "pixel \(index): \(averages[index]) vs \(stored)")
            if averages[index] > 0 && averages[index] < 1 { partial += 1 }
        }
        #expect(averages[40 * 64 + 32] == 1)
        #expect(averages[2 * 64 + 2] == 0)
        #expect(partial > 20, "edge pixels have some samples covered: \(partial)")
    }

    @Test("a texture2d_ms is read with a sample index and cannot be sampled or written")
    func misuse() throws {
        let gpu = try TestGPU()
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texture2d_ms<float> t [[texture(0)]], device float4* o [[buffer(0)]]) { o[0] = t.read(uint2(0)); }")
            == "program_source:3:94: error: read of a texture2d_ms takes coordinates and a sample index")
        #expect(gpu.metalMessages(usingMetal: "kernel void k(texture2d_ms<float, access::write> t [[texture(0)]]) {}")
            == "program_source:3:50: error: unsupported: access::write on a 'texture2d_ms'")
    }
}
