import Testing
import simd

/// simd's matrices that are not square: columns and rows, transpose, products with vectors.
@Suite("simd matrices")
struct MatrixTests {
    /// The 3-column, 2-row matrix with rows (1, 2, 3) and (4, 5, 6).
    static let m = simd_float3x2(rows: [SIMD3(1, 2, 3), SIMD3(4, 5, 6)])

    @Test("a 3×2 matrix stores three columns of two; init(_:_:_:), init(_ columns:) and init(columns:) agree")
    func construction() {
        #expect(Self.m[0] == SIMD2(1, 4))
        #expect(Self.m[2] == SIMD2(3, 6))
        #expect(Self.m[1, 0] == 2)
        #expect(simd_float3x2(SIMD2(1, 4), SIMD2(2, 5), SIMD2(3, 6)) == Self.m)
        #expect(simd_float3x2([SIMD2(1, 4), SIMD2(2, 5), SIMD2(3, 6)]) == Self.m)
        #expect(simd_float3x2(columns: (SIMD2(1, 4), SIMD2(2, 5), SIMD2(3, 6))) == Self.m)
        #expect(simd_float4x3(1) == simd_float4x3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(0, 0, 0)))
        #expect(simd_float2x4(2)[1] == SIMD4(0, 2, 0, 0))
        #expect(float4x3.self == simd_float4x3.self)
    }

    @Test("transpose of a 3×2 matrix is the 2×3 matrix with its rows as columns")
    func transpose() {
        let t: simd_float2x3 = Self.m.transpose
        #expect(t == simd_float2x3(SIMD3(1, 2, 3), SIMD3(4, 5, 6)))
        #expect(simd_transpose(Self.m) == t)
        #expect(t.transpose == Self.m)
    }

    @Test("[1 2 3; 4 5 6] × (1, 1, 1) = (6, 15); (1, 1) × [1 2 3; 4 5 6] = (5, 7, 9)")
    func vectorProducts() {
        #expect(Self.m * SIMD3(1, 1, 1) == SIMD2(6, 15))
        #expect(simd_mul(Self.m, SIMD3<Float>(1, 0, 2)) == SIMD2(7, 16))
        #expect(SIMD2<Float>(1, 1) * Self.m == SIMD3(5, 7, 9))
        #expect(simd_mul(SIMD2<Float>(1, 1), Self.m) == SIMD3(5, 7, 9))
    }

    @Test("sums, differences and scalar multiples of a 4×3 matrix go element by element")
    func elementwise() {
        let a = simd_float4x3(1), b = simd_float4x3(SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(7, 8, 9), SIMD3(10, 11, 12))
        #expect((a + b)[0] == SIMD3(2, 2, 3))
        #expect((b - a)[3] == SIMD3(10, 11, 12))
        #expect((2 * b)[3] == SIMD3(20, 22, 24))
        #expect((-b)[1] == SIMD3(-4, -5, -6))
    }

    @Test("misuse: a row index past a 3×2 matrix's two rows stops, naming it")
    func rowOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = simd_float3x2()[2, 2]
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("SwiftGPU API misuse: simd_float3x2.subscript(_:_:): row 2 is not in 0..<2"))
    }
}
