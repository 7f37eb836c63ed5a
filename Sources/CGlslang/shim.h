#ifndef SWIFTGPU_CGLSLANG_SHIM_H
#define SWIFTGPU_CGLSLANG_SHIM_H
// glslang's C interface, for compiling GLSL at run time (Device.makeLibrary(source:options:)).
#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#endif
