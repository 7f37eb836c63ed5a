#ifndef SWIFTGPU_CGLFW_SHIM_H
#define SWIFTGPU_CGLFW_SHIM_H
// GLFW for the EmbedInGLFW example, with its X11 native access (glfwGetX11Display,
// glfwGetX11Window) exposed.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#include <stdint.h>

// GLFW's Vulkan functions, which glfw3.h declares only after vulkan.h: the example passes
// Vulkan handles through opaquely (VkInstance and VkSurfaceKHR are pointers on 64-bit
// platforms; VkResult is an int).
int glfwCreateWindowSurface(void *instance, GLFWwindow *window, const void *allocator, void **surface);
typedef void (*GLFWvkproc)(void);
GLFWvkproc glfwGetInstanceProcAddress(void *instance, const char *procname);

/// Destroys `surface` with the instance's vkDestroySurfaceKHR, found through GLFW.
static inline void swiftgpu_glfw_destroy_surface(void *instance, void *surface) {
    typedef void (*destroy_t)(void *, void *, const void *);
    destroy_t destroy = (destroy_t)glfwGetInstanceProcAddress(instance, "vkDestroySurfaceKHR");
    if (destroy) destroy(instance, surface, NULL);
}
#endif
