import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Samplers fixed in a function, Metal's `constexpr sampler`: immutable samplers in the
/// pipeline's layout, with nothing set at their index.
@Suite("Constant samplers", .validated)
struct ConstantSamplerTests {
    /// A 2×2 texture (red, green / blue, white) magnified onto a 64×64 target by the
    /// textured quad, with `configure` setting the fragment state; returns the pixels.
    func drawQuad(_ gpu: TestGPU, fragment: Function, configure: (RenderCommandEncoder) -> Void) throws -> [UInt8] {
        try drawQuad(gpu, pipeline: try gpu.texturedPipeline(fragment: fragment), configure: configure)
    }

    func drawQuad(_ gpu: TestGPU, pipeline: RenderPipelineState, configure: (RenderCommandEncoder) -> Void) throws -> [UInt8] {
        let target = try gpu.renderTarget()
        let image = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 2, height: 2, mipmapped: false))
        let texels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        image.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: texels, bytesPerRow: 8)
        let quad: [Float] = [-1, 1, 0, 0, 1, 1, 1, 0, 1, -1, 1, 1, -1, 1, 0, 0, 1, -1, 1, 1, -1, -1, 0, 1]
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(try gpu.buffer(quad), offset: 0, index: 0)
        encoder.setFragmentTexture(image, index: 0)
        configure(encoder)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        return try gpu.pixels(of: target)
    }

    static func linear() -> SamplerDescriptor {
        let descriptor = SamplerDescriptor()
        descriptor.minFilter = .linear
        descriptor.magFilter = .linear
        return descriptor
    }

    @Test("a constant sampler draws what the same sampler set on the encoder draws, and one set there anyway is not used",
          arguments: [true, false])
    func separateSampler(pushDescriptors: Bool) throws {
        let gpu = try TestGPU(pushDescriptors: pushDescriptors)
        let nearest = try gpu.device.makeSamplerState(descriptor: SamplerDescriptor())
        let linear = try gpu.device.makeSamplerState(descriptor: Self.linear())
        let setOnEncoder = try drawQuad(gpu, fragment: try gpu.function("textured.frag")) {
            $0.setFragmentSamplerState(linear, index: 0)
        }
        let fixed = try gpu.library.makeFunction(name: "textured.frag", constantSamplers: [0: Self.linear()])
        let constant = try drawQuad(gpu, fragment: fixed) { _ in }
        let overridden = try drawQuad(gpu, fragment: fixed) { $0.setFragmentSamplerState(nearest, index: 0) }
        let nearestPixels = try drawQuad(gpu, fragment: try gpu.function("textured.frag")) {
            $0.setFragmentSamplerState(nearest, index: 0)
        }
        #expect(constant == setOnEncoder)
        #expect(overridden == setOnEncoder)
        // The filter matters: the centre blends all four texels with a linear sampler only.
        #expect(nearestPixels != setOnEncoder)
        let centre = texel(constant, width: 64, x: 32, y: 32)
        #expect(centre[0..<3].allSatisfy { $0 > 60 && $0 < 200 }, "centre \(centre)")
        #expect(texel(nearestPixels, width: 64, x: 10, y: 10) == [255, 0, 0, 255])
    }

    @Test("a combined image sampler (sampler2D) with a constant sampler needs only its texture set", arguments: [true, false])
    func combinedImageSampler(pushDescriptors: Bool) throws {
        let gpu = try TestGPU(pushDescriptors: pushDescriptors)
        let source = """
            #version 450
            #pragma shader_stage(fragment)
            layout(location = 0) in vec2 vUV;
            layout(location = 0) out vec4 outColor;
            layout(binding = 96) uniform sampler2D image;
            void main() { outColor = texture(image, vUV); }
            """
        let library = try gpu.device.makeLibrary(source: source, options: CompileOptions())
        let name = library.functionNames[0]
        let fixed = try library.makeFunction(name: name, constantSamplers: [0: Self.linear()])
        let constant = try drawQuad(gpu, fragment: fixed) { _ in }
        let linear = try gpu.device.makeSamplerState(descriptor: Self.linear())
        let setOnEncoder = try drawQuad(gpu, fragment: try library.makeFunction(name: name)) {
            $0.setFragmentSamplerState(linear, index: 0)
        }
        #expect(constant == setOnEncoder)
        #expect(texel(constant, width: 64, x: 32, y: 32)[0..<3].allSatisfy { $0 > 60 && $0 < 200 })
    }

    @Test("a compute kernel samples through a constant sampler: its address mode decides what lies past the edge",
          arguments: [true, false])
    func computeKernel(pushDescriptors: Bool) throws {
        let gpu = try TestGPU(pushDescriptors: pushDescriptors)
        let source = """
            #version 450
            #pragma shader_stage(compute)
            layout(local_size_x = 4) in;
            layout(binding = 32) uniform texture2D image;
            layout(binding = 48) uniform sampler edge;
            layout(std430, binding = 0) writeonly buffer Out { vec4 result[]; };
            void main() {
                uint i = gl_GlobalInvocationID.x;
                // u at the centre of texel i - 1 of a 4×1 texture: the first is past the left edge.
                float u = (float(i) - 0.5) / 4.0;
                result[i] = textureLod(sampler2D(image, edge), vec2(u, 0.5), 0.0);
            }
            """
        let library = try gpu.device.makeLibrary(source: source, options: CompileOptions())
        let name = library.functionNames[0]
        let image = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 4, height: 1, mipmapped: false))
        // Texels 10, 20, 30, 40 (red channel).
        image.replace(region: Region(x: 0, y: 0, width: 4, height: 1), mipmapLevel: 0,
                      withBytes: [UInt8]([10, 0, 0, 255, 20, 0, 0, 255, 30, 0, 0, 255, 40, 0, 0, 255]), bytesPerRow: 16)
        func run(_ address: SamplerAddressMode) throws -> [Float] {
            let descriptor = SamplerDescriptor()
            descriptor.sAddressMode = address
            let function = try library.makeFunction(name: name, constantSamplers: [0: descriptor])
            let pipeline = try gpu.device.makeComputePipelineState(function: function)
            let output = try gpu.device.makeBuffer(length: 4 * 16)
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            let encoder = try commandBuffer.makeComputeCommandEncoder()
            encoder.setComputePipelineState(pipeline)
            encoder.setTexture(image, index: 0)
            encoder.setBuffer(output, offset: 0, index: 0)
            encoder.dispatchThreads(Size(width: 4), threadsPerThreadgroup: Size(width: 4))
            encoder.endEncoding()
            commandBuffer.commit()
            commandBuffer.waitUntilCompleted()
            #expect(commandBuffer.status == .completed)
            let values = output.contents().bindMemory(to: Float.self, capacity: 16)
            return (0..<4).map { (values[$0 * 4] * 255).rounded() }
        }
        // u = -1/8 is half a texel left of the first texel's left edge: clamped, it reads
        // texel 0; repeated, it reads the last texel.
        #expect(try run(.clampToEdge) == [10, 10, 20, 30])
        #expect(try run(.repeat) == [40, 10, 20, 30])
    }

    @Test("an index with no sampler, or outside 0...15, is refused with the reason")
    func refusedIndices() throws {
        let gpu = try TestGPU()
        #expect(throws: LibraryError.unsupportedFunction(name: "textured.frag", reason:
            "it has no sampler at fragment sampler index 1 (binding 113) and no combined image sampler at texture index 1 "
            + "(binding 97) to fix a constant sampler in")) {
            try gpu.library.makeFunction(name: "textured.frag", constantSamplers: [1: SamplerDescriptor()])
        }
        #expect(throws: LibraryError.unsupportedFunction(name: "textured.frag", reason:
            "constant sampler index 16 is outside 0...15")) {
            try gpu.library.makeFunction(name: "textured.frag", constantSamplers: [16: SamplerDescriptor()])
        }
        #expect(throws: LibraryError.unsupportedFunction(name: "add.comp", reason:
            "it has no sampler at compute sampler index 0 (binding 48) and no combined image sampler at texture index 0 "
            + "(binding 32) to fix a constant sampler in")) {
            try gpu.library.makeFunction(name: "add", constantSamplers: [0: SamplerDescriptor()])
        }
    }

    @Test("the pipeline keeps its constant samplers alive after the function is gone")
    func samplersOutliveTheFunction() throws {
        let gpu = try TestGPU()
        let linear = try gpu.device.makeSamplerState(descriptor: Self.linear())
        let reference = try drawQuad(gpu, fragment: try gpu.function("textured.frag")) {
            $0.setFragmentSamplerState(linear, index: 0)
        }
        weak var constant: SamplerState?
        let pipeline = try {
            let function = try gpu.library.makeFunction(name: "textured.frag", constantSamplers: [0: Self.linear()])
            constant = function.constantSamplers[0]
            return try gpu.texturedPipeline(fragment: function)
        }()
        // The function is gone; the pipeline holds its sampler.
        #expect(constant != nil)
        #expect(try drawQuad(gpu, pipeline: pipeline) { _ in } == reference)
    }
}
