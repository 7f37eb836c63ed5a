// The square matrices of <simd/simd.h>, and the names Apple's simd module gives them in
// Swift. The other matrices it declares (simd_float4x3, …) have their C layout and the
// initializer and `columns` tuple Swift gives every C struct, and nothing more. Swift does
// not import a C struct of vectors of three or four doubles (clang aligns those vectors to
// 32 bytes on x86-64, more than Swift aligns SIMD3<Double> and SIMD4<Double>), so
// simd_double3x3 and simd_double4x4 are C types only.

extension simd_float2x2: _SIMDSquareMatrix {
    /// A column of two floats.
    public typealias Column = SIMD2<Float>
}

extension simd_float3x3: _SIMDSquareMatrix {
    /// A column of three floats.
    public typealias Column = SIMD3<Float>
}

extension simd_float4x4: _SIMDSquareMatrix {
    /// A column of four floats.
    public typealias Column = SIMD4<Float>
}

extension simd_double2x2: _SIMDSquareMatrix {
    /// A column of two doubles.
    public typealias Column = SIMD2<Double>
}


/// simd's Swift name of `simd_float2x2`.
public typealias float2x2 = simd_float2x2
/// simd's Swift name of `simd_float3x3`.
public typealias float3x3 = simd_float3x3
/// simd's Swift name of `simd_float4x4`.
public typealias float4x4 = simd_float4x4
/// simd's Swift name of `simd_double2x2`.
public typealias double2x2 = simd_double2x2

/// The 2×2 identity matrix of floats.
@inlinable public var matrix_identity_float2x2: simd_float2x2 { simd_float2x2(1) }
/// The 3×3 identity matrix of floats.
@inlinable public var matrix_identity_float3x3: simd_float3x3 { simd_float3x3(1) }
/// The 4×4 identity matrix of floats.
@inlinable public var matrix_identity_float4x4: simd_float4x4 { simd_float4x4(1) }
/// The 2×2 identity matrix of doubles.
@inlinable public var matrix_identity_double2x2: simd_double2x2 { simd_double2x2(1) }

extension _SIMDSquareMatrix where Column == SIMD2<Scalar> {
    /// The matrix whose columns are `c0` and `c1`.
    @inlinable
    public init(_ c0: Column, _ c1: Column) {
        self.init()
        (self[0], self[1]) = (c0, c1)
    }
}

extension _SIMDSquareMatrix where Column == SIMD3<Scalar> {
    /// The matrix whose columns are `c0`, `c1` and `c2`.
    @inlinable
    public init(_ c0: Column, _ c1: Column, _ c2: Column) {
        self.init()
        (self[0], self[1], self[2]) = (c0, c1, c2)
    }
}

extension _SIMDSquareMatrix where Column == SIMD4<Scalar> {
    /// The matrix whose columns are `c0`, `c1`, `c2` and `c3`.
    @inlinable
    public init(_ c0: Column, _ c1: Column, _ c2: Column, _ c3: Column) {
        self.init()
        (self[0], self[1], self[2], self[3]) = (c0, c1, c2, c3)
    }
}
