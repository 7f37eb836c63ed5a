// A C interface to the parts of Dear ImGui (1.86, Debian's libimgui-dev) that GPUImGui and
// its examples use: one context, its frame, a few widgets, and read access to the draw data
// ImGui::Render() produces. The renderer needs only the draw-data functions: an app that
// builds its interface with ImGui's own C++ API passes ImGui::GetDrawData() to it.
#ifndef CIMGUI_H
#define CIMGUI_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Makes a context and makes it current; returns it (an `ImGuiContext *`).
void *cimgui_create_context(void);
/// Destroys `context`.
void cimgui_destroy_context(void *context);
/// Makes `context` current.
void cimgui_set_current_context(void *context);

/// The current context's font atlas as 8-bit RGBA texels, built on first use.
void cimgui_font_atlas_rgba(const unsigned char **pixels, int *width, int *height);
/// The texture id the font atlas is drawn with.
void cimgui_set_font_texture(uintptr_t id);

/// Starts a frame of `width` × `height` points, `delta` seconds after the last, with the
/// pointer at (`mouseX`, `mouseY`) (negative: outside) and its primary button down or not.
void cimgui_new_frame(float width, float height, float delta, float mouseX, float mouseY, bool mouseDown);
/// Ends the frame and builds its draw data; returns it (an `ImDrawData *`), valid until the
/// next frame starts.
void *cimgui_render(void);
/// Whether ImGui wants the pointer (it is over one of its windows).
bool cimgui_wants_mouse(void);

/// A window at (`x`, `y`) of `width` × `height` on first use; true while it is open and not
/// collapsed. Call `cimgui_end_window` whatever it returns.
bool cimgui_begin_window(const char *name, float x, float y, float width, float height);
void cimgui_end_window(void);
void cimgui_text(const char *text);
bool cimgui_button(const char *label);
bool cimgui_checkbox(const char *label, bool *value);
bool cimgui_slider_float(const char *label, float *value, float minimum, float maximum);
bool cimgui_color_edit3(const char *label, float *rgb);

/// One draw list of a frame's draw data: its vertices (`ImDrawVert`: position, texture
/// coordinate as two floats each, then RGBA as four bytes; 20 bytes) and 16-bit indices.
typedef struct {
    const void *vertices;
    int vertexCount;
    const uint16_t *indices;
    int indexCount;
    int commandCount;
} CImGuiDrawList;

/// One draw command: its clip rectangle (x1, y1, x2, y2, in the display's points), texture,
/// and the indices it draws, counted from the list's start, with the vertex offset they add.
typedef struct {
    float clipRect[4];
    uintptr_t texture;
    unsigned vertexOffset;
    unsigned indexOffset;
    unsigned elementCount;
    bool hasCallback;
} CImGuiDrawCommand;

/// The display rectangle of `drawData` (origin and size, in points) and its framebuffer scale.
void cimgui_draw_data_display(const void *drawData, float *x, float *y, float *width, float *height, float *scaleX,
                              float *scaleY);
int cimgui_draw_list_count(const void *drawData);
CImGuiDrawList cimgui_draw_list(const void *drawData, int list);
CImGuiDrawCommand cimgui_draw_command(const void *drawData, int list, int command);

#ifdef __cplusplus
}
#endif

#endif
