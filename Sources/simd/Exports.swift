// The C types of <simd/simd.h> (CSimd) are this module's types: `import simd` brings them,
// with the extensions the other files of this module give them, as Apple's simd module
// brings its C types with its Swift overlay.
@_exported import CSimd

// Apple's simd brings the C library's math with it (its header includes <math.h>, whose
// module comes with the Darwin overlay's `Float` and `Double` overloads): Metal code that
// imports only simd calls `sin` and `cos` on a `Float`. Glibc is that module here.
@_exported import Glibc
