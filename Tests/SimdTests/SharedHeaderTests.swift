import SimdTestTypes
import Testing
import simd

/// A C header shared with shaders (SimdTestTypes.h, written as Apple's samples write
/// AAPLShaderTypes.h) imports with simd's Swift types and Apple's sizes: the C compiler and
/// Swift agree on every size and offset.
@Suite("simd in a shared C header")
struct SharedHeaderTests {
    @Test("a vertex of vector_float2 and vector_float4 is SIMD2<Float> and SIMD4<Float>, 32 bytes")
    func vertex() {
        let vertex = TestVertex(position: SIMD2<Float>(1, 2), color: SIMD4<Float>(0.25, 0.5, 0.75, 1))
        #expect(type(of: vertex.position) == SIMD2<Float>.self)
        #expect(type(of: vertex.color) == SIMD4<Float>.self)
        #expect(MemoryLayout<TestVertex>.size == 32)
        #expect(MemoryLayout<TestVertex>.stride == 32)
        #expect(MemoryLayout<TestVertex>.alignment == 16)
        #expect(MemoryLayout<TestVertex>.offset(of: \.color) == 16)
        #expect(MemoryLayout<TestVertex>.size == Int(test_vertex_size()))
    }

    @Test("a matrix_float4x4 field is simd's simd_float4x4, with its operators")
    func uniforms() {
        var uniforms = TestUniforms()
        uniforms.modelViewProjection = matrix_identity_float4x4 * simd_float4x4(diagonal: SIMD4(2, 2, 2, 1))
        uniforms.normalMatrix = simd_float3x3(1)
        #expect(type(of: uniforms.modelViewProjection) == simd_float4x4.self)
        #expect(type(of: uniforms.normalMatrix) == simd_float3x3.self)
        #expect(type(of: uniforms.lightDirection) == SIMD3<Float>.self)
        #expect(uniforms.modelViewProjection * SIMD4<Float>(1, 2, 3, 1) == SIMD4(2, 4, 6, 1))
        #expect(uniforms.normalMatrix.transpose == simd_float3x3(1))
        // 64 (the 4×4 matrix) + 48 (the 3×3) + 16 (a float3) + 4, rounded up to 16.
        #expect(MemoryLayout<TestUniforms>.offset(of: \.normalMatrix) == 64)
        #expect(MemoryLayout<TestUniforms>.offset(of: \.lightDirection) == 112)
        #expect(MemoryLayout<TestUniforms>.offset(of: \.intensity) == 128)
        #expect(MemoryLayout<TestUniforms>.size == 144)
        #expect(MemoryLayout<TestUniforms>.size == Int(test_uniforms_size()))
        #expect(MemoryLayout<TestUniforms>.offset(of: \.normalMatrix) == Int(test_uniforms_normal_matrix_offset()))
        #expect(MemoryLayout<TestUniforms>.offset(of: \.lightDirection) == Int(test_uniforms_light_direction_offset()))
    }

    @Test("a quaternion, a vector_uint2 and a simd_int3 keep their C offsets")
    func mixed() {
        let mixed = TestMixed(orientation: simd_quatf(angle: 0, axis: SIMD3(0, 0, 1)), viewportSize: SIMD2(640, 480),
                              cell: SIMD3(1, 2, 3))
        #expect(mixed.orientation.act(SIMD3(1, 0, 0)) == SIMD3(1, 0, 0))
        #expect(type(of: mixed.viewportSize) == SIMD2<UInt32>.self)
        #expect(type(of: mixed.cell) == SIMD3<Int32>.self)
        #expect(MemoryLayout<TestMixed>.offset(of: \.viewportSize) == 16)
        #expect(MemoryLayout<TestMixed>.offset(of: \.cell) == 32)
        #expect(MemoryLayout<TestMixed>.size == 48)
        #expect(MemoryLayout<TestMixed>.size == Int(test_mixed_size()))
    }
}
