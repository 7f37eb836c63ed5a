// A header shared between Swift and shaders, as Apple's samples share AAPLShaderTypes.h:
// the fields are simd's C types, and Swift must see them as Apple's SDK shows them.
#ifndef SIMD_TEST_TYPES_H
#define SIMD_TEST_TYPES_H

#include <simd/simd.h>

typedef struct {
    vector_float2 position;
    vector_float4 color;
} TestVertex;

typedef struct {
    matrix_float4x4 modelViewProjection;
    matrix_float3x3 normalMatrix;
    vector_float3 lightDirection;
    float intensity;
} TestUniforms;

typedef struct {
    simd_quatf orientation;
    vector_uint2 viewportSize;
    simd_int3 cell;
} TestMixed;

// The C compiler's own measure of the structs, for the tests to compare with Swift's.
unsigned long test_vertex_size(void);
unsigned long test_uniforms_size(void);
unsigned long test_uniforms_normal_matrix_offset(void);
unsigned long test_uniforms_light_direction_offset(void);
unsigned long test_mixed_size(void);

#endif
