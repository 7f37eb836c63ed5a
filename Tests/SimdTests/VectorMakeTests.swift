import Testing
import simd

/// simd_make_floatN from scalars and vectors: elements in order, zeros past a shorter
/// vector, a longer vector cut.
@Suite("simd_make_float")
struct VectorMakeTests {
    @Test("simd_make_float2 from scalars, and from longer vectors' first elements")
    func float2() {
        #expect(simd_make_float2(1, 2) == SIMD2(1, 2))
        #expect(simd_make_float2(1) == SIMD2(1, 0))
        #expect(simd_make_float2(SIMD2(1, 2)) == SIMD2(1, 2))
        #expect(simd_make_float2(SIMD3(1, 2, 3)) == SIMD2(1, 2))
        #expect(simd_make_float2(SIMD4(1, 2, 3, 4)) == SIMD2(1, 2))
    }

    @Test("simd_make_float3 from scalars and pairs; zeros past a pair; a 4-vector cut")
    func float3() {
        #expect(simd_make_float3(1, 2, 3) == SIMD3(1, 2, 3))
        #expect(simd_make_float3(SIMD2(1, 2), 3) == SIMD3(1, 2, 3))
        #expect(simd_make_float3(1, SIMD2(2, 3)) == SIMD3(1, 2, 3))
        #expect(simd_make_float3(1) == SIMD3(1, 0, 0))
        #expect(simd_make_float3(SIMD2(1, 2)) == SIMD3(1, 2, 0))
        #expect(simd_make_float3(SIMD3(1, 2, 3)) == SIMD3(1, 2, 3))
        #expect(simd_make_float3(SIMD4(1, 2, 3, 4)) == SIMD3(1, 2, 3))
    }

    @Test("simd_make_float4 from every split of four elements; zeros past a shorter vector")
    func float4() {
        let expected = SIMD4<Float>(1, 2, 3, 4)
        #expect(simd_make_float4(1, 2, 3, 4) == expected)
        #expect(simd_make_float4(SIMD3(1, 2, 3), 4) == expected)
        #expect(simd_make_float4(1, SIMD3(2, 3, 4)) == expected)
        #expect(simd_make_float4(SIMD2(1, 2), SIMD2(3, 4)) == expected)
        #expect(simd_make_float4(SIMD2(1, 2), 3, 4) == expected)
        #expect(simd_make_float4(1, 2, SIMD2(3, 4)) == expected)
        #expect(simd_make_float4(1, SIMD2(2, 3), 4) == expected)
        #expect(simd_make_float4(expected) == expected)
        #expect(simd_make_float4(1) == SIMD4(1, 0, 0, 0))
        #expect(simd_make_float4(SIMD2(1, 2)) == SIMD4(1, 2, 0, 0))
        #expect(simd_make_float4(SIMD3(1, 2, 3)) == SIMD4(1, 2, 3, 0))
    }
}
