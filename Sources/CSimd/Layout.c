// The layout Apple's simd types have, checked when this target compiles: a shader-shared
// struct is only portable if these hold.
#include "simd/simd.h"

#include <stdalign.h>

#define SWIFTGPU_SIMD_LAYOUT(type, size, alignment) \
    _Static_assert(sizeof(type) == (size), #type " takes " #size " bytes"); \
    _Static_assert(alignof(type) == (alignment), #type " is aligned to " #alignment " bytes");

SWIFTGPU_SIMD_LAYOUT(simd_float2, 8, 8)
SWIFTGPU_SIMD_LAYOUT(simd_float3, 16, 16)
SWIFTGPU_SIMD_LAYOUT(simd_float4, 16, 16)
SWIFTGPU_SIMD_LAYOUT(simd_int2, 8, 8)
SWIFTGPU_SIMD_LAYOUT(simd_uint4, 16, 16)
SWIFTGPU_SIMD_LAYOUT(simd_float2x2, 16, 8)
SWIFTGPU_SIMD_LAYOUT(simd_float3x3, 48, 16)
SWIFTGPU_SIMD_LAYOUT(simd_float4x4, 64, 16)
SWIFTGPU_SIMD_LAYOUT(simd_float4x3, 64, 16)
SWIFTGPU_SIMD_LAYOUT(simd_float3x2, 24, 8)
SWIFTGPU_SIMD_LAYOUT(simd_quatf, 16, 16)
SWIFTGPU_SIMD_LAYOUT(simd_double2, 16, 16)
// Four doubles take 32 bytes; clang aligns them to 32 on x86-64 (as on Intel Macs) and to
// 16 on arm64 (as on Apple silicon).
#if defined(__x86_64__)
SWIFTGPU_SIMD_LAYOUT(simd_double4x4, 128, 32)
#else
SWIFTGPU_SIMD_LAYOUT(simd_double4x4, 128, 16)
#endif
