// The C interface of CImGui.h over Dear ImGui's C++ API.
#include "CImGui.h"

#include <cfloat>

#include <imgui/imgui.h>

static_assert(sizeof(ImDrawVert) == 20, "GPUImGui's vertex layout is ImGui's default ImDrawVert");
static_assert(sizeof(ImDrawIdx) == 2, "GPUImGui draws 16-bit indices, ImGui's default ImDrawIdx");

extern "C" {

void *cimgui_create_context(void) {
    ImGuiContext *context = ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;   // no imgui.ini written beside the app
    ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    return context;
}

void cimgui_destroy_context(void *context) { ImGui::DestroyContext(static_cast<ImGuiContext *>(context)); }

void cimgui_set_current_context(void *context) { ImGui::SetCurrentContext(static_cast<ImGuiContext *>(context)); }

void cimgui_font_atlas_rgba(const unsigned char **pixels, int *width, int *height) {
    unsigned char *texels = nullptr;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&texels, width, height);
    *pixels = texels;
}

void cimgui_set_font_texture(uintptr_t id) { ImGui::GetIO().Fonts->SetTexID(reinterpret_cast<ImTextureID>(id)); }

void cimgui_new_frame(float width, float height, float delta, float mouseX, float mouseY, bool mouseDown) {
    ImGuiIO &io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = delta > 0 ? delta : 1.0f / 60.0f;
    io.MousePos = mouseX < 0 || mouseY < 0 ? ImVec2(-FLT_MAX, -FLT_MAX) : ImVec2(mouseX, mouseY);
    io.MouseDown[0] = mouseDown;
    ImGui::NewFrame();
}

void *cimgui_render(void) {
    ImGui::Render();
    return ImGui::GetDrawData();
}

bool cimgui_wants_mouse(void) { return ImGui::GetIO().WantCaptureMouse; }

bool cimgui_begin_window(const char *name, float x, float y, float width, float height) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_FirstUseEver);
    return ImGui::Begin(name);
}

void cimgui_end_window(void) { ImGui::End(); }

void cimgui_text(const char *text) { ImGui::TextUnformatted(text); }

bool cimgui_button(const char *label) { return ImGui::Button(label); }

bool cimgui_checkbox(const char *label, bool *value) { return ImGui::Checkbox(label, value); }

bool cimgui_slider_float(const char *label, float *value, float minimum, float maximum) {
    return ImGui::SliderFloat(label, value, minimum, maximum);
}

bool cimgui_color_edit3(const char *label, float *rgb) { return ImGui::ColorEdit3(label, rgb); }

void cimgui_draw_data_display(const void *drawData, float *x, float *y, float *width, float *height, float *scaleX,
                              float *scaleY) {
    const ImDrawData *data = static_cast<const ImDrawData *>(drawData);
    *x = data->DisplayPos.x;
    *y = data->DisplayPos.y;
    *width = data->DisplaySize.x;
    *height = data->DisplaySize.y;
    *scaleX = data->FramebufferScale.x;
    *scaleY = data->FramebufferScale.y;
}

int cimgui_draw_list_count(const void *drawData) { return static_cast<const ImDrawData *>(drawData)->CmdListsCount; }

CImGuiDrawList cimgui_draw_list(const void *drawData, int list) {
    const ImDrawList *drawList = static_cast<const ImDrawData *>(drawData)->CmdLists[list];
    return CImGuiDrawList{drawList->VtxBuffer.Data, drawList->VtxBuffer.Size, drawList->IdxBuffer.Data,
                          drawList->IdxBuffer.Size, drawList->CmdBuffer.Size};
}

CImGuiDrawCommand cimgui_draw_command(const void *drawData, int list, int command) {
    const ImDrawCmd &cmd = static_cast<const ImDrawData *>(drawData)->CmdLists[list]->CmdBuffer[command];
    return CImGuiDrawCommand{{cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w},
                             reinterpret_cast<uintptr_t>(cmd.TextureId), cmd.VtxOffset, cmd.IdxOffset, cmd.ElemCount,
                             cmd.UserCallback != nullptr};
}

}
