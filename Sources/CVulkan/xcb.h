#ifndef SWIFTGPU_CVULKAN_XCB_H
#define SWIFTGPU_CVULKAN_XCB_H
// Guarded so that the module builds where this window system's headers are not
// installed; importing CVulkan.XCB then needs them.
#if __has_include(<xcb/xcb.h>)
#include <xcb/xcb.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_xcb.h>
#include <stddef.h>
#include "shim.h"
// shim.h declares this surface's create-info without the window-system headers.
_Static_assert(sizeof(SwiftGPUXcbSurfaceCreateInfo) == sizeof(VkXcbSurfaceCreateInfoKHR), "SwiftGPUXcbSurfaceCreateInfo must match VkXcbSurfaceCreateInfoKHR");
_Static_assert(offsetof(SwiftGPUXcbSurfaceCreateInfo, connection) == offsetof(VkXcbSurfaceCreateInfoKHR, connection), "SwiftGPUXcbSurfaceCreateInfo.connection must match VkXcbSurfaceCreateInfoKHR.connection");
_Static_assert(offsetof(SwiftGPUXcbSurfaceCreateInfo, window) == offsetof(VkXcbSurfaceCreateInfoKHR, window), "SwiftGPUXcbSurfaceCreateInfo.window must match VkXcbSurfaceCreateInfoKHR.window");
#endif
#endif
