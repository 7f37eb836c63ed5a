// simd's geometry and common functions on vectors of floating-point numbers, under their C
// names (`simd_dot`) and the Swift names Apple's simd module adds (`dot`).

/// The dot product of `x` and `y`.
@inlinable
public func simd_dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { (x * y).sum() }

/// The square of the length of `x`.
@inlinable
public func simd_length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, x) }

/// The length of `x`.
@inlinable
public func simd_length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint {
    simd_length_squared(x).squareRoot()
}

/// The length of `x`, computed to full precision (as `simd_length`).
@inlinable
public func simd_precise_length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x) }

/// The distance between `x` and `y`.
@inlinable
public func simd_distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x - y) }

/// The square of the distance between `x` and `y`.
@inlinable
public func simd_distance_squared<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint {
    simd_length_squared(x - y)
}

/// `x` scaled to length 1. The zero vector has no direction: its result is NaNs.
@inlinable
public func simd_normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x / simd_length(x) }

/// `x` scaled to length 1, computed to full precision (as `simd_normalize`).
@inlinable
public func simd_precise_normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { simd_normalize(x) }

/// The cross product of `x` and `y`.
@inlinable
public func simd_cross<Scalar: FloatingPoint>(_ x: SIMD3<Scalar>, _ y: SIMD3<Scalar>) -> SIMD3<Scalar> {
    SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
}

/// Each element of `x` limited to the range from the one of `min` to the one of `max`.
@inlinable
public func simd_clamp<V: SIMD>(_ x: V, _ min: V, _ max: V) -> V where V.Scalar: Comparable {
    x.clamped(lowerBound: min, upperBound: max)
}

/// Each element of `x` limited to the range from `min` to `max`.
@inlinable
public func simd_clamp<V: SIMD>(_ x: V, _ min: V.Scalar, _ max: V.Scalar) -> V where V.Scalar: Comparable {
    x.clamped(lowerBound: V(repeating: min), upperBound: V(repeating: max))
}

/// The linear interpolation from `x` (where `t` is 0) to `y` (where `t` is 1), element by
/// element.
@inlinable
public func simd_mix<V: SIMD>(_ x: V, _ y: V, _ t: V) -> V where V.Scalar: FloatingPoint { x + t * (y - x) }

/// The dot product of `x` and `y`.
@inlinable
public func dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, y) }

/// The length of `x`.
@inlinable
public func length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x) }

/// The square of the length of `x`.
@inlinable
public func length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(x) }

/// The distance between `x` and `y`.
@inlinable
public func distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance(x, y) }

/// `x` scaled to length 1.
@inlinable
public func normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { simd_normalize(x) }

/// The cross product of `x` and `y`.
@inlinable
public func cross<Scalar: FloatingPoint>(_ x: SIMD3<Scalar>, _ y: SIMD3<Scalar>) -> SIMD3<Scalar> { simd_cross(x, y) }

/// The linear interpolation from `x` to `y` by `t`, element by element.
@inlinable
public func mix<V: SIMD>(_ x: V, _ y: V, t: V) -> V where V.Scalar: FloatingPoint { simd_mix(x, y, t) }

/// The linear interpolation from `x` to `y` by `t`.
@inlinable
public func mix<V: SIMD>(_ x: V, _ y: V, t: V.Scalar) -> V where V.Scalar: FloatingPoint {
    simd_mix(x, y, V(repeating: t))
}
