#ifndef SWIFTGPU_CVULKAN_XLIB_H
#define SWIFTGPU_CVULKAN_XLIB_H
// Guarded so that the module builds where this window system's headers are not
// installed; importing CVulkan.Xlib then needs them.
#if __has_include(<X11/Xlib.h>)
#include <X11/Xlib.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_xlib.h>
#include <stddef.h>
#include "shim.h"
// shim.h declares this surface's create-info without the window-system headers.
_Static_assert(sizeof(SwiftGPUXlibSurfaceCreateInfo) == sizeof(VkXlibSurfaceCreateInfoKHR), "SwiftGPUXlibSurfaceCreateInfo must match VkXlibSurfaceCreateInfoKHR");
_Static_assert(offsetof(SwiftGPUXlibSurfaceCreateInfo, display) == offsetof(VkXlibSurfaceCreateInfoKHR, dpy), "SwiftGPUXlibSurfaceCreateInfo.display must match VkXlibSurfaceCreateInfoKHR.dpy");
_Static_assert(offsetof(SwiftGPUXlibSurfaceCreateInfo, window) == offsetof(VkXlibSurfaceCreateInfoKHR, window), "SwiftGPUXlibSurfaceCreateInfo.window must match VkXlibSurfaceCreateInfoKHR.window");
#endif
#endif
