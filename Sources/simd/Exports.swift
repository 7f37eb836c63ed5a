// The C types of <simd/simd.h> (CSimd) are this module's types: `import simd` brings them,
// with the extensions the other files of this module give them, as Apple's simd module
// brings its C types with its Swift overlay.
@_exported import CSimd
