extension _SIMDSquareMatrix {
    /// The row with the largest magnitude in `column` among `rows[from...]`: the pivot of
    /// Gaussian elimination, which keeps the division by it accurate. `rows` holds a row of
    /// a matrix in each of its columns.
    @inlinable
    static func pivot(in rows: Self, column: Int, from first: Int) -> Int {
        var best = first
        for row in first..<order where abs(rows[row][column]) > abs(rows[best][column]) {
            best = row
        }
        return best
    }

    /// The inverse matrix: `m.inverse * m` is the identity. A singular matrix has none; its
    /// `inverse` holds infinities or NaNs.
    @inlinable
    public var inverse: Self {
        // Gauss–Jordan elimination on the rows of the matrix, each held as a column of
        // `rows`; the same row operations turn the identity into the inverse's rows.
        var rows = transpose
        var result = Self(1)
        for column in 0..<Self.order {
            let pivot = Self.pivot(in: rows, column: column, from: column)
            if pivot != column {
                (rows[pivot], rows[column]) = (rows[column], rows[pivot])
                (result[pivot], result[column]) = (result[column], result[pivot])
            }
            let scale = 1 / rows[column][column]
            rows[column] *= scale
            result[column] *= scale
            for row in 0..<Self.order where row != column {
                let factor = rows[row][column]
                rows[row] -= factor * rows[column]
                result[row] -= factor * result[column]
            }
        }
        return result.transpose
    }

    /// The determinant of the matrix.
    @inlinable
    public var determinant: Column.Scalar {
        // Gaussian elimination to an upper triangular matrix: the determinant is the product
        // of its diagonal, negated once for each exchange of two rows.
        var rows = transpose
        var product: Column.Scalar = 1
        for column in 0..<Self.order {
            let pivot = Self.pivot(in: rows, column: column, from: column)
            if pivot != column {
                (rows[pivot], rows[column]) = (rows[column], rows[pivot])
                product = -product
            }
            let diagonal = rows[column][column]
            if diagonal == 0 { return 0 }
            product *= diagonal
            for row in (column + 1)..<Self.order {
                rows[row] -= (rows[row][column] / diagonal) * rows[column]
            }
        }
        return product
    }
}
