// Not part of the ported sample: Apple's simd module, which Linux lacks, as far as the
// sample uses it (a 4×4 float matrix made from its columns, and the identity).

/// A column-major 4×4 matrix of floats, laid out as simd's `float4x4` (64 bytes).
struct float4x4 {
    var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// The matrix whose columns are `columns` (four of them).
    init(_ columns: [SIMD4<Float>]) {
        precondition(columns.count == 4, "float4x4 takes four columns")
        self.columns = (columns[0], columns[1], columns[2], columns[3])
    }
}

/// The identity matrix.
let matrix_identity_float4x4 = float4x4([
    SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1),
])
