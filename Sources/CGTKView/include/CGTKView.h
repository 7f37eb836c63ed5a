#ifndef SWIFTGPU_CGTKVIEW_H
#define SWIFTGPU_CGTKVIEW_H
// The GTK side of SwiftGPU's GTK 4 view: a container that shows SwiftGPU's frames either
// through a GtkGLArea that imports the frame texture's memory (GL_EXT_memory_object_fd), or
// through a GtkPicture fed a GdkMemoryTexture copy of each frame. It follows the widget's
// frame clock and reports its mapping and the window's focus. Main thread only.
#include "CGTKDeclarations.h"

typedef struct SwiftGPUGtkView SwiftGPUGtkView;

/// What the view tells its owner, with `context` passed back.
typedef struct SwiftGPUGtkCallbacks {
    void *context;
    /// A frame-clock tick after `swiftgpu_gtk_view_request_frame`: draw the frame GTK is about
    /// to paint, of `width` × `height` device pixels, for `frame_time` (µs, CLOCK_MONOTONIC).
    /// Returns 1 to be called again next frame, 0 to stop until the next request.
    int (*tick)(void *context, int width, int height, int64_t frame_time);
    /// The view was mapped or unmapped, or its window gained or lost the focus.
    void (*state)(void *context, int mapped, int focused);
    /// The GL area's context is ready: whether it can import memory, and GL's device and
    /// driver UUIDs (16 bytes each; zero when it cannot).
    void (*gl_ready)(void *context, int can_import, const uint8_t *device_uuid, const uint8_t *driver_uuid);
} SwiftGPUGtkCallbacks;

/// A view showing frames through a GtkGLArea (`use_gl` 1) or a GtkPicture (0).
SwiftGPUGtkView *swiftgpu_gtk_view_new(SwiftGPUGtkCallbacks callbacks, int use_gl);

/// Sets the `context` the callbacks are given.
void swiftgpu_gtk_view_set_context(SwiftGPUGtkView *view, void *context);

/// Asks for a tick at the widget's next frame (none while it is unmapped).
void swiftgpu_gtk_view_request_frame(SwiftGPUGtkView *view);

/// The view's widget, for the host to place in its layout.
GtkWidget *swiftgpu_gtk_view_widget(SwiftGPUGtkView *view);

/// GL route: the frames' texture is now the memory behind `fd` (`size` bytes, an RGBA8
/// `width` × `height` image with optimal tiling); GL takes the descriptor over.
void swiftgpu_gtk_view_import(SwiftGPUGtkView *view, int fd, uint64_t size, int width, int height);

/// GL route: the texture holds a finished frame; the GL area draws it in this frame.
void swiftgpu_gtk_view_queue_frame(SwiftGPUGtkView *view);

/// Picture route: shows a copy of `width` × `height` RGBA8 pixels, `stride` bytes a row.
void swiftgpu_gtk_view_show_pixels(SwiftGPUGtkView *view, const void *pixels, int width, int height, size_t stride);

/// Switches to the picture route (the GL area could not import).
void swiftgpu_gtk_view_use_picture(SwiftGPUGtkView *view);

/// Nanoseconds the GL area spent on its last frame: importing when new, the blit, and
/// waiting for GL to finish reading the texture.
uint64_t swiftgpu_gtk_view_last_gl_nanoseconds(SwiftGPUGtkView *view);

/// Nanoseconds from the start of the last frame-clock tick that showed a frame to the end
/// of GTK's paint of it: the whole frame on the main thread, the route's work included.
uint64_t swiftgpu_gtk_view_last_frame_nanoseconds(SwiftGPUGtkView *view);

/// Stops the view's callbacks and frees it; the widget goes with its parent.
void swiftgpu_gtk_view_free(SwiftGPUGtkView *view);
#endif
