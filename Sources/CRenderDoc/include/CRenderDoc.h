#ifndef SWIFTGPU_CRENDERDOC_H
#define SWIFTGPU_CRENDERDOC_H
// RenderDoc's in-application API, as far as SwiftGPU's capture manager uses it: found in a
// process RenderDoc already hooks (launched by `renderdoccmd capture`, or with its Vulkan
// layer enabled), never loaded by SwiftGPU itself. The calls mirror renderdoc_app.h's
// (RenderDoc 1.24, API 1.1.2), on the API table renderdoc.c keeps private.
#include <stdint.h>

/// Whether RenderDoc's library is loaded in the process (by `renderdoccmd capture`'s
/// injection or as the Vulkan layer of an instance). Keeps no state.
int swiftgpu_renderdoc_is_loaded(void);

/// Looks RenderDoc's library up among those the process has loaded (`RTLD_NOLOAD`) and asks
/// it for API 1.1.2. Returns 1 when it answered; 0 when the library is not loaded or refused
/// the version. Safe to call again: once found, the API stays (the lookup holds the library).
int swiftgpu_renderdoc_find(void);

/// RenderDoc's version (`major`.`minor`.`patch` of its API), after a successful find.
void swiftgpu_renderdoc_version(int *major, int *minor, int *patch);

/// Sets the path template of the captures that follow (RenderDoc appends a frame suffix and
/// `.rdc`); `NULL` is ignored.
void swiftgpu_renderdoc_set_path_template(const char *path_template);

/// The current path template, copied into `buffer` (`capacity` bytes, terminated); returns
/// its length, or -1 when it does not fit.
int swiftgpu_renderdoc_path_template(char *buffer, uint32_t capacity);

/// The number of captures made in this process so far.
uint32_t swiftgpu_renderdoc_capture_count(void);

/// The file of capture `index`, copied into `buffer` (`capacity` bytes, terminated); returns
/// its length, or -1 for an unknown index or a path that does not fit.
int swiftgpu_renderdoc_capture_path(uint32_t index, char *buffer, uint32_t capacity);

/// Starts capturing the work of `device` (for Vulkan, the dispatch-table pointer of the
/// VkInstance) with no window.
void swiftgpu_renderdoc_start(void *device);

/// Whether a capture is in progress.
int swiftgpu_renderdoc_is_capturing(void);

/// Ends the capture of `device` and writes its file; returns 1 on success, 0 when RenderDoc
/// wrote nothing.
int swiftgpu_renderdoc_end(void *device);

#endif
