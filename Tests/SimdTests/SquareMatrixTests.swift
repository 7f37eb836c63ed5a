import Testing
import simd

/// simd's square matrices: construction, subscripts, products, transpose, inverse and
/// determinant, against values computed by hand.
@Suite("simd square matrices")
struct SquareMatrixTests {
    /// The 2×2 matrix with rows (1, 2) and (3, 4).
    static let a = simd_float2x2(rows: [SIMD2(1, 2), SIMD2(3, 4)])
    /// The 2×2 matrix with rows (5, 6) and (7, 8).
    static let b = simd_float2x2(rows: [SIMD2(5, 6), SIMD2(7, 8)])

    /// A translation by `t`.
    static func translation(_ t: SIMD3<Float>) -> simd_float4x4 {
        simd_float4x4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(t, 1))
    }

    @Test("init(rows:) stores rows; init(_ columns:), init(columns:) and init(_:_:) store columns")
    func construction() {
        #expect(Self.a[0] == SIMD2(1, 3))
        #expect(Self.a[1] == SIMD2(2, 4))
        #expect(Self.a[1, 0] == 2)
        #expect(simd_float2x2([SIMD2(1, 3), SIMD2(2, 4)]) == Self.a)
        #expect(simd_float2x2(columns: (SIMD2(1, 3), SIMD2(2, 4))) == Self.a)
        #expect(simd_float2x2(SIMD2(1, 3), SIMD2(2, 4)) == Self.a)
        #expect(simd_float3x3(diagonal: SIMD3(1, 2, 3))[1] == SIMD3(0, 2, 0))
        #expect(simd_float4x4(2) == simd_float4x4(diagonal: SIMD4(repeating: 2)))
        #expect(matrix_identity_float4x4 == simd_float4x4(diagonal: SIMD4(repeating: 1)))
        #expect(matrix_identity_float3x3.columns.2 == SIMD3(0, 0, 1))
        var m = simd_float4x4()
        m[3, 1] = 7
        m[0] = SIMD4(1, 2, 3, 4)
        #expect(m.columns.3 == SIMD4(0, 7, 0, 0))
        #expect(m.columns.0 == SIMD4(1, 2, 3, 4))
        #expect(m != simd_float4x4())
    }

    @Test("matrix × matrix and matrix × vector: [1 2; 3 4] × [5 6; 7 8] = [19 22; 43 50]")
    func products() {
        let product = simd_float2x2(rows: [SIMD2(19, 22), SIMD2(43, 50)])
        #expect(Self.a * Self.b == product)
        #expect(simd_mul(Self.a, Self.b) == product)
        #expect(matrix_multiply(Self.a, Self.b) == product)
        #expect(Self.a * SIMD2(5, 6) == SIMD2(17, 39))
        #expect(simd_mul(Self.a, SIMD2<Float>(5, 6)) == SIMD2(17, 39))
        #expect(matrix_multiply(Self.a, SIMD2<Float>(5, 6)) == SIMD2(17, 39))
        #expect(SIMD2<Float>(5, 6) * Self.a == SIMD2(23, 34))
        #expect(simd_mul(SIMD2<Float>(5, 6), Self.a) == SIMD2(23, 34))
        let scale = simd_float4x4(diagonal: SIMD4(2, 2, 2, 1))
        let model = Self.translation(SIMD3(1, 2, 3)) * scale
        #expect(model == simd_float4x4(SIMD4(2, 0, 0, 0), SIMD4(0, 2, 0, 0), SIMD4(0, 0, 2, 0), SIMD4(1, 2, 3, 1)))
        #expect(model * SIMD4(1, 1, 1, 1) == SIMD4(3, 4, 5, 1))
        var accumulated = Self.translation(SIMD3(1, 2, 3))
        accumulated *= scale
        #expect(accumulated == model)
    }

    @Test("sums, differences, negation and scalar multiples go element by element")
    func elementwise() {
        #expect(Self.a + Self.b == simd_float2x2(rows: [SIMD2(6, 8), SIMD2(10, 12)]))
        #expect(Self.b - Self.a == simd_float2x2(rows: [SIMD2(4, 4), SIMD2(4, 4)]))
        #expect(-Self.a == simd_float2x2(rows: [SIMD2(-1, -2), SIMD2(-3, -4)]))
        #expect(2 * Self.a == simd_float2x2(rows: [SIMD2(2, 4), SIMD2(6, 8)]))
        #expect(Self.a * 2 == 2 * Self.a)
    }

    @Test("transpose swaps rows and columns")
    func transpose() {
        #expect(Self.a.transpose == simd_float2x2(rows: [SIMD2(1, 3), SIMD2(2, 4)]))
        #expect(simd_transpose(Self.a) == Self.a.transpose)
        let m = simd_float4x4(rows: [SIMD4(1, 2, 3, 4), SIMD4(5, 6, 7, 8), SIMD4(9, 10, 11, 12), SIMD4(13, 14, 15, 16)])
        #expect(m.transpose[2] == SIMD4(9, 10, 11, 12))
        #expect(m.transpose.transpose == m)
    }

    @Test("inverse: [1 2; 3 4]⁻¹ = [-2 1; 1.5 -0.5], and a 4×4 inverse times the matrix is the identity")
    func inverse() {
        #expect(approximately(Self.a.inverse, simd_float2x2(rows: [SIMD2(-2, 1), SIMD2(1.5, -0.5)])))
        #expect(approximately(simd_inverse(Self.a) * Self.a, matrix_identity_float2x2))
        // A zero where the first pivot would be: the rows must be exchanged.
        let m = simd_float4x4(rows: [SIMD4(0, 2, 0, 1), SIMD4(3, 0, 1, 0), SIMD4(1, 1, 4, 0), SIMD4(0, 1, 0, 1)])
        #expect(approximately(m.inverse * m, matrix_identity_float4x4))
        #expect(approximately(m * m.inverse, matrix_identity_float4x4))
        let model = Self.translation(SIMD3(1, 2, 3))
        #expect(approximately(model.inverse, Self.translation(SIMD3(-1, -2, -3))))
        let r = simd_float3x3(rows: [SIMD3(2, 0, 1), SIMD3(1, 3, 2), SIMD3(1, 1, 2)])
        #expect(approximately(r.inverse * r, matrix_identity_float3x3))
    }

    @Test("determinant: -2 for [1 2; 3 4], 6 for a 3×3, -1 for a row exchange, 0 when singular")
    func determinant() {
        #expect(abs(Self.a.determinant + 2) < 1e-5)
        #expect(abs(simd_determinant(Self.a) + 2) < 1e-5)
        let r = simd_float3x3(rows: [SIMD3(2, 0, 1), SIMD3(1, 3, 2), SIMD3(1, 1, 2)])
        #expect(abs(r.determinant - 6) < 1e-5)
        let exchange = simd_float4x4(rows: [SIMD4(0, 1, 0, 0), SIMD4(1, 0, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)])
        #expect(exchange.determinant == -1)
        #expect(simd_float3x3(rows: [SIMD3(1, 2, 3), SIMD3(2, 4, 6), SIMD3(0, 1, 1)]).determinant == 0)
        #expect(simd_float4x4(diagonal: SIMD4(1, 2, 3, 4)).determinant == 24)
        let m = simd_float4x4(rows: [SIMD4(0, 2, 0, 1), SIMD4(3, 0, 1, 0), SIMD4(1, 1, 4, 0), SIMD4(0, 1, 0, 1)])
        #expect(abs(m.determinant + 11) < 1e-4)
    }

    @Test("double matrices share the float matrices' operations")
    func doubles() {
        let m = simd_double2x2(rows: [SIMD2(1, 2), SIMD2(3, 4)])
        #expect(m * SIMD2(5, 6) == SIMD2(17, 39))
        #expect(abs(m.determinant + 2) < 1e-12)
        #expect(approximately(m.inverse * m, matrix_identity_double2x2, tolerance: 1e-12))
        #expect(double2x2.self == simd_double2x2.self)
    }

    @Test("misuse: a column index past the matrix stops, naming it")
    func columnOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = simd_float4x4()[4]
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("SwiftGPU API misuse: simd_float4x4.subscript(_:): column 4 is not in 0..<4"))
    }

    @Test("misuse: init(_ columns:) with too few columns stops, naming the count")
    func tooFewColumns() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = simd_float3x3([SIMD3(1, 0, 0)])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("SwiftGPU API misuse: simd_float3x3.init(_:): 1 columns given, 3 needed"))
    }
}
