// The matrices of <simd/simd.h>, and the names Apple's simd module gives them in Swift.
// Swift does not import a C struct of vectors of three or four doubles (clang aligns those vectors to
// 32 bytes on x86-64, more than Swift aligns SIMD3<Double> and SIMD4<Double>), so
// the double matrices but simd_double2x2 are C types only.

/// `simd_float2x2` as a square matrix of simd's: its initializers, subscripts and operators.
extension simd_float2x2: _SIMDSquareMatrix {
    /// A column of two floats.
    public typealias Column = SIMD2<Float>
}

/// `simd_float3x3` as a square matrix of simd's: its initializers, subscripts and operators.
extension simd_float3x3: _SIMDSquareMatrix {
    /// A column of three floats.
    public typealias Column = SIMD3<Float>
}

/// `simd_float4x4` as a square matrix of simd's: its initializers, subscripts and operators.
extension simd_float4x4: _SIMDSquareMatrix {
    /// A column of four floats.
    public typealias Column = SIMD4<Float>
}

/// `simd_float2x3` as a matrix of simd's: its initializers, subscripts and operators.
extension simd_float2x3: _SIMDMatrix {
    /// A column of three floats.
    public typealias Column = SIMD3<Float>
    /// A row of two floats.
    public typealias Row = SIMD2<Float>
    /// The matrix of three columns of two floats.
    public typealias Transpose = simd_float3x2
}

/// `simd_float2x4` as a matrix of simd's: its initializers, subscripts and operators.
extension simd_float2x4: _SIMDMatrix {
    /// A column of four floats.
    public typealias Column = SIMD4<Float>
    /// A row of two floats.
    public typealias Row = SIMD2<Float>
    /// The matrix of four columns of two floats.
    public typealias Transpose = simd_float4x2
}

/// `simd_float3x2` as a matrix of simd's: its initializers, subscripts and operators.
extension simd_float3x2: _SIMDMatrix {
    /// A column of two floats.
    public typealias Column = SIMD2<Float>
    /// A row of three floats.
    public typealias Row = SIMD3<Float>
    /// The matrix of two columns of three floats.
    public typealias Transpose = simd_float2x3
}

/// `simd_float3x4` as a matrix of simd's: its initializers, subscripts and operators.
extension simd_float3x4: _SIMDMatrix {
    /// A column of four floats.
    public typealias Column = SIMD4<Float>
    /// A row of three floats.
    public typealias Row = SIMD3<Float>
    /// The matrix of four columns of three floats.
    public typealias Transpose = simd_float4x3
}

/// `simd_float4x2` as a matrix of simd's: its initializers, subscripts and operators.
extension simd_float4x2: _SIMDMatrix {
    /// A column of two floats.
    public typealias Column = SIMD2<Float>
    /// A row of four floats.
    public typealias Row = SIMD4<Float>
    /// The matrix of two columns of four floats.
    public typealias Transpose = simd_float2x4
}

/// `simd_float4x3` as a matrix of simd's: its initializers, subscripts and operators.
extension simd_float4x3: _SIMDMatrix {
    /// A column of three floats.
    public typealias Column = SIMD3<Float>
    /// A row of four floats.
    public typealias Row = SIMD4<Float>
    /// The matrix of three columns of four floats.
    public typealias Transpose = simd_float3x4
}

/// `simd_double2x2` as a square matrix of simd's: its initializers, subscripts and operators.
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
/// simd's Swift name of `simd_float2x3`.
public typealias float2x3 = simd_float2x3
/// simd's Swift name of `simd_float2x4`.
public typealias float2x4 = simd_float2x4
/// simd's Swift name of `simd_float3x2`.
public typealias float3x2 = simd_float3x2
/// simd's Swift name of `simd_float3x4`.
public typealias float3x4 = simd_float3x4
/// simd's Swift name of `simd_float4x2`.
public typealias float4x2 = simd_float4x2
/// simd's Swift name of `simd_float4x3`.
public typealias float4x3 = simd_float4x3
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
