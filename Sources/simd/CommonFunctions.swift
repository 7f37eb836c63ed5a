// simd's element-wise and reduction functions on vectors of floating-point numbers, under
// their C names.

/// The magnitude of each element of `x`.
@inlinable
public func simd_abs<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x.replacing(with: -x, where: x .< 0) }

/// The smaller of the elements of `x` and `y` at each place.
@inlinable
public func simd_min<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint { pointwiseMin(x, y) }

/// The larger of the elements of `x` and `y` at each place.
@inlinable
public func simd_max<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint { pointwiseMax(x, y) }

/// Each element of `x` rounded down to a whole number.
@inlinable
public func simd_floor<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x.rounded(.down) }

/// Each element of `x` rounded up to a whole number.
@inlinable
public func simd_ceil<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x.rounded(.up) }

/// The fractional part of each element of `x`, `x - floor(x)`, in 0..<1.
@inlinable
public func simd_fract<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint {
    simd_min(x - x.rounded(.down), V(repeating: V.Scalar(1).nextDown))
}

/// -1, 0 or 1 for each element of `x` below, at or above zero (0 for NaN).
@inlinable
public func simd_sign<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint {
    V.zero.replacing(with: 1, where: x .> 0).replacing(with: -1, where: x .< 0)
}

/// 0 for each element of `x` below the one of `edge`, 1 for the others.
@inlinable
public func simd_step<V: SIMD>(_ edge: V, _ x: V) -> V where V.Scalar: FloatingPoint {
    V(repeating: 1).replacing(with: 0, where: x .< edge)
}

/// Hermite interpolation: 0 where `x` is at or below `edge0`, 1 at or above `edge1`, and
/// 3t² − 2t³ for t = (`x` − `edge0`) / (`edge1` − `edge0`) between, element by element.
@inlinable
public func simd_smoothstep<V: SIMD>(_ edge0: V, _ edge1: V, _ x: V) -> V where V.Scalar: FloatingPoint {
    let t = ((x - edge0) / (edge1 - edge0)).clamped(lowerBound: .zero, upperBound: V(repeating: 1))
    return t * t * (3 - 2 * t)
}

/// The sum of the elements of `x`.
@inlinable
public func simd_reduce_add<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { x.sum() }

/// The smallest element of `x`.
@inlinable
public func simd_reduce_min<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { x.min() }

/// The largest element of `x`.
@inlinable
public func simd_reduce_max<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { x.max() }

/// `x` reflected off the plane whose normal is `n` (of length 1): `x − 2(x·n)n`.
@inlinable
public func simd_reflect<V: SIMD>(_ x: V, _ n: V) -> V where V.Scalar: FloatingPoint { x - 2 * simd_dot(x, n) * n }

/// The projection of `x` onto `y`: `(x·y / y·y) y`.
@inlinable
public func simd_project<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint {
    (simd_dot(x, y) / simd_dot(y, y)) * y
}
