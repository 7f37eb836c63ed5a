import simd

/// Whether every element of `a` is within `tolerance` of the one of `b`.
func approximately<V: SIMD>(_ a: V, _ b: V, tolerance: V.Scalar = 1e-5) -> Bool where V.Scalar: BinaryFloatingPoint {
    ((a - b) * (a - b)).max() <= tolerance * tolerance
}

/// Whether every element of `a` is within `tolerance` of the one of `b`.
func approximately<M: _SIMDSquareMatrix>(_ a: M, _ b: M, tolerance: M.Scalar = 1e-5) -> Bool {
    (0..<a[0].scalarCount).allSatisfy { approximately(a[$0], b[$0], tolerance: tolerance) }
}
