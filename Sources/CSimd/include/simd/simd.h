// <simd/simd.h> for Linux: the vector, matrix and quaternion types of Apple's simd library,
// declared with Apple's names and memory layout, so that a C header shared between an app's
// Swift code and its shaders (a sample's `ShaderTypes.h`) compiles here unchanged and
// imports into Swift with the types Apple's SDK gives it: an ext vector of N floats is
// `SIMDN<Float>`, and a matrix is the struct that the Swift module `simd` extends with
// its operators.
//
// Only types are declared here. simd's functions are Swift functions of the module `simd`;
// C code that includes this header gets the types, not Apple's C functions.
//
// Layout (clang's, as on Apple's platforms): an ext vector of N elements takes the space
// and alignment of N rounded up to a power of two elements (a vector of 3 floats: 16 bytes,
// aligned to 16); a matrix of C columns and R rows is an array of C column vectors of R
// elements; a quaternion is one 4-element vector, its imaginary parts first.
#ifndef SWIFTGPU_SIMD_SIMD_H
#define SWIFTGPU_SIMD_SIMD_H

#include <stdint.h>

// The vectors of one scalar type: simd_<name>N and vector_<name>N for N = 2, 3, 4, 8, 16.
#define SWIFTGPU_SIMD_VECTOR(scalar, name, n) \
    typedef scalar simd_##name##n __attribute__((__ext_vector_type__(n))); \
    typedef simd_##name##n vector_##name##n;
#define SWIFTGPU_SIMD_VECTORS(scalar, name) \
    typedef scalar simd_##name##1; \
    typedef scalar vector_##name##1; \
    SWIFTGPU_SIMD_VECTOR(scalar, name, 2) \
    SWIFTGPU_SIMD_VECTOR(scalar, name, 3) \
    SWIFTGPU_SIMD_VECTOR(scalar, name, 4) \
    SWIFTGPU_SIMD_VECTOR(scalar, name, 8) \
    SWIFTGPU_SIMD_VECTOR(scalar, name, 16)

SWIFTGPU_SIMD_VECTORS(char, char)
SWIFTGPU_SIMD_VECTORS(unsigned char, uchar)
SWIFTGPU_SIMD_VECTORS(short, short)
SWIFTGPU_SIMD_VECTORS(unsigned short, ushort)
SWIFTGPU_SIMD_VECTORS(int, int)
SWIFTGPU_SIMD_VECTORS(unsigned int, uint)
SWIFTGPU_SIMD_VECTORS(long, long)
SWIFTGPU_SIMD_VECTORS(unsigned long, ulong)
SWIFTGPU_SIMD_VECTORS(float, float)
SWIFTGPU_SIMD_VECTORS(double, double)

#undef SWIFTGPU_SIMD_VECTORS
#undef SWIFTGPU_SIMD_VECTOR

// A matrix of c columns of r elements: simd_<name>CxR and matrix_<name>CxR.
#define SWIFTGPU_SIMD_MATRIX(name, c, r) \
    typedef struct { simd_##name##r columns[c]; } simd_##name##c##x##r; \
    typedef simd_##name##c##x##r matrix_##name##c##x##r;
#define SWIFTGPU_SIMD_MATRICES(name) \
    SWIFTGPU_SIMD_MATRIX(name, 2, 2) SWIFTGPU_SIMD_MATRIX(name, 2, 3) SWIFTGPU_SIMD_MATRIX(name, 2, 4) \
    SWIFTGPU_SIMD_MATRIX(name, 3, 2) SWIFTGPU_SIMD_MATRIX(name, 3, 3) SWIFTGPU_SIMD_MATRIX(name, 3, 4) \
    SWIFTGPU_SIMD_MATRIX(name, 4, 2) SWIFTGPU_SIMD_MATRIX(name, 4, 3) SWIFTGPU_SIMD_MATRIX(name, 4, 4)

SWIFTGPU_SIMD_MATRICES(float)
SWIFTGPU_SIMD_MATRICES(double)

#undef SWIFTGPU_SIMD_MATRICES
#undef SWIFTGPU_SIMD_MATRIX

// Quaternions: the imaginary parts in x, y and z, the real part in w.
typedef struct { simd_float4 vector; } simd_quatf;
typedef struct { simd_double4 vector; } simd_quatd;

#endif
