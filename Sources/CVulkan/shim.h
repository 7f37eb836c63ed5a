#ifndef SWIFTGPU_CVULKAN_SHIM_H
#define SWIFTGPU_CVULKAN_SHIM_H
// Core Vulkan only: window-system headers live in the explicit submodules.
#include <vulkan/vulkan.h>

// The window-system surface create-infos with the host's handles as opaque pointers and
// integers: the layouts of VkXcbSurfaceCreateInfoKHR, VkXlibSurfaceCreateInfoKHR and
// VkWaylandSurfaceCreateInfoKHR (xcb.h, xlib.h and wayland.h assert that they match). With
// them libGPU creates window surfaces through vkGetInstanceProcAddr without the
// window-system headers and without linking libxcb, libX11 or libwayland-client.
typedef struct SwiftGPUXcbSurfaceCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    void *connection;
    uint32_t window;
} SwiftGPUXcbSurfaceCreateInfo;

typedef struct SwiftGPUXlibSurfaceCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    void *display;
    unsigned long window;
} SwiftGPUXlibSurfaceCreateInfo;

typedef struct SwiftGPUWaylandSurfaceCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    void *display;
    void *surface;
} SwiftGPUWaylandSurfaceCreateInfo;

typedef VkResult (VKAPI_PTR *SwiftGPUCreateXcbSurface)(
    VkInstance, const SwiftGPUXcbSurfaceCreateInfo *, const VkAllocationCallbacks *, VkSurfaceKHR *);
typedef VkResult (VKAPI_PTR *SwiftGPUCreateXlibSurface)(
    VkInstance, const SwiftGPUXlibSurfaceCreateInfo *, const VkAllocationCallbacks *, VkSurfaceKHR *);
typedef VkResult (VKAPI_PTR *SwiftGPUCreateWaylandSurface)(
    VkInstance, const SwiftGPUWaylandSurfaceCreateInfo *, const VkAllocationCallbacks *, VkSurfaceKHR *);
#endif
