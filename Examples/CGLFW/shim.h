#ifndef SWIFTGPU_CGLFW_SHIM_H
#define SWIFTGPU_CGLFW_SHIM_H
// GLFW for the EmbedInGLFW example, with its X11 native access (glfwGetX11Display,
// glfwGetX11Window) exposed.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#endif
