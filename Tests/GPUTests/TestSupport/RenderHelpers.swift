import Foundation
@testable import GPU
import GPUTestSupport
import Testing

/// Helpers for render tests: a colour target and a read-back of its texels.
extension TestGPU {
    func renderTarget(width: Int = 64, height: Int = 64, format: PixelFormat = .rgba8Unorm, sampleCount: Int = 1,
                      usage: TextureUsage = [.renderTarget, .shaderRead]) throws -> Texture {
        try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: format, width: width, height: height,
                                                             sampleCount: sampleCount, usage: usage))
    }

    /// The texels of level 0, RGBA8, rows top to bottom.
    func pixels(of texture: Texture) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: texture.width * texture.height * 4)
        texture.getBytes(&bytes, bytesPerRow: texture.width * 4,
                             from: Region(x: 0, y: 0, width: texture.width, height: texture.height), mipmapLevel: 0)
        return bytes
    }

    func function(_ name: String) throws -> Function { try library.makeFunction(name: name) }

    /// The textured quad's pipeline (`textured.vert`, position and uv as two float2 in
    /// 16-byte vertices of buffer 0) with `fragment` (`textured.frag` by default), drawing
    /// into rgba8Unorm.
    func texturedPipeline(fragment: Function? = nil) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try function("textured.vert")
        descriptor.fragmentFunction = try fragment ?? function("textured.frag")
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[1].format = .float2
        vertices.attributes[1].offset = 8
        vertices.layouts[0].stride = 16
        descriptor.vertexDescriptor = vertices
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        return try device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// A pipeline of `library`'s functions `vertex` and `fragment` drawing into an RGBA8
    /// target, with `vertexDescriptor` when the vertex function has `[[stage_in]]`.
    func renderPipeline(_ library: Library, vertex: String, fragment: String,
                        vertexDescriptor: VertexDescriptor? = nil) throws -> RenderPipelineState {
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: vertex)
        descriptor.fragmentFunction = try library.makeFunction(name: fragment)
        descriptor.vertexDescriptor = vertexDescriptor
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        return try device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// The start of an MSL source whose vertex function `cover` draws one triangle over the
    /// whole target (three vertices, no buffers).
    static let coveringVertexMSL = """
        #include <metal_stdlib>
        using namespace metal;
        vertex float4 cover(uint id [[vertex_id]]) {
            float2 p = float2((id << 1) & 2, id & 2);
            return float4(p * 2 - 1, 0, 1);
        }
        """

    /// A buffer holding `values`.
    func buffer<T>(_ values: [T]) throws -> Buffer {
        try values.withUnsafeBytes { try device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }
    }

    /// Dispatches `groups` threadgroups of `width` threads of `pipeline` with `buffers` and
    /// `textures` at indices 0..., waits, and expects the command buffer to complete.
    func dispatch(_ pipeline: ComputePipelineState, buffers: [Buffer], textures: [Texture] = [], groups: Int, width: Int,
                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let commandBuffer = try queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        for (index, buffer) in buffers.enumerated() { encoder.setBuffer(buffer, offset: 0, index: index) }
        for (index, texture) in textures.enumerated() { encoder.setTexture(texture, index: index) }
        encoder.dispatchThreadgroups(Size(width: groups), threadsPerThreadgroup: Size(width: width))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))", sourceLocation: sourceLocation)
    }
}

/// One RGBA8 texel of a read-back.
func texel(_ pixels: [UInt8], width: Int, x: Int, y: Int) -> [UInt8] {
    let i = (y * width + x) * 4
    return Array(pixels[i..<(i + 4)])
}

/// Whether an RGBA8 unsigned-normalized `texel` holds `color` (components in 0...1).
/// Vulkan stores a component c as either of the two integers nearest to c × 255, and only
/// recommends rounding to nearest: lavapipe rounds, NVIDIA's driver stores 127 for 0.5.
func texel(_ texel: [UInt8], holds color: [Double]) -> Bool {
    texel.count == color.count && zip(texel, color).allSatisfy { stored, component in
        let exact = min(max(component, 0), 1) * 255
        return Double(stored) == exact.rounded(.down) || Double(stored) == exact.rounded(.up)
    }
}
