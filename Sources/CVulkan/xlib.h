#ifndef SWIFTGPU_CVULKAN_XLIB_H
#define SWIFTGPU_CVULKAN_XLIB_H
// Guarded so that the module builds where this window system's headers are not
// installed; importing CVulkan.Xlib then needs them.
#if __has_include(<X11/Xlib.h>)
#include <X11/Xlib.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_xlib.h>
#endif
#endif
