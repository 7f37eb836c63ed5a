/// The least-squares polynomial of one degree through points, from its normal equations.
struct PolynomialFit {
    /// Coefficients, constant first.
    let coefficients: [Double]

    /// The fit of `degree` to (`times`, `values`); nil when the points do not determine one
    /// (fewer distinct times than coefficients).
    init?(times: [Double], values: [Double], degree: Int) {
        let size = degree + 1
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: size + 1), count: size)
        for (t, v) in zip(times, values) {
            var powers = [Double](repeating: 1, count: 2 * size - 1)
            for k in 1..<powers.count { powers[k] = powers[k - 1] * t }
            for row in 0..<size {
                for column in 0..<size { matrix[row][column] += powers[row + column] }
                matrix[row][size] += powers[row] * v
            }
        }
        guard let solution = PolynomialFit.solve(matrix) else { return nil }
        coefficients = solution
    }

    /// The polynomial at `t` (Horner's rule).
    func value(at t: Double) -> Double { coefficients.reversed().reduce(0) { $0 * t + $1 } }

    /// Solves an augmented square system by Gaussian elimination with partial pivoting;
    /// nil when it is singular.
    static func solve(_ system: [[Double]]) -> [Double]? {
        var rows = system
        let size = rows.count
        for column in 0..<size {
            guard let pivot = (column..<size).max(by: { abs(rows[$0][column]) < abs(rows[$1][column]) }),
                  abs(rows[pivot][column]) > 1e-12 else { return nil }
            rows.swapAt(column, pivot)
            for row in (column + 1)..<size {
                let factor = rows[row][column] / rows[column][column]
                for k in column...size { rows[row][k] -= factor * rows[column][k] }
            }
        }
        var solution = [Double](repeating: 0, count: size)
        for row in stride(from: size - 1, through: 0, by: -1) {
            var sum = rows[row][size]
            for k in (row + 1)..<size { sum -= rows[row][k] * solution[k] }
            solution[row] = sum / rows[row][row]
        }
        return solution
    }
}
