#ifndef SWIFTGPU_CPNG_SHIM_H
#define SWIFTGPU_CPNG_SHIM_H
// The PNG module uses only libpng's simplified API (png_image_*), which reports errors
// through return values and png_image.message, so Swift never meets setjmp/longjmp.
#include <png.h>
#endif
