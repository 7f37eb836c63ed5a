#ifndef SWIFTGPU_CVULKAN_WAYLAND_H
#define SWIFTGPU_CVULKAN_WAYLAND_H
// Guarded so that the module builds where this window system's headers are not
// installed; importing CVulkan.Wayland then needs them.
#if __has_include(<wayland-client.h>)
#include <wayland-client.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_wayland.h>
#endif
#endif
