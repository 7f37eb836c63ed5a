#ifndef SWIFTGPU_CVULKAN_WAYLAND_H
#define SWIFTGPU_CVULKAN_WAYLAND_H
// Guarded so that the module builds where this window system's headers are not
// installed; importing CVulkan.Wayland then needs them.
#if __has_include(<wayland-client.h>)
#include <wayland-client.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_wayland.h>
#include <stddef.h>
#include "shim.h"
// shim.h declares this surface's create-info without the window-system headers.
_Static_assert(sizeof(SwiftGPUWaylandSurfaceCreateInfo) == sizeof(VkWaylandSurfaceCreateInfoKHR), "SwiftGPUWaylandSurfaceCreateInfo must match VkWaylandSurfaceCreateInfoKHR");
_Static_assert(offsetof(SwiftGPUWaylandSurfaceCreateInfo, display) == offsetof(VkWaylandSurfaceCreateInfoKHR, display), "SwiftGPUWaylandSurfaceCreateInfo.display must match VkWaylandSurfaceCreateInfoKHR.display");
_Static_assert(offsetof(SwiftGPUWaylandSurfaceCreateInfo, surface) == offsetof(VkWaylandSurfaceCreateInfoKHR, surface), "SwiftGPUWaylandSurfaceCreateInfo.surface must match VkWaylandSurfaceCreateInfoKHR.surface");
#endif
#endif
