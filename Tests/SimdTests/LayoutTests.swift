import Testing
import simd

/// Size, stride and alignment of simd's types against Apple's. The expected values follow
/// from the definitions in Apple's simd headers: `<simd/vector_types.h>` declares
/// `simd_floatN` as a clang ext vector of N floats (`__attribute__((__ext_vector_type__(N)))`),
/// which clang lays out as N rounded up to a power of two elements, aligned to that size;
/// `<simd/matrix_types.h>` declares `simd_floatCxR` as `struct { simd_floatR columns[C]; }`;
/// `<simd/quaternion.h>` declares `simd_quatf` as `struct { simd_float4 vector; }`. The Metal
/// Shading Language specification's table of vector and matrix sizes gives the same numbers
/// for float2 (8), float3 and float4 (16), float3x3 (48) and float4x4 (64).
@Suite("simd memory layout")
struct LayoutTests {
    /// `type`'s size, stride and alignment, in that order.
    static func layout<T>(_ type: T.Type) -> [Int] {
        [MemoryLayout<T>.size, MemoryLayout<T>.stride, MemoryLayout<T>.alignment]
    }

    @Test("vectors: 2 floats take 8 bytes; 3 and 4 floats take 16 and are aligned to 16")
    func floatVectors() {
        #expect(Self.layout(simd_float2.self) == [8, 8, 8])
        #expect(Self.layout(simd_float3.self) == [16, 16, 16])
        #expect(Self.layout(simd_float4.self) == [16, 16, 16])
        #expect(Self.layout(simd_int2.self) == [8, 8, 8])
        #expect(Self.layout(simd_int3.self) == [16, 16, 16])
        #expect(Self.layout(simd_uint4.self) == [16, 16, 16])
        #expect(Self.layout(simd_double2.self) == [16, 16, 16])
        #expect(Self.layout(simd_uchar4.self) == [4, 4, 4])
    }

    @Test("the C vector types are the standard library's SIMD types, as on Apple's platforms")
    func vectorTypesAreSIMD() {
        #expect(simd_float2.self == SIMD2<Float>.self)
        #expect(simd_float3.self == SIMD3<Float>.self)
        #expect(simd_float4.self == SIMD4<Float>.self)
        #expect(vector_float2.self == SIMD2<Float>.self)
        #expect(vector_float3.self == SIMD3<Float>.self)
        #expect(vector_float4.self == SIMD4<Float>.self)
        #expect(simd_float8.self == SIMD8<Float>.self)
        #expect(simd_float16.self == SIMD16<Float>.self)
        #expect(simd_int4.self == SIMD4<Int32>.self)
        #expect(vector_uint2.self == SIMD2<UInt32>.self)
        #expect(simd_ushort2.self == SIMD2<UInt16>.self)
        #expect(simd_uchar4.self == SIMD4<UInt8>.self)
        #expect(simd_char4.self == SIMD4<CChar>.self)
        #expect(simd_long2.self == SIMD2<Int>.self)
        #expect(simd_double2.self == SIMD2<Double>.self)
        #expect(simd_float1.self == Float.self)
    }

    @Test("matrices: C columns of R floats, each column laid out as simd_floatR")
    func floatMatrices() {
        #expect(Self.layout(simd_float2x2.self) == [16, 16, 8])
        #expect(Self.layout(simd_float2x3.self) == [32, 32, 16])
        #expect(Self.layout(simd_float2x4.self) == [32, 32, 16])
        #expect(Self.layout(simd_float3x2.self) == [24, 24, 8])
        #expect(Self.layout(simd_float3x3.self) == [48, 48, 16])
        #expect(Self.layout(simd_float3x4.self) == [48, 48, 16])
        #expect(Self.layout(simd_float4x2.self) == [32, 32, 8])
        #expect(Self.layout(simd_float4x3.self) == [64, 64, 16])
        #expect(Self.layout(simd_float4x4.self) == [64, 64, 16])
        #expect(Self.layout(simd_double2x2.self) == [32, 32, 16])
        #expect(matrix_float4x4.self == simd_float4x4.self)
        #expect(float4x4.self == simd_float4x4.self)
        #expect(matrix_float3x3.self == simd_float3x3.self)
    }

    @Test("simd_quatf is one simd_float4: 16 bytes, aligned to 16")
    func quaternion() {
        #expect(Self.layout(simd_quatf.self) == [16, 16, 16])
    }

    @Test("a matrix's columns are a tuple of its column vectors, as Swift imports them on Apple's platforms")
    func columnsTuple() {
        let matrix = simd_float4x4(columns: (SIMD4(1, 2, 3, 4), SIMD4(5, 6, 7, 8), SIMD4(9, 10, 11, 12),
                                             SIMD4(13, 14, 15, 16)))
        #expect(matrix.columns.2 == SIMD4(9, 10, 11, 12))
        #expect(matrix[2] == SIMD4(9, 10, 11, 12))
        let qualified: simd.simd_float4x4 = matrix
        #expect(qualified[3, 1] == 14)
    }
}
