/// What simd's square matrices add to `_SIMDMatrix`: the diagonal, products of two
/// matrices, `inverse` and `determinant`.
///
/// `simd_float2x2`, `simd_float3x3`, `simd_float4x4` and `simd_double2x2` conform. It is not
/// Apple's API. Conform no type of your own.
public protocol _SIMDSquareMatrix: _SIMDMatrix where Row == Column, Transpose == Self {}

extension _SIMDSquareMatrix {
    /// The number of columns (and of rows).
    @inlinable
    static var order: Int { columnCount }

    /// The matrix with `diagonal` on its main diagonal and zeros elsewhere.
    @inlinable
    public init(diagonal: Column) {
        self.init()
        for index in 0..<Self.order {
            self[index, index] = diagonal[index]
        }
    }

    /// The matrix product `lhs` × `rhs`.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self {
        var result = Self()
        for column in 0..<order {
            result[column] = lhs * rhs[column]
        }
        return result
    }

    /// Multiplies `lhs` by `rhs` (`lhs` × `rhs`).
    @inlinable
    public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
}
