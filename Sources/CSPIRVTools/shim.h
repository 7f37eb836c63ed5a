#ifndef SWIFTGPU_CSPIRVTOOLS_SHIM_H
#define SWIFTGPU_CSPIRVTOOLS_SHIM_H
// SPIRV-Tools' C interface (Debian's spirv-tools ships it as a static C++ library, so the
// module links the C++ runtime too): SwiftGPU validates every module with it before any
// driver call.
#include <spirv-tools/libspirv.h>
#endif
