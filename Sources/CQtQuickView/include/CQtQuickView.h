// A Qt Quick window whose scene shows a SwiftGPU texture, for Swift: C functions over Qt's
// C++ API (GPUQt's QtQuickView wraps them). Qt's scene graph renders with Vulkan on
// SwiftGPU's own instance, device and queue (QQuickGraphicsDevice::fromDeviceObjects); an
// item fills the window and samples SwiftGPU's VkImage in place
// (QNativeInterface::QSGVulkanTexture::fromNative), no copy. Qt renders on its basic render
// loop, on the GUI thread: each of Qt's frames first asks the app to draw into the texture,
// then runs inside `withQueue`, SwiftGPU's queue lock, because Qt submits and presents on
// SwiftGPU's queue. Every function runs on the thread that made the window (Qt's GUI
// thread).
#ifndef CQTQUICKVIEW_H
#define CQTQUICKVIEW_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the window asks of and tells the app, each on Qt's GUI thread with `context`.
typedef struct {
    void *context;
    /// Draw the frame Qt is about to render (an update request or exposure of the window),
    /// into a texture of the item's `width` × `height` pixels, given with
    /// `swiftgpu_qtquick_set_texture`; Qt samples it right after this returns.
    void (*frame)(void *context, int width, int height);
    /// Call `body(bodyContext)` with SwiftGPU's queue lock held: Qt's own handling of an
    /// event, which may submit to and present on the queue. `body` calls nothing of the app.
    void (*withQueue)(void *context, void (*body)(void *bodyContext), void *bodyContext);
    /// Qt rendered and presented frame `count` (counted from 1), outside the queue lock.
    void (*rendered)(void *context, int count);
    /// The window became visible (exposed) or not, and focused or not.
    void (*visibility)(void *context, bool exposed, bool focused);
    /// A key with this Latin-1 character was pressed in the window.
    void (*key)(void *context, int character);
} swiftgpu_qtquick_callbacks;

typedef struct swiftgpu_qtquick_window swiftgpu_qtquick_window;

/// Sets QSG_RENDER_LOOP to basic (Qt Quick renders on the GUI thread; decided when Qt makes
/// its first Qt Quick window, so before any), makes the application (a QGuiApplication,
/// once per process), the Vulkan
/// instance wrapper over `instance` (a `VkInstance`) and a `width` × `height` Qt Quick window
/// titled `title` on `physicalDevice`, `device`, and queue 0 of `queueFamily`, holding the
/// item that shows the texture; not shown. Nil, with the reason in `error` (`errorLength`
/// bytes), when Qt cannot use the instance.
swiftgpu_qtquick_window *swiftgpu_qtquick_window_create(void *instance, void *physicalDevice, void *device, int queueFamily,
                                                        const char *title, int width, int height,
                                                        swiftgpu_qtquick_callbacks callbacks, char *error, int errorLength);
/// The item shows `image` (a `VkImage` of `width` × `height` pixels that rests in `layout`
/// between the app's command buffers, a layout Qt samples it in) from Qt's next frame on.
void swiftgpu_qtquick_set_texture(swiftgpu_qtquick_window *window, void *image, uint32_t layout, int width, int height);
/// Waits until `queue` is idle (Qt's frames that sampled an earlier image are done). Call it
/// inside SwiftGPU's queue lock.
void swiftgpu_qtquick_wait_queue_idle(swiftgpu_qtquick_window *window, void *queue);
/// Shows the window.
void swiftgpu_qtquick_show(swiftgpu_qtquick_window *window);
/// The item's size in pixels.
void swiftgpu_qtquick_item_size(swiftgpu_qtquick_window *window, int *width, int *height);
/// The window's X11 window id.
unsigned long swiftgpu_qtquick_window_id(swiftgpu_qtquick_window *window);
/// Asks Qt for one more frame.
void swiftgpu_qtquick_request_frame(swiftgpu_qtquick_window *window);
/// Runs Qt's event loop until `swiftgpu_qtquick_quit` or the window closes; returns its code.
int swiftgpu_qtquick_run(swiftgpu_qtquick_window *window);
void swiftgpu_qtquick_quit(swiftgpu_qtquick_window *window);
/// Destroys the window (Qt's swapchain, its scene graph and the item with it, inside
/// `withQueue`) and the instance wrapper (not the VkInstance).
void swiftgpu_qtquick_window_destroy(swiftgpu_qtquick_window *window);

#ifdef __cplusplus
}
#endif

#endif
