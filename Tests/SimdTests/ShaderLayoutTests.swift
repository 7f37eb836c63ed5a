import GPU
import GPUTestSupport
import SimdTestTypes
import Testing
import simd

/// The shared C header's structs, filled in Swift and read by GLSL shaders: the vertices
/// through a vertex descriptor made from Swift's `MemoryLayout`, the uniforms as a `std140`
/// block through `setVertexBytes`. Every field the shader reads shows in the pixels.
@Suite("simd structs read by shaders", .validated)
struct ShaderLayoutTests {
    /// A pipeline whose vertex function reads `TestVertex` attributes from buffer 0 and a
    /// `TestUniforms` block from buffer 1, and passes on the colour it computes.
    static func pipeline(_ gpu: TestGPU) throws -> RenderPipelineState {
        // std140 puts a float after a vec3 in the vec3's last four bytes (offset 124); C and
        // Metal put it after the 16 bytes of a simd_float3, so the block says where it is.
        let vertex = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(vertex)
            layout(location = 0) in vec2 position;
            layout(location = 1) in vec4 color;
            layout(std140, binding = 1) uniform Uniforms {
                mat4 modelViewProjection;
                mat3 normalMatrix;
                vec3 lightDirection;
                layout(offset = 128) float intensity;
            };
            layout(location = 0) out vec4 shaded;
            void main() {
                gl_Position = modelViewProjection * vec4(position, 0, 1);
                shaded = vec4(color.rgb * intensity * (normalMatrix * lightDirection), color.a);
            }
            """)
        let fragment = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(fragment)
            layout(location = 0) in vec4 shaded;
            layout(location = 0) out vec4 color;
            void main() { color = shaded; }
            """)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try vertex.makeFunction(name: vertex.functionNames[0])
        descriptor.fragmentFunction = try fragment.makeFunction(name: fragment.functionNames[0])
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[0].offset = MemoryLayout<TestVertex>.offset(of: \.position)!
        vertices.attributes[1].format = .float4
        vertices.attributes[1].offset = MemoryLayout<TestVertex>.offset(of: \.color)!
        vertices.layouts[0].stride = MemoryLayout<TestVertex>.stride
        descriptor.vertexDescriptor = vertices
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    @Test("a quad moved by a matrix_float4x4 and shaded through a matrix_float3x3, a vector_float3 and a float lands where and as the math says")
    func uniformsFromSwift() throws {
        let gpu = try TestGPU()
        let target = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            pixelFormat: .rgba8Unorm, width: 64, height: 64, usage: [.renderTarget, .shaderRead]))
        let white = SIMD4<Float>(1, 1, 1, 1)
        let corners: [SIMD2<Float>] = [SIMD2(-1, -1), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, -1), SIMD2(1, 1), SIMD2(-1, 1)]
        var vertices = corners.map { TestVertex(position: $0, color: white) }
        // Half size, then half the target to the right: x from 0 to 1, y from -0.5 to 0.5.
        let translation = simd_float4x4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0.5, 0, 0, 1))
        var uniforms = TestUniforms()
        uniforms.modelViewProjection = translation * simd_float4x4(diagonal: SIMD4(0.5, 0.5, 1, 1))
        // Columns (0, 0, 1), (1, 0, 0), (0, 1, 0): (1, 0.5, 0) becomes (0.5, 0, 1); times
        // 0.5, the colour is (0.25, 0, 0.5).
        uniforms.normalMatrix = simd_float3x3(SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 1, 0))
        uniforms.lightDirection = SIMD3(1, 0.5, 0)
        uniforms.intensity = 0.5

        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(try Self.pipeline(gpu))
        encoder.setVertexBytes(&vertices, length: MemoryLayout<TestVertex>.stride * vertices.count, index: 0)
        encoder.setVertexBytes(&uniforms, length: MemoryLayout<TestUniforms>.size, index: 1)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: vertices.count)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)

        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        target.getBytes(&pixels, bytesPerRow: 64 * 4, from: Region(x: 0, y: 0, width: 64, height: 64), mipmapLevel: 0)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(pixels[(y * 64 + x) * 4 + $0]) } }
        let inside = pixel(48, 32)
        #expect(abs(inside[0] - 64) <= 1 && inside[1] == 0 && abs(inside[2] - 128) <= 1 && inside[3] == 255,
                "the quad's colour: \(inside)")
        #expect(pixel(33, 17) == inside, "the quad's corner")
        #expect(pixel(16, 32) == [0, 0, 0, 255], "left of the quad: the clear colour")
        #expect(pixel(48, 8) == [0, 0, 0, 255], "above the quad: the clear colour")
        #expect(pixel(48, 56) == [0, 0, 0, 255], "below the quad: the clear colour")
    }
}
