#ifndef SWIFTGPU_CVULKAN_SHIM_H
#define SWIFTGPU_CVULKAN_SHIM_H
// Core Vulkan only: window-system headers live in the explicit submodules.
#include <vulkan/vulkan.h>
#endif
