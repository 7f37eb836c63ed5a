#if canImport(Glibc)
import Glibc
#endif

// simd_quatf: a quaternion of floats, its imaginary parts in `vector.x`, `y` and `z`, its
// real part in `vector.w`. A unit quaternion stands for a rotation.

/// `simd_quatf`, the C quaternion of floats, with simd's initializers, operators and rotations.
extension simd_quatf {
    /// The quaternion `ix`·i + `iy`·j + `iz`·k + `r`.
    @inlinable
    public init(ix: Float, iy: Float, iz: Float, r: Float) {
        self.init(vector: SIMD4(ix, iy, iz, r))
    }

    /// The quaternion with real part `real` and imaginary parts `imag`.
    @inlinable
    public init(real: Float, imag: SIMD3<Float>) {
        self.init(vector: SIMD4(imag, real))
    }

    /// The unit quaternion that rotates by `angle` radians about `axis` (any length but
    /// zero), counterclockwise as seen looking down the axis towards the origin.
    @inlinable
    public init(angle: Float, axis: SIMD3<Float>) {
        self.init(real: cosf(angle / 2), imag: simd_normalize(axis) * sinf(angle / 2))
    }

    /// The unit quaternion of the rotation that `matrix` (orthonormal, determinant 1) makes.
    @inlinable
    public init(_ matrix: simd_float3x3) {
        // The largest of the four candidates for a component is computed from the diagonal,
        // the others from it and the off-diagonal elements: the division is by the largest.
        let m = matrix
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(ix: (m[1, 2] - m[2, 1]) / s, iy: (m[2, 0] - m[0, 2]) / s, iz: (m[0, 1] - m[1, 0]) / s, r: s / 4)
        } else if m[0, 0] > m[1, 1], m[0, 0] > m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            self.init(ix: s / 4, iy: (m[1, 0] + m[0, 1]) / s, iz: (m[2, 0] + m[0, 2]) / s, r: (m[1, 2] - m[2, 1]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            self.init(ix: (m[1, 0] + m[0, 1]) / s, iy: s / 4, iz: (m[2, 1] + m[1, 2]) / s, r: (m[2, 0] - m[0, 2]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            self.init(ix: (m[2, 0] + m[0, 2]) / s, iy: (m[2, 1] + m[1, 2]) / s, iz: s / 4, r: (m[0, 1] - m[1, 0]) / s)
        }
    }

    /// The unit quaternion of the rotation that the upper-left 3×3 part of `matrix` makes.
    @inlinable
    public init(_ matrix: simd_float4x4) {
        self.init(simd_float3x3(firstThree(matrix[0]), firstThree(matrix[1]), firstThree(matrix[2])))
    }

    /// The real part.
    @inlinable
    public var real: Float { vector.w }

    /// The imaginary parts (of i, j and k).
    @inlinable
    public var imag: SIMD3<Float> { firstThree(vector) }

    /// The length of the quaternion as a vector of four numbers.
    @inlinable
    public var length: Float { simd_length(vector) }

    /// The quaternion scaled to length 1.
    @inlinable
    public var normalized: simd_quatf { simd_quatf(vector: simd_normalize(vector)) }

    /// The quaternion with its imaginary parts negated.
    @inlinable
    public var conjugate: simd_quatf { simd_quatf(real: real, imag: -imag) }

    /// The quaternion that undoes this one: `q * q.inverse` is 1.
    @inlinable
    public var inverse: simd_quatf { simd_quatf(vector: conjugate.vector / simd_length_squared(vector)) }

    /// The angle of the rotation, in radians (0 to 2π).
    @inlinable
    public var angle: Float { 2 * atan2f(simd_length(imag), real) }

    /// The axis of the rotation, of length 1; a rotation by no angle has no axis, and gives
    /// (1, 0, 0).
    @inlinable
    public var axis: SIMD3<Float> {
        let length = simd_length(imag)
        return length == 0 ? SIMD3(1, 0, 0) : imag / length
    }

    /// `vector` rotated by the quaternion (`q` · `vector` · `q`⁻¹).
    @inlinable
    public func act(_ vector: SIMD3<Float>) -> SIMD3<Float> {
        (self * simd_quatf(real: 0, imag: vector) * inverse).imag
    }

    /// The Hamilton product `lhs` · `rhs`: the rotation `rhs`, then `lhs`.
    @inlinable
    public static func * (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf {
        simd_quatf(real: lhs.real * rhs.real - simd_dot(lhs.imag, rhs.imag),
                   imag: lhs.real * rhs.imag + rhs.real * lhs.imag + simd_cross(lhs.imag, rhs.imag))
    }

    /// The quaternion scaled by `scalar`.
    @inlinable
    public static func * (lhs: simd_quatf, scalar: Float) -> simd_quatf { simd_quatf(vector: lhs.vector * scalar) }

    /// The quaternion scaled by `scalar`.
    @inlinable
    public static func * (scalar: Float, rhs: simd_quatf) -> simd_quatf { rhs * scalar }

    /// The sum of two quaternions.
    @inlinable
    public static func + (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf { simd_quatf(vector: lhs.vector + rhs.vector) }

    /// The difference of two quaternions.
    @inlinable
    public static func - (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf { simd_quatf(vector: lhs.vector - rhs.vector) }

    /// The quaternion negated.
    @inlinable
    public static prefix func - (q: simd_quatf) -> simd_quatf { simd_quatf(vector: -q.vector) }

    /// Whether the two quaternions have equal parts.
    @inlinable
    public static func == (lhs: simd_quatf, rhs: simd_quatf) -> Bool { lhs.vector == rhs.vector }

    /// Whether the two quaternions differ in some part.
    @inlinable
    public static func != (lhs: simd_quatf, rhs: simd_quatf) -> Bool { lhs.vector != rhs.vector }
}

/// `simd_float3x3` made from a quaternion.
extension simd_float3x3 {
    /// The rotation matrix of the unit quaternion `q`.
    @inlinable
    public init(_ q: simd_quatf) {
        let (x, y, z, w) = (q.vector.x, q.vector.y, q.vector.z, q.vector.w)
        self.init(SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
                  SIMD3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
                  SIMD3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)))
    }
}

/// `simd_float4x4` made from a quaternion.
extension simd_float4x4 {
    /// The rotation matrix of the unit quaternion `q`, with no translation.
    @inlinable
    public init(_ q: simd_quatf) {
        let rotation = simd_float3x3(q)
        self.init(SIMD4(rotation[0], 0), SIMD4(rotation[1], 0), SIMD4(rotation[2], 0), SIMD4(0, 0, 0, 1))
    }
}

/// The quaternion `ix`·i + `iy`·j + `iz`·k + `r`.
@inlinable
public func simd_quaternion(_ ix: Float, _ iy: Float, _ iz: Float, _ r: Float) -> simd_quatf {
    simd_quatf(ix: ix, iy: iy, iz: iz, r: r)
}

/// The quaternion whose imaginary parts are `xyzr.x`, `y` and `z` and whose real part is `xyzr.w`.
@inlinable
public func simd_quaternion(_ xyzr: simd_float4) -> simd_quatf { simd_quatf(vector: xyzr) }

/// The quaternion with imaginary parts `imag` and real part `real`.
@inlinable
public func simd_quaternion(_ imag: simd_float3, _ real: Float) -> simd_quatf { simd_quatf(real: real, imag: imag) }

/// The unit quaternion that rotates by `angle` radians about `axis`.
@inlinable
public func simd_quaternion(_ angle: Float, _ axis: simd_float3) -> simd_quatf { simd_quatf(angle: angle, axis: axis) }

/// The unit quaternion of the rotation that `matrix` makes.
@inlinable
public func simd_quaternion(_ matrix: simd_float3x3) -> simd_quatf { simd_quatf(matrix) }

/// The unit quaternion of the rotation that the upper-left 3×3 part of `matrix` makes.
@inlinable
public func simd_quaternion(_ matrix: simd_float4x4) -> simd_quatf { simd_quatf(matrix) }

/// `vector` rotated by `q`.
@inlinable
public func simd_act(_ q: simd_quatf, _ vector: simd_float3) -> simd_float3 { q.act(vector) }

/// The Hamilton product `lhs` · `rhs`.
@inlinable
public func simd_mul(_ lhs: simd_quatf, _ rhs: simd_quatf) -> simd_quatf { lhs * rhs }

/// The rotation matrix of the unit quaternion `q`.
@inlinable
public func simd_matrix3x3(_ q: simd_quatf) -> simd_float3x3 { simd_float3x3(q) }

/// The rotation matrix of the unit quaternion `q`, with no translation.
@inlinable
public func simd_matrix4x4(_ q: simd_quatf) -> simd_float4x4 { simd_float4x4(q) }

/// `q` scaled to length 1.
@inlinable
public func simd_normalize(_ q: simd_quatf) -> simd_quatf { q.normalized }

/// The inverse of `q`.
@inlinable
public func simd_inverse(_ q: simd_quatf) -> simd_quatf { q.inverse }

/// The conjugate of `q`.
@inlinable
public func simd_conjugate(_ q: simd_quatf) -> simd_quatf { q.conjugate }

/// The length of `q`.
@inlinable
public func simd_length(_ q: simd_quatf) -> Float { q.length }

/// The first three elements of `vector`.
@inlinable
func firstThree(_ vector: SIMD4<Float>) -> SIMD3<Float> { SIMD3(vector.x, vector.y, vector.z) }

/// Spherical linear interpolation from `q0` (where `t` is 0) to `q1` (where `t` is 1) along
/// the shorter arc: the rotation that turns at a constant rate from one to the other. Both
/// are unit quaternions.
@inlinable
public func simd_slerp(_ q0: simd_quatf, _ q1: simd_quatf, _ t: Float) -> simd_quatf {
    // q and -q are the same rotation: the one nearer q0 takes the shorter arc.
    var cosine = simd_dot(q0.vector, q1.vector)
    let end = cosine < 0 ? -q1 : q1
    cosine = abs(cosine)
    // Nearly equal: the arc is nearly straight, and sin of its angle nearly zero.
    guard cosine < 1 - 1e-6 else {
        return simd_quatf(vector: simd_normalize(simd_mix(q0.vector, end.vector, SIMD4(repeating: t))))
    }
    let angle = acosf(cosine)
    let scale = 1 / sinf(angle)
    return simd_quatf(vector: q0.vector * (sinf((1 - t) * angle) * scale) + end.vector * (sinf(t * angle) * scale))
}
