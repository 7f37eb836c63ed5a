// simd_make_floatN: a vector of N floats from scalars and shorter vectors, or a longer
// vector's first N elements. A shorter vector alone is extended with zeros.

/// The vector (`x`, `y`).
@inlinable public func simd_make_float2(_ x: Float, _ y: Float) -> simd_float2 { SIMD2(x, y) }
/// The vector (`x`, 0).
@inlinable public func simd_make_float2(_ x: Float) -> simd_float2 { SIMD2(x, 0) }
/// The first two elements of `v`.
@inlinable public func simd_make_float2(_ v: simd_float2) -> simd_float2 { v }
/// The first two elements of `v`.
@inlinable public func simd_make_float2(_ v: simd_float3) -> simd_float2 { SIMD2(v.x, v.y) }
/// The first two elements of `v`.
@inlinable public func simd_make_float2(_ v: simd_float4) -> simd_float2 { SIMD2(v.x, v.y) }

/// The vector (`x`, `y`, `z`).
@inlinable public func simd_make_float3(_ x: Float, _ y: Float, _ z: Float) -> simd_float3 { SIMD3(x, y, z) }
/// The vector (`xy.x`, `xy.y`, `z`).
@inlinable public func simd_make_float3(_ xy: simd_float2, _ z: Float) -> simd_float3 { SIMD3(xy, z) }
/// The vector (`x`, `yz.x`, `yz.y`).
@inlinable public func simd_make_float3(_ x: Float, _ yz: simd_float2) -> simd_float3 { SIMD3(x, yz.x, yz.y) }
/// The vector (`x`, 0, 0).
@inlinable public func simd_make_float3(_ x: Float) -> simd_float3 { SIMD3(x, 0, 0) }
/// The vector (`v.x`, `v.y`, 0).
@inlinable public func simd_make_float3(_ v: simd_float2) -> simd_float3 { SIMD3(v, 0) }
/// `v` itself.
@inlinable public func simd_make_float3(_ v: simd_float3) -> simd_float3 { v }
/// The first three elements of `v`.
@inlinable public func simd_make_float3(_ v: simd_float4) -> simd_float3 { SIMD3(v.x, v.y, v.z) }

/// The vector (`x`, `y`, `z`, `w`).
@inlinable
public func simd_make_float4(_ x: Float, _ y: Float, _ z: Float, _ w: Float) -> simd_float4 { SIMD4(x, y, z, w) }
/// The vector (`xyz.x`, `xyz.y`, `xyz.z`, `w`).
@inlinable public func simd_make_float4(_ xyz: simd_float3, _ w: Float) -> simd_float4 { SIMD4(xyz, w) }
/// The vector (`x`, `yzw.x`, `yzw.y`, `yzw.z`).
@inlinable
public func simd_make_float4(_ x: Float, _ yzw: simd_float3) -> simd_float4 { SIMD4(x, yzw.x, yzw.y, yzw.z) }
/// The vector (`xy.x`, `xy.y`, `zw.x`, `zw.y`).
@inlinable public func simd_make_float4(_ xy: simd_float2, _ zw: simd_float2) -> simd_float4 { SIMD4(lowHalf: xy, highHalf: zw) }
/// The vector (`xy.x`, `xy.y`, `z`, `w`).
@inlinable
public func simd_make_float4(_ xy: simd_float2, _ z: Float, _ w: Float) -> simd_float4 { SIMD4(xy.x, xy.y, z, w) }
/// The vector (`x`, `y`, `zw.x`, `zw.y`).
@inlinable
public func simd_make_float4(_ x: Float, _ y: Float, _ zw: simd_float2) -> simd_float4 { SIMD4(x, y, zw.x, zw.y) }
/// The vector (`x`, `yz.x`, `yz.y`, `w`).
@inlinable
public func simd_make_float4(_ x: Float, _ yz: simd_float2, _ w: Float) -> simd_float4 { SIMD4(x, yz.x, yz.y, w) }
/// The vector (`x`, 0, 0, 0).
@inlinable public func simd_make_float4(_ x: Float) -> simd_float4 { SIMD4(x, 0, 0, 0) }
/// The vector (`v.x`, `v.y`, 0, 0).
@inlinable public func simd_make_float4(_ v: simd_float2) -> simd_float4 { SIMD4(v.x, v.y, 0, 0) }
/// The vector (`v.x`, `v.y`, `v.z`, 0).
@inlinable public func simd_make_float4(_ v: simd_float3) -> simd_float4 { SIMD4(v, 0) }
/// `v` itself.
@inlinable public func simd_make_float4(_ v: simd_float4) -> simd_float4 { v }
