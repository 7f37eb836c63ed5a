#ifndef SWIFTGPU_CWAYLANDQUEUE_H
#define SWIFTGPU_CWAYLANDQUEUE_H
// Dispatching a private Wayland event queue from a thread of its own, beside the host's
// dispatching of the connection (wl_display_prepare_read_queue lets both read).

struct wl_display;
struct wl_event_queue;

/// Waits until `queue` has events or `wake_fd` is readable, and dispatches what came.
/// Returns 1 after dispatching, 0 when `wake_fd` became readable, -1 when the connection
/// failed.
int swiftgpu_wayland_dispatch_queue(struct wl_display *display, struct wl_event_queue *queue, int wake_fd);

#endif
