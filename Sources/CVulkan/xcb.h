#ifndef SWIFTGPU_CVULKAN_XCB_H
#define SWIFTGPU_CVULKAN_XCB_H
// Guarded so that the module builds where this window system's headers are not
// installed; importing CVulkan.XCB then needs them.
#if __has_include(<xcb/xcb.h>)
#include <xcb/xcb.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_xcb.h>
#endif
#endif
