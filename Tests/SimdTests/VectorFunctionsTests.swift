import Testing
import simd

/// simd's vector functions, under their C and Swift names, against values computed by hand.
@Suite("simd vector functions")
struct VectorFunctionsTests {
    @Test("dot (1, 2, 3)·(4, 5, 6) = 32; length of (3, 4) = 5; distance, squared forms")
    func dotAndLength() {
        #expect(simd_dot(SIMD3<Float>(1, 2, 3), SIMD3(4, 5, 6)) == 32)
        #expect(dot(SIMD3<Float>(1, 2, 3), SIMD3(4, 5, 6)) == 32)
        #expect(simd_length(SIMD2<Float>(3, 4)) == 5)
        #expect(simd_precise_length(SIMD2<Float>(3, 4)) == 5)
        #expect(length(SIMD4<Float>(1, 1, 1, 1)) == 2)
        #expect(simd_length_squared(SIMD2<Float>(3, 4)) == 25)
        #expect(length_squared(SIMD2<Float>(3, 4)) == 25)
        #expect(simd_distance(SIMD2<Float>(1, 1), SIMD2(4, 5)) == 5)
        #expect(distance(SIMD2<Float>(1, 1), SIMD2(4, 5)) == 5)
        #expect(simd_distance_squared(SIMD2<Float>(1, 1), SIMD2(4, 5)) == 25)
        #expect(simd_dot(SIMD2<Double>(1, 2), SIMD2(3, 4)) == 11)
    }

    @Test("normalize (3, 4) = (0.6, 0.8), of length 1")
    func normalize() {
        #expect(approximately(simd_normalize(SIMD2<Float>(3, 4)), SIMD2(0.6, 0.8)))
        #expect(approximately(simd.normalize(SIMD2<Float>(3, 4)), SIMD2(0.6, 0.8)))
        #expect(approximately(simd_precise_normalize(SIMD2<Float>(3, 4)), SIMD2(0.6, 0.8)))
        #expect(abs(simd_length(simd_normalize(SIMD3<Float>(1, 2, 3))) - 1) < 1e-6)
    }

    @Test("cross (1, 0, 0)×(0, 1, 0) = (0, 0, 1); (1, 2, 3)×(4, 5, 6) = (-3, 6, -3)")
    func crossProduct() {
        #expect(simd_cross(SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0)) == SIMD3(0, 0, 1))
        #expect(simd_cross(SIMD3<Float>(1, 2, 3), SIMD3(4, 5, 6)) == SIMD3(-3, 6, -3))
        #expect(cross(SIMD3<Float>(0, 1, 0), SIMD3(1, 0, 0)) == SIMD3(0, 0, -1))
    }

    @Test("clamp limits each element; mix interpolates")
    func clampAndMix() {
        #expect(simd_clamp(SIMD3<Float>(-1, 0.5, 2), SIMD3(0, 0, 0), SIMD3(1, 1, 1)) == SIMD3(0, 0.5, 1))
        #expect(simd_clamp(SIMD3<Float>(-1, 0.5, 2), 0, 1) == SIMD3(0, 0.5, 1))
        #expect(simd_mix(SIMD2<Float>(0, 10), SIMD2(10, 20), SIMD2(0.5, 0.25)) == SIMD2(5, 12.5))
        #expect(mix(SIMD2<Float>(0, 10), SIMD2(10, 20), t: 0.5) == SIMD2(5, 15))
        #expect(mix(SIMD2<Float>(0, 10), SIMD2(10, 20), t: SIMD2(1, 0)) == SIMD2(10, 10))
    }
}
