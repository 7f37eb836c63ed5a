#ifndef SWIFTGPU_CSDL2_SHIM_H
#define SWIFTGPU_CSDL2_SHIM_H
// SDL2 for the EmbedInSDL example: windows, events, the X11 window behind SDL's, and the
// Vulkan surface SDL makes (SDL_vulkan.h declares the Vulkan handles it needs itself).
// Included by path, without pkg-config, whose -D_REENTRANT SwiftPM refuses (libsdl2-dev).
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <SDL2/SDL_vulkan.h>
#endif
