import Testing
import simd

/// simd's element-wise and reduction functions, against values computed by hand.
@Suite("simd common functions")
struct CommonFunctionsTests {
    @Test("abs, min, max, floor, ceil, fract and sign, element by element")
    func elementwise() {
        let x = SIMD4<Float>(-1.5, 0, 2.25, -0.25)
        #expect(simd_abs(x) == SIMD4(1.5, 0, 2.25, 0.25))
        #expect(simd_min(x, SIMD4(0, 0, 0, 0)) == SIMD4(-1.5, 0, 0, -0.25))
        #expect(simd_max(x, SIMD4(0, 0, 0, 0)) == SIMD4(0, 0, 2.25, 0))
        #expect(simd_floor(x) == SIMD4(-2, 0, 2, -1))
        #expect(simd_ceil(x) == SIMD4(-1, 0, 3, 0))
        #expect(simd_fract(x) == SIMD4(0.5, 0, 0.25, 0.75))
        #expect(simd_sign(x) == SIMD4(-1, 0, 1, -1))
        #expect(simd_fract(SIMD2<Float>(-1e-9, 3)) == SIMD2(Float(1).nextDown, 0), "fract stays below 1")
    }

    @Test("step and smoothstep: 0 below the edge, 1 above, 3t² − 2t³ between")
    func steps() {
        #expect(simd_step(SIMD3<Float>(repeating: 1), SIMD3(0.5, 1, 2)) == SIMD3(0, 1, 1))
        let edge0 = SIMD4<Float>(repeating: 0), edge1 = SIMD4<Float>(repeating: 2)
        #expect(simd_smoothstep(edge0, edge1, SIMD4(-1, 0.5, 1, 3)) == SIMD4(0, 0.15625, 0.5, 1))
    }

    @Test("reductions: sum, smallest and largest element")
    func reductions() {
        let x = SIMD4<Float>(3, -2, 7, 1)
        #expect(simd_reduce_add(x) == 9)
        #expect(simd_reduce_min(x) == -2)
        #expect(simd_reduce_max(x) == 7)
    }

    @Test("reflect (1, -1, 0) off the plane y = 0 is (1, 1, 0); project (2, 3, 0) onto x is (2, 0, 0)")
    func geometry() {
        #expect(simd_reflect(SIMD3<Float>(1, -1, 0), SIMD3(0, 1, 0)) == SIMD3(1, 1, 0))
        #expect(simd_project(SIMD3<Float>(2, 3, 0), SIMD3(4, 0, 0)) == SIMD3(2, 0, 0))
    }
}
