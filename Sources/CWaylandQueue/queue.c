#include "CWaylandQueue.h"

#include <errno.h>
#include <poll.h>
#include <wayland-client.h>

int swiftgpu_wayland_dispatch_queue(struct wl_display *display, struct wl_event_queue *queue, int wake_fd) {
    if (wl_display_prepare_read_queue(display, queue) != 0) {
        return wl_display_dispatch_queue_pending(display, queue) < 0 ? -1 : 1;
    }
    wl_display_flush(display);
    struct pollfd fds[2] = {{wl_display_get_fd(display), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
        wl_display_cancel_read(display);
        return errno == EINTR ? 1 : -1;
    }
    if (fds[0].revents & POLLIN) {
        if (wl_display_read_events(display) < 0) return -1;
    } else {
        wl_display_cancel_read(display);
    }
    if (wl_display_dispatch_queue_pending(display, queue) < 0) return -1;
    return (fds[1].revents & POLLIN) ? 0 : 1;
}
