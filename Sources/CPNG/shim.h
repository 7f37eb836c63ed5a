#ifndef SWIFTGPU_CPNG_SHIM_H
#define SWIFTGPU_CPNG_SHIM_H
// libpng's simplified API (png_image): errors come back as return values, so Swift never
// meets libpng's setjmp/longjmp error handling.
#include <png.h>
#endif
