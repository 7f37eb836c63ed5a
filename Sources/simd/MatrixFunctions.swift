// simd's free functions on matrices, as Apple's simd module names them.

/// The matrix product `lhs` × `rhs`.
@inlinable
public func simd_mul<Matrix: _SIMDSquareMatrix>(_ lhs: Matrix, _ rhs: Matrix) -> Matrix { lhs * rhs }

/// The matrix product `matrix` × `vector`, `vector` taken as a column.
@inlinable
public func simd_mul<Matrix: _SIMDMatrix>(_ matrix: Matrix, _ vector: Matrix.Row) -> Matrix.Column {
    matrix * vector
}

/// The matrix product `vector` × `matrix`, `vector` taken as a row.
@inlinable
public func simd_mul<Matrix: _SIMDMatrix>(_ vector: Matrix.Column, _ matrix: Matrix) -> Matrix.Row {
    vector * matrix
}

/// The matrix product `lhs` × `rhs` (simd's older name of `simd_mul`).
@inlinable
public func matrix_multiply<Matrix: _SIMDSquareMatrix>(_ lhs: Matrix, _ rhs: Matrix) -> Matrix { lhs * rhs }

/// The matrix product `matrix` × `vector` (simd's older name of `simd_mul`).
@inlinable
public func matrix_multiply<Matrix: _SIMDMatrix>(_ matrix: Matrix, _ vector: Matrix.Row) -> Matrix.Column {
    matrix * vector
}

/// The matrix with the rows and columns of `matrix` swapped.
@inlinable
public func simd_transpose<Matrix: _SIMDMatrix>(_ matrix: Matrix) -> Matrix.Transpose { matrix.transpose }

/// The inverse of `matrix` (see `inverse`).
@inlinable
public func simd_inverse<Matrix: _SIMDSquareMatrix>(_ matrix: Matrix) -> Matrix { matrix.inverse }

/// The determinant of `matrix`.
@inlinable
public func simd_determinant<Matrix: _SIMDSquareMatrix>(_ matrix: Matrix) -> Matrix.Column.Scalar {
    matrix.determinant
}

/// The matrix with `diagonal` on its main diagonal and zeros elsewhere.
@inlinable
public func simd_diagonal_matrix<Matrix: _SIMDSquareMatrix>(_ diagonal: Matrix.Column) -> Matrix {
    Matrix(diagonal: diagonal)
}
