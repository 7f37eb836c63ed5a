#include "CGTKView.h"

#include <epoxy/gl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct SwiftGPUGtkView {
    SwiftGPUGtkCallbacks callbacks;
    GtkWidget *box;
    GtkWidget *area;
    GtkWidget *picture;
    /// The window whose focus the view follows.
    void *root;
    unsigned int tick_id;
    int mapped;
    int focused;
    // The GL route's memory waiting to be imported (fd -1: none), and what is imported.
    int pending_fd;
    uint64_t pending_size;
    int pending_width, pending_height;
    GLuint memory, texture, framebuffer;
    int width, height;
    int has_frame;
    uint64_t gl_nanoseconds;
    // The frame clock followed for frame times, when the last tick began, whether it showed
    // a frame, and the last shown frame's time from tick to painted.
    GdkFrameClock *clock;
    uint64_t tick_started;
    int showed;
    uint64_t frame_nanoseconds;
};

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void report_state(SwiftGPUGtkView *view) {
    view->callbacks.state(view->callbacks.context, view->mapped, view->focused);
}

static void on_active(void *window, void *spec, void *data) {
    (void)spec;
    SwiftGPUGtkView *view = data;
    view->focused = gtk_window_is_active(window);
    report_state(view);
}

static void on_map(GtkWidget *widget, void *data) {
    SwiftGPUGtkView *view = data;
    void *root = gtk_widget_get_root(widget);
    view->mapped = 1;
    view->focused = root ? gtk_window_is_active(root) : 1;
    report_state(view);
}

static void on_unmap(GtkWidget *widget, void *data) {
    (void)widget;
    SwiftGPUGtkView *view = data;
    view->mapped = 0;
    report_state(view);
}

/// Stops every handler of the view on `instance`.
static void disconnect(void *instance, SwiftGPUGtkView *view) {
    if (instance) g_signal_handlers_disconnect_matched(instance, SWIFTGPU_G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, view);
}

static void on_after_paint(GdkFrameClock *clock, void *data) {
    (void)clock;
    SwiftGPUGtkView *view = data;
    if (!view->showed) return;
    view->frame_nanoseconds = now_ns() - view->tick_started;
    view->showed = 0;
}

static void on_root_changed(GtkWidget *widget, void *data) {
    SwiftGPUGtkView *view = data;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(widget);
    if (clock != view->clock) {
        disconnect(view->clock, view);
        view->clock = clock;
        if (clock) g_signal_connect_data(clock, "after-paint", (GCallback)on_after_paint, view, NULL, 0);
    }
    void *root = gtk_widget_get_root(widget);
    if (root == view->root) return;
    disconnect(view->root, view);
    view->root = root;
    if (root) g_signal_connect_data(root, "notify::is-active", (GCallback)on_active, data, NULL, 0);
}

static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock, void *data) {
    SwiftGPUGtkView *view = data;
    int scale = gtk_widget_get_scale_factor(widget);
    int width = gtk_widget_get_width(widget) * scale, height = gtk_widget_get_height(widget) * scale;
    view->tick_started = now_ns();
    // Before its first allocation the widget has no size: the frame waits for the next tick.
    int again = width <= 0 || height <= 0 ||
                view->callbacks.tick(view->callbacks.context, width, height, gdk_frame_clock_get_frame_time(clock));
    // A tick callback keeps the frame clock running: it is removed when no frame is wanted.
    if (!again) view->tick_id = 0;
    return again;
}

void swiftgpu_gtk_view_set_context(SwiftGPUGtkView *view, void *context) { view->callbacks.context = context; }

void swiftgpu_gtk_view_request_frame(SwiftGPUGtkView *view) {
    if (!view->tick_id) view->tick_id = gtk_widget_add_tick_callback(view->box, on_tick, view, NULL);
}

static void on_realize(GtkWidget *area, void *data) {
    SwiftGPUGtkView *view = data;
    gtk_gl_area_make_current(area);
    uint8_t device[GL_UUID_SIZE_EXT] = {0}, driver[GL_UUID_SIZE_EXT] = {0};
    int can_import = gtk_gl_area_get_error(area) == NULL && epoxy_has_gl_extension("GL_EXT_memory_object") &&
                     epoxy_has_gl_extension("GL_EXT_memory_object_fd");
    if (can_import) {
        glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, 0, device);
        glGetUnsignedBytevEXT(GL_DRIVER_UUID_EXT, driver);
    }
    view->callbacks.gl_ready(view->callbacks.context, can_import, device, driver);
}

/// Drops the imported texture (with the GL context current).
static void release_gl(SwiftGPUGtkView *view) {
    if (view->framebuffer) glDeleteFramebuffers(1, &view->framebuffer);
    if (view->texture) glDeleteTextures(1, &view->texture);
    if (view->memory) glDeleteMemoryObjectsEXT(1, &view->memory);
    view->framebuffer = view->texture = view->memory = 0;
}

static void on_unrealize(GtkWidget *area, void *data) {
    SwiftGPUGtkView *view = data;
    gtk_gl_area_make_current(area);
    release_gl(view);
    view->has_frame = 0;
}

/// Imports the pending memory as an RGBA8 texture behind a read framebuffer.
static void import_pending(SwiftGPUGtkView *view) {
    release_gl(view);
    glCreateMemoryObjectsEXT(1, &view->memory);
    glImportMemoryFdEXT(view->memory, view->pending_size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, view->pending_fd);
    view->pending_fd = -1;
    glGenTextures(1, &view->texture);
    glBindTexture(GL_TEXTURE_2D, view->texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_TILING_EXT, GL_OPTIMAL_TILING_EXT);
    glTexStorageMem2DEXT(GL_TEXTURE_2D, 1, GL_RGBA8, view->pending_width, view->pending_height, view->memory, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    GLint drawn = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawn);
    glGenFramebuffers(1, &view->framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, view->framebuffer);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, view->texture, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)drawn);
    view->width = view->pending_width;
    view->height = view->pending_height;
}

static gboolean on_render(GtkWidget *area, GdkGLContext *context, void *data) {
    (void)area;
    (void)context;
    SwiftGPUGtkView *view = data;
    uint64_t start = now_ns();
    if (view->pending_fd >= 0) import_pending(view);
    if (!view->framebuffer || !view->has_frame) return 0;
    // The GL area's framebuffer is bound for drawing. Vulkan's first row is the top, GL's
    // the bottom: the blit turns the image over.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, view->framebuffer);
    glBlitFramebuffer(0, 0, view->width, view->height, 0, view->height, view->width, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    // No semaphore is shared with Vulkan: GL finishes reading before SwiftGPU writes again.
    glFinish();
    view->gl_nanoseconds = now_ns() - start;
    return 1;
}

SwiftGPUGtkView *swiftgpu_gtk_view_new(SwiftGPUGtkCallbacks callbacks, int use_gl) {
    SwiftGPUGtkView *view = calloc(1, sizeof *view);
    view->callbacks = callbacks;
    view->pending_fd = -1;
    view->box = g_object_ref(gtk_box_new(SWIFTGPU_GTK_VERTICAL, 0));
    gtk_widget_set_hexpand(view->box, 1);
    gtk_widget_set_vexpand(view->box, 1);
    g_signal_connect_data(view->box, "map", (GCallback)on_map, view, NULL, 0);
    g_signal_connect_data(view->box, "unmap", (GCallback)on_unmap, view, NULL, 0);
    g_signal_connect_data(view->box, "realize", (GCallback)on_root_changed, view, NULL, 0);
    if (use_gl) {
        view->area = gtk_gl_area_new();
        gtk_gl_area_set_auto_render(view->area, 0);
        gtk_widget_set_hexpand(view->area, 1);
        gtk_widget_set_vexpand(view->area, 1);
        g_signal_connect_data(view->area, "realize", (GCallback)on_realize, view, NULL, 0);
        g_signal_connect_data(view->area, "unrealize", (GCallback)on_unrealize, view, NULL, 0);
        g_signal_connect_data(view->area, "render", (GCallback)on_render, view, NULL, 0);
        gtk_box_append(view->box, view->area);
    } else {
        swiftgpu_gtk_view_use_picture(view);
    }
    return view;
}

GtkWidget *swiftgpu_gtk_view_widget(SwiftGPUGtkView *view) { return view->box; }

void swiftgpu_gtk_view_import(SwiftGPUGtkView *view, int fd, uint64_t size, int width, int height) {
    if (view->pending_fd >= 0) close(view->pending_fd);
    view->pending_fd = fd;
    view->pending_size = size;
    view->pending_width = width;
    view->pending_height = height;
}

void swiftgpu_gtk_view_queue_frame(SwiftGPUGtkView *view) {
    if (!view->area) return;
    view->has_frame = 1;
    view->showed = 1;
    gtk_gl_area_queue_render(view->area);
}

void swiftgpu_gtk_view_show_pixels(SwiftGPUGtkView *view, const void *pixels, int width, int height, size_t stride) {
    if (!view->picture) return;
    GBytes *bytes = g_bytes_new(pixels, stride * (size_t)height);
    GdkTexture *texture = gdk_memory_texture_new(width, height, SWIFTGPU_GDK_MEMORY_R8G8B8A8, bytes, stride);
    g_bytes_unref(bytes);
    gtk_picture_set_paintable(view->picture, texture);
    g_object_unref(texture);
    view->showed = 1;
}

void swiftgpu_gtk_view_use_picture(SwiftGPUGtkView *view) {
    if (view->area) {
        disconnect(view->area, view);
        gtk_box_remove(view->box, view->area);
        view->area = NULL;
    }
    if (view->picture) return;
    view->picture = gtk_picture_new();
    gtk_picture_set_can_shrink(view->picture, 1);
    gtk_widget_set_hexpand(view->picture, 1);
    gtk_widget_set_vexpand(view->picture, 1);
    gtk_box_append(view->box, view->picture);
}

uint64_t swiftgpu_gtk_view_last_gl_nanoseconds(SwiftGPUGtkView *view) { return view->gl_nanoseconds; }

uint64_t swiftgpu_gtk_view_last_frame_nanoseconds(SwiftGPUGtkView *view) { return view->frame_nanoseconds; }

void swiftgpu_gtk_view_free(SwiftGPUGtkView *view) {
    if (view->tick_id) gtk_widget_remove_tick_callback(view->box, view->tick_id);
    disconnect(view->box, view);
    disconnect(view->area, view);
    disconnect(view->root, view);
    disconnect(view->clock, view);
    if (view->pending_fd >= 0) close(view->pending_fd);
    g_object_unref(view->box);
    free(view);
}
