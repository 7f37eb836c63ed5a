// A Qt Widgets window with a SwiftGPU view inside, for Swift: C functions over Qt's C++
// API (GPUQt wraps them). The view is a QWindow with a Vulkan surface, made on SwiftGPU's
// own VkInstance (QVulkanInstance::setVkInstance) and put among ordinary widgets with
// QWidget::createWindowContainer; a side panel holds the app's buttons and sliders. Every
// function runs on the thread that made the window (Qt's GUI thread).
#ifndef CQTVIEW_H
#define CQTVIEW_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the window tells the app, each on Qt's GUI thread with `context`.
typedef struct {
    void *context;
    /// Draw a frame now (an update request of the view, about one per display refresh
    /// while frames are asked for).
    void (*frame)(void *context);
    /// The view became visible or not: exposed, in a top-level window that is exposed too
    /// (not hidden or minimised).
    void (*exposed)(void *context, bool exposed);
    /// The top-level window gained or lost the focus.
    void (*focused)(void *context, bool focused);
    /// Control `control` changed to `value` (a button's click is 1).
    void (*changed)(void *context, int control, int value);
    /// A key with this Latin-1 character was pressed in the window.
    void (*key)(void *context, int character);
    /// Qt is about to destroy the view's surface (the window closes, or the application
    /// quits and closes its windows): let go of it before returning.
    void (*surfaceGoing)(void *context);
} swiftgpu_qt_callbacks;

typedef struct swiftgpu_qt_window swiftgpu_qt_window;

/// Makes the process's Qt application, a `QApplication`, unless it has one; returns 1 when
/// the application is a `QApplication` (which Qt Widgets needs, and Qt Quick accepts), 0
/// when it is another kind made before.
int swiftgpu_qt_ensure_application(void);

/// Makes the application (once per process), the Vulkan instance wrapper over `instance`
/// (a `VkInstance`) and a `width` × `height` window titled `title` holding the view and an
/// empty side panel; not shown. Nil, with the reason in `error` (`errorLength` bytes), when
/// Qt cannot use the instance or the process's Qt application is not a `QApplication`.
swiftgpu_qt_window *swiftgpu_qt_window_create(void *instance, const char *title, int width, int height,
                                              swiftgpu_qt_callbacks callbacks, char *error, int errorLength);
/// Adds a push button labelled `label` to the side panel; its clicks report `control`.
void swiftgpu_qt_add_button(swiftgpu_qt_window *window, const char *label, int control);
/// Adds a horizontal slider from `minimum` to `maximum` at `value`; its moves report `control`.
void swiftgpu_qt_add_slider(swiftgpu_qt_window *window, int minimum, int maximum, int value, int control);
/// Adds a text label, returns its index for `swiftgpu_qt_set_label`.
int swiftgpu_qt_add_label(swiftgpu_qt_window *window, const char *text);
void swiftgpu_qt_set_label(swiftgpu_qt_window *window, int label, const char *text);
/// Shows the window; then the view has a native window and a surface.
void swiftgpu_qt_show(swiftgpu_qt_window *window);
/// The view's `VkSurfaceKHR`, made by Qt (and destroyed with the view); nil before show.
void *swiftgpu_qt_view_surface(swiftgpu_qt_window *window);
/// The view's size in pixels.
void swiftgpu_qt_view_size(swiftgpu_qt_window *window, int *width, int *height);
/// The centre of control `control` in the top-level window's pixels; false for no such control.
bool swiftgpu_qt_control_center(swiftgpu_qt_window *window, int control, int *x, int *y);
/// The top-level window's X11 window id.
unsigned long swiftgpu_qt_window_id(swiftgpu_qt_window *window);
/// Asks for one more frame callback.
void swiftgpu_qt_request_frame(swiftgpu_qt_window *window);
/// Runs Qt's event loop until `swiftgpu_qt_quit` or the window closes; returns its code.
int swiftgpu_qt_run(swiftgpu_qt_window *window);
void swiftgpu_qt_quit(swiftgpu_qt_window *window);
/// Destroys the window (its view's surface with it) and the instance wrapper (not the
/// VkInstance).
void swiftgpu_qt_window_destroy(swiftgpu_qt_window *window);

#ifdef __cplusplus
}
#endif

#endif
