// RenderDoc's in-application API, looked up in a process RenderDoc hooks. The function
// table is declared here, in renderdoc_app.h's order (its layout is fixed for every 1.x
// version: later versions only append); where that header is installed (librenderdoc-dev),
// the offsets are checked against it at compile time.
#define _GNU_SOURCE
#include "CRenderDoc.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

typedef void (*swiftgpu_rd_unused)(void);

/// RENDERDOC_API_1_1_2's table: what SwiftGPU calls is typed, the rest kept as placeholders.
typedef struct {
    void (*GetAPIVersion)(int *major, int *minor, int *patch);
    swiftgpu_rd_unused SetCaptureOptionU32, SetCaptureOptionF32, GetCaptureOptionU32, GetCaptureOptionF32;
    swiftgpu_rd_unused SetFocusToggleKeys, SetCaptureKeys, GetOverlayBits, MaskOverlayBits;
    swiftgpu_rd_unused RemoveHooks, UnloadCrashHandler;
    void (*SetCaptureFilePathTemplate)(const char *path_template);
    const char *(*GetCaptureFilePathTemplate)(void);
    uint32_t (*GetNumCaptures)(void);
    uint32_t (*GetCapture)(uint32_t index, char *filename, uint32_t *path_length, uint64_t *timestamp);
    swiftgpu_rd_unused TriggerCapture, IsTargetControlConnected, LaunchReplayUI, SetActiveWindow;
    void (*StartFrameCapture)(void *device, void *window);
    uint32_t (*IsFrameCapturing)(void);
    uint32_t (*EndFrameCapture)(void *device, void *window);
} swiftgpu_renderdoc_api;

/// eRENDERDOC_API_Version_1_1_2.
enum { swiftgpu_renderdoc_api_1_1_2 = 10102 };

#if __has_include(<renderdoc_app.h>)
#include <renderdoc_app.h>
#define SWIFTGPU_RD_SAME(field) \
    _Static_assert(offsetof(swiftgpu_renderdoc_api, field) == offsetof(RENDERDOC_API_1_1_2, field), #field)
SWIFTGPU_RD_SAME(GetAPIVersion);
SWIFTGPU_RD_SAME(SetCaptureFilePathTemplate);
SWIFTGPU_RD_SAME(GetCaptureFilePathTemplate);
SWIFTGPU_RD_SAME(GetNumCaptures);
SWIFTGPU_RD_SAME(GetCapture);
SWIFTGPU_RD_SAME(StartFrameCapture);
SWIFTGPU_RD_SAME(IsFrameCapturing);
SWIFTGPU_RD_SAME(EndFrameCapture);
_Static_assert(swiftgpu_renderdoc_api_1_1_2 == eRENDERDOC_API_Version_1_1_2, "API version");
#endif

// Written once, by the first find that succeeds; the callers (the capture manager, under
// its lock) serialize finds.
static swiftgpu_renderdoc_api *api;

int swiftgpu_renderdoc_is_loaded(void) {
    void *library = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) return 0;
    dlclose(library);
    return 1;
}

int swiftgpu_renderdoc_find(void) {
    if (api != NULL) return 1;
    void *library = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) return 0;
    int (*get_api)(int version, void **out) = (int (*)(int, void **))dlsym(library, "RENDERDOC_GetAPI");
    void *table = NULL;
    if (get_api == NULL || get_api(swiftgpu_renderdoc_api_1_1_2, &table) != 1 || table == NULL) {
        dlclose(library);
        return 0;
    }
    api = table;
    return 1;
}

void swiftgpu_renderdoc_version(int *major, int *minor, int *patch) { api->GetAPIVersion(major, minor, patch); }

void swiftgpu_renderdoc_set_path_template(const char *path_template) {
    if (path_template != NULL) api->SetCaptureFilePathTemplate(path_template);
}

/// Copies `text` into `buffer`; its length, or -1 when it does not fit.
static int copy_out(const char *text, char *buffer, uint32_t capacity) {
    size_t length = strlen(text);
    if (length + 1 > capacity) return -1;
    memcpy(buffer, text, length + 1);
    return (int)length;
}

int swiftgpu_renderdoc_path_template(char *buffer, uint32_t capacity) {
    const char *path_template = api->GetCaptureFilePathTemplate();
    return copy_out(path_template != NULL ? path_template : "", buffer, capacity);
}

uint32_t swiftgpu_renderdoc_capture_count(void) { return api->GetNumCaptures(); }

int swiftgpu_renderdoc_capture_path(uint32_t index, char *buffer, uint32_t capacity) {
    uint32_t length = 0;
    if (api->GetCapture(index, NULL, &length, NULL) != 1 || length + 1 > capacity) return -1;
    if (api->GetCapture(index, buffer, &length, NULL) != 1) return -1;
    buffer[length] = 0;
    return (int)strlen(buffer);
}

void swiftgpu_renderdoc_start(void *device) { api->StartFrameCapture(device, NULL); }

int swiftgpu_renderdoc_is_capturing(void) { return api->IsFrameCapturing() != 0; }

int swiftgpu_renderdoc_end(void *device) { return api->EndFrameCapture(device, NULL) != 0; }
