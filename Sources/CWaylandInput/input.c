#include "CWaylandInput.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "CWaylandQueue.h"

#include "input-timestamps-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"

#define MAX_TOUCHES 10
#define MAX_TOOLS 4

/// A finished record, queued for the caller.
struct Queued {
    SwiftGPUWaylandInputRecord record;
    struct Queued *next;
};

/// A touch point during a frame.
struct Touch {
    int32_t id;
    int active, changed, phase;
    double x, y;
};

/// A tablet tool: its proxy and its state during a frame.
struct Tool {
    struct zwp_tablet_tool_v2 *proxy;
    SwiftGPUWaylandInput *owner;
    int in_proximity, down, changed, phase;
    double x, y, pressure, tilt_x, tilt_y;
    int has_pressure, has_tilt;
};

struct SwiftGPUWaylandInput {
    struct wl_display *display;
    struct wl_surface *surface;
    struct wl_event_queue *queue;
    struct wl_seat *seat;
    struct zwp_input_timestamps_manager_v1 *timestamps_manager;
    struct zwp_tablet_manager_v2 *tablet_manager;
    struct zwp_relative_pointer_manager_v1 *relative_manager;
    struct zwp_relative_pointer_v1 *relative_pointer;
    /// Unaccelerated relative motion since the last pointer record.
    double relative_x, relative_y;
    int has_relative;
    uint32_t seat_capabilities;
    struct wl_pointer *pointer;
    struct wl_touch *touch;
    struct zwp_input_timestamps_v1 *pointer_timestamps, *touch_timestamps;
    struct zwp_tablet_seat_v2 *tablet_seat;
    /// The latest nanosecond timestamp, for the event that follows it.
    uint64_t nanoseconds;
    int has_nanoseconds;
    uint32_t milliseconds;
    /// Whether an event of the current frame carried a time.
    int has_time;
    // The pointer during a frame.
    int pointer_focused, pointer_changed, pointer_down, pointer_phase;
    double pointer_x, pointer_y;
    struct Touch touches[MAX_TOUCHES];
    struct Tool tools[MAX_TOOLS];
    struct Queued *head, *tail;
};

static void queue_record(SwiftGPUWaylandInput *in, SwiftGPUWaylandInputRecord record) {
    struct Queued *queued = calloc(1, sizeof *queued);
    if (!queued) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    record.dispatched = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
    record.milliseconds = in->milliseconds;
    record.has_milliseconds = in->has_time;
    record.nanoseconds = in->nanoseconds;
    record.has_nanoseconds = in->has_nanoseconds;
    queued->record = record;
    if (in->tail) in->tail->next = queued; else in->head = queued;
    in->tail = queued;
}

/// Notes an event's millisecond time; a nanosecond timestamp sent just before it stands.
static void stamp(SwiftGPUWaylandInput *in, uint32_t time) {
    in->milliseconds = time;
    in->has_time = 1;
}

static void timestamp(void *data, struct zwp_input_timestamps_v1 *t, uint32_t hi, uint32_t lo, uint32_t ns) {
    SwiftGPUWaylandInput *in = data;
    in->nanoseconds = ((((uint64_t)hi << 32) | lo) * 1000000000ull) + ns;
    in->has_nanoseconds = 1;
}

static const struct zwp_input_timestamps_v1_listener timestamps_listener = {timestamp};

// MARK: Pointer

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface,
                          wl_fixed_t x, wl_fixed_t y) {
    SwiftGPUWaylandInput *in = data;
    in->pointer_focused = surface == in->surface;
    if (!in->pointer_focused) return;
    in->pointer_x = wl_fixed_to_double(x);
    in->pointer_y = wl_fixed_to_double(y);
    in->pointer_changed = 1;
    in->pointer_phase = in->pointer_down ? 1 : 4;
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface) {
    SwiftGPUWaylandInput *in = data;
    if (in->pointer_focused && in->pointer_down) {
        in->pointer_phase = 3;
        in->pointer_changed = 1;
        in->pointer_down = 0;
    }
    in->pointer_focused = 0;
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    SwiftGPUWaylandInput *in = data;
    if (!in->pointer_focused) return;
    stamp(in, time);
    in->pointer_x = wl_fixed_to_double(x);
    in->pointer_y = wl_fixed_to_double(y);
    if (!in->pointer_changed || in->pointer_phase == 4 || in->pointer_phase == 1)
        in->pointer_phase = in->pointer_down ? 1 : 4;
    in->pointer_changed = 1;
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    SwiftGPUWaylandInput *in = data;
    if (!in->pointer_focused || button != 0x110 /* BTN_LEFT */) return;
    stamp(in, time);
    in->pointer_down = state == WL_POINTER_BUTTON_STATE_PRESSED;
    in->pointer_phase = in->pointer_down ? 0 : 2;
    in->pointer_changed = 1;
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {}

static void pointer_frame(void *data, struct wl_pointer *p) {
    SwiftGPUWaylandInput *in = data;
    if (in->pointer_changed) {
        SwiftGPUWaylandInputRecord record = {0};
        record.kind = SWIFTGPU_WL_POINTER;
        record.phase = in->pointer_phase;
        record.x = in->pointer_x;
        record.y = in->pointer_y;
        record.delta_x = in->relative_x;
        record.delta_y = in->relative_y;
        record.has_delta = in->has_relative;
        in->relative_x = in->relative_y = 0;
        in->has_relative = 0;
        queue_record(in, record);
    }
    in->pointer_changed = 0;
    in->has_nanoseconds = 0;
    in->has_time = 0;
}

static void pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source) {}
static void pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis) {}
static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t discrete) {}

static const struct wl_pointer_listener pointer_listener = {
    pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis,
    pointer_frame, pointer_axis_source, pointer_axis_stop, pointer_axis_discrete,
};

/// Relative motion comes in its own frames, before or after the absolute motion of the
/// same movement: it is summed until the next pointer record takes it.
static void relative_motion(void *data, struct zwp_relative_pointer_v1 *r, uint32_t utime_hi, uint32_t utime_lo,
                            wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t dx_unaccel, wl_fixed_t dy_unaccel) {
    SwiftGPUWaylandInput *in = data;
    if (!in->pointer_focused) return;
    in->relative_x += wl_fixed_to_double(dx_unaccel);
    in->relative_y += wl_fixed_to_double(dy_unaccel);
    in->has_relative = 1;
}

static const struct zwp_relative_pointer_v1_listener relative_listener = {relative_motion};

// MARK: Touch

static struct Touch *touch_slot(SwiftGPUWaylandInput *in, int32_t id, int make) {
    for (int i = 0; i < MAX_TOUCHES; i++)
        if (in->touches[i].active && in->touches[i].id == id) return &in->touches[i];
    if (!make) return NULL;
    for (int i = 0; i < MAX_TOUCHES; i++) {
        if (!in->touches[i].active) {
            memset(&in->touches[i], 0, sizeof in->touches[i]);
            in->touches[i].active = 1;
            in->touches[i].id = id;
            return &in->touches[i];
        }
    }
    return NULL;
}

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
    SwiftGPUWaylandInput *in = data;
    if (surface != in->surface) return;
    struct Touch *touch = touch_slot(in, id, 1);
    if (!touch) return;
    stamp(in, time);
    touch->x = wl_fixed_to_double(x);
    touch->y = wl_fixed_to_double(y);
    touch->phase = 0;
    touch->changed = 1;
}

static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
    SwiftGPUWaylandInput *in = data;
    struct Touch *touch = touch_slot(in, id, 0);
    if (!touch) return;
    stamp(in, time);
    touch->phase = 2;
    touch->changed = 1;
}

static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    SwiftGPUWaylandInput *in = data;
    struct Touch *touch = touch_slot(in, id, 0);
    if (!touch) return;
    stamp(in, time);
    touch->x = wl_fixed_to_double(x);
    touch->y = wl_fixed_to_double(y);
    if (!touch->changed) touch->phase = 1;
    touch->changed = 1;
}

static void touch_frame(void *data, struct wl_touch *t) {
    SwiftGPUWaylandInput *in = data;
    for (int i = 0; i < MAX_TOUCHES; i++) {
        struct Touch *touch = &in->touches[i];
        if (!touch->active || !touch->changed) continue;
        SwiftGPUWaylandInputRecord record = {0};
        record.kind = SWIFTGPU_WL_TOUCH;
        record.phase = touch->phase;
        record.contact = touch->id;
        record.x = touch->x;
        record.y = touch->y;
        queue_record(in, record);
        touch->changed = 0;
        if (touch->phase >= 2) touch->active = 0;
    }
    in->has_nanoseconds = 0;
    in->has_time = 0;
}

static void touch_cancel(void *data, struct wl_touch *t) {
    SwiftGPUWaylandInput *in = data;
    for (int i = 0; i < MAX_TOUCHES; i++) {
        if (!in->touches[i].active) continue;
        in->touches[i].phase = 3;
        in->touches[i].changed = 1;
    }
    touch_frame(data, t);
}

static void touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major, wl_fixed_t minor) {}
static void touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t orientation) {}

static const struct wl_touch_listener touch_listener = {
    touch_down, touch_up, touch_motion, touch_frame, touch_cancel, touch_shape, touch_orientation,
};

// MARK: Tablet tools

static void tool_type(void *data, struct zwp_tablet_tool_v2 *t, uint32_t type) {}
static void tool_serial(void *data, struct zwp_tablet_tool_v2 *t, uint32_t hi, uint32_t lo) {}
static void tool_wacom(void *data, struct zwp_tablet_tool_v2 *t, uint32_t hi, uint32_t lo) {}
static void tool_capability(void *data, struct zwp_tablet_tool_v2 *t, uint32_t capability) {}
static void tool_done(void *data, struct zwp_tablet_tool_v2 *t) {}

static void tool_removed(void *data, struct zwp_tablet_tool_v2 *t) {
    struct Tool *tool = data;
    zwp_tablet_tool_v2_destroy(tool->proxy);
    memset(tool, 0, sizeof *tool);
}

static void tool_proximity_in(void *data, struct zwp_tablet_tool_v2 *t, uint32_t serial,
                              struct zwp_tablet_v2 *tablet, struct wl_surface *surface) {
    struct Tool *tool = data;
    tool->in_proximity = surface == tool->owner->surface;
    if (tool->in_proximity) {
        tool->phase = 4;
        tool->changed = 1;
    }
}

static void tool_proximity_out(void *data, struct zwp_tablet_tool_v2 *t) {
    struct Tool *tool = data;
    if (tool->in_proximity && tool->down) {
        tool->phase = 3;
        tool->changed = 1;
    }
    tool->in_proximity = 0;
    tool->down = 0;
}

static void tool_down(void *data, struct zwp_tablet_tool_v2 *t, uint32_t serial) {
    struct Tool *tool = data;
    if (!tool->in_proximity) return;
    tool->down = 1;
    tool->phase = 0;
    tool->changed = 1;
}

static void tool_up(void *data, struct zwp_tablet_tool_v2 *t) {
    struct Tool *tool = data;
    if (!tool->in_proximity) return;
    tool->down = 0;
    tool->phase = 2;
    tool->changed = 1;
}

static void tool_motion(void *data, struct zwp_tablet_tool_v2 *t, wl_fixed_t x, wl_fixed_t y) {
    struct Tool *tool = data;
    if (!tool->in_proximity) return;
    tool->x = wl_fixed_to_double(x);
    tool->y = wl_fixed_to_double(y);
    if (!tool->changed) tool->phase = tool->down ? 1 : 4;
    tool->changed = 1;
}

static void tool_pressure(void *data, struct zwp_tablet_tool_v2 *t, uint32_t pressure) {
    struct Tool *tool = data;
    tool->pressure = pressure;
    tool->has_pressure = 1;
}

static void tool_distance(void *data, struct zwp_tablet_tool_v2 *t, uint32_t distance) {}

static void tool_tilt(void *data, struct zwp_tablet_tool_v2 *t, wl_fixed_t x, wl_fixed_t y) {
    struct Tool *tool = data;
    tool->tilt_x = wl_fixed_to_double(x);
    tool->tilt_y = wl_fixed_to_double(y);
    tool->has_tilt = 1;
}

static void tool_rotation(void *data, struct zwp_tablet_tool_v2 *t, wl_fixed_t degrees) {}
static void tool_slider(void *data, struct zwp_tablet_tool_v2 *t, int32_t position) {}
static void tool_wheel(void *data, struct zwp_tablet_tool_v2 *t, wl_fixed_t degrees, int32_t clicks) {}
static void tool_button(void *data, struct zwp_tablet_tool_v2 *t, uint32_t serial, uint32_t button, uint32_t state) {}

static void tool_frame(void *data, struct zwp_tablet_tool_v2 *t, uint32_t time) {
    struct Tool *tool = data;
    SwiftGPUWaylandInput *in = tool->owner;
    if (tool->changed) {
        stamp(in, time);
        SwiftGPUWaylandInputRecord record = {0};
        record.kind = SWIFTGPU_WL_PEN;
        record.phase = tool->phase;
        record.x = tool->x;
        record.y = tool->y;
        record.pressure = tool->pressure;
        record.has_pressure = tool->has_pressure;
        record.tilt_x = tool->tilt_x;
        record.tilt_y = tool->tilt_y;
        record.has_tilt = tool->has_tilt;
        queue_record(in, record);
    }
    tool->changed = 0;
    in->has_nanoseconds = 0;
    in->has_time = 0;
}

static const struct zwp_tablet_tool_v2_listener tool_listener = {
    tool_type, tool_serial, tool_wacom, tool_capability, tool_done, tool_removed, tool_proximity_in,
    tool_proximity_out, tool_down, tool_up, tool_motion, tool_pressure, tool_distance, tool_tilt,
    tool_rotation, tool_slider, tool_wheel, tool_button, tool_frame,
};

static void tablet_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_v2 *tablet) {}

static void tool_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_tool_v2 *proxy) {
    SwiftGPUWaylandInput *in = data;
    for (int i = 0; i < MAX_TOOLS; i++) {
        if (in->tools[i].proxy) continue;
        in->tools[i].proxy = proxy;
        in->tools[i].owner = in;
        zwp_tablet_tool_v2_add_listener(proxy, &tool_listener, &in->tools[i]);
        return;
    }
    zwp_tablet_tool_v2_destroy(proxy);
}

static void pad_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_pad_v2 *pad) {}

static const struct zwp_tablet_seat_v2_listener tablet_seat_listener = {tablet_added, tool_added, pad_added};

// MARK: Seat and registry

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    ((SwiftGPUWaylandInput *)data)->seat_capabilities = capabilities;
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {}

static const struct wl_seat_listener seat_listener = {seat_capabilities, seat_name};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    SwiftGPUWaylandInput *in = data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !in->seat) {
        in->seat = wl_registry_bind(registry, name, &wl_seat_interface, version < 5 ? version : 5);
    } else if (strcmp(interface, zwp_input_timestamps_manager_v1_interface.name) == 0) {
        in->timestamps_manager = wl_registry_bind(registry, name, &zwp_input_timestamps_manager_v1_interface, 1);
    } else if (strcmp(interface, zwp_relative_pointer_manager_v1_interface.name) == 0) {
        in->relative_manager = wl_registry_bind(registry, name, &zwp_relative_pointer_manager_v1_interface, 1);
    } else if (strcmp(interface, zwp_tablet_manager_v2_interface.name) == 0) {
        in->tablet_manager = wl_registry_bind(registry, name, &zwp_tablet_manager_v2_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener registry_listener = {global, global_remove};

SwiftGPUWaylandInput *swiftgpu_wayland_input_create(struct wl_display *display, struct wl_surface *surface) {
    SwiftGPUWaylandInput *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    in->display = display;
    in->surface = surface;
    in->queue = wl_display_create_queue(display);
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    if (!in->queue || !wrapper) goto failed;
    wl_proxy_set_queue((struct wl_proxy *)wrapper, in->queue);
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    wl_proxy_wrapper_destroy(wrapper);
    if (!registry) goto failed;
    wl_registry_add_listener(registry, &registry_listener, in);
    int ok = wl_display_roundtrip_queue(display, in->queue) >= 0;
    wl_registry_destroy(registry);
    if (!ok || !in->seat) goto failed;
    wl_seat_add_listener(in->seat, &seat_listener, in);
    if (wl_display_roundtrip_queue(display, in->queue) < 0) goto failed;
    if (in->seat_capabilities & WL_SEAT_CAPABILITY_POINTER) {
        in->pointer = wl_seat_get_pointer(in->seat);
        wl_pointer_add_listener(in->pointer, &pointer_listener, in);
        if (in->timestamps_manager) {
            in->pointer_timestamps = zwp_input_timestamps_manager_v1_get_pointer_timestamps(in->timestamps_manager, in->pointer);
            zwp_input_timestamps_v1_add_listener(in->pointer_timestamps, &timestamps_listener, in);
        }
        if (in->relative_manager) {
            in->relative_pointer = zwp_relative_pointer_manager_v1_get_relative_pointer(in->relative_manager, in->pointer);
            zwp_relative_pointer_v1_add_listener(in->relative_pointer, &relative_listener, in);
        }
    }
    if (in->seat_capabilities & WL_SEAT_CAPABILITY_TOUCH) {
        in->touch = wl_seat_get_touch(in->seat);
        wl_touch_add_listener(in->touch, &touch_listener, in);
        if (in->timestamps_manager) {
            in->touch_timestamps = zwp_input_timestamps_manager_v1_get_touch_timestamps(in->timestamps_manager, in->touch);
            zwp_input_timestamps_v1_add_listener(in->touch_timestamps, &timestamps_listener, in);
        }
    }
    if (in->tablet_manager) {
        in->tablet_seat = zwp_tablet_manager_v2_get_tablet_seat(in->tablet_manager, in->seat);
        zwp_tablet_seat_v2_add_listener(in->tablet_seat, &tablet_seat_listener, in);
    }
    if (wl_display_roundtrip_queue(display, in->queue) < 0) goto failed;
    return in;
failed:
    swiftgpu_wayland_input_destroy(in);
    return NULL;
}

int swiftgpu_wayland_input_capabilities(SwiftGPUWaylandInput *in) {
    return (in->pointer ? SWIFTGPU_WL_HAS_POINTER : 0) | (in->touch ? SWIFTGPU_WL_HAS_TOUCH : 0) |
           (in->tablet_seat ? SWIFTGPU_WL_HAS_TABLET : 0) | (in->timestamps_manager ? SWIFTGPU_WL_HAS_TIMESTAMPS : 0) |
           (in->relative_pointer ? SWIFTGPU_WL_HAS_RELATIVE : 0);
}

int swiftgpu_wayland_input_dispatch(SwiftGPUWaylandInput *in, int wake_fd) {
    return swiftgpu_wayland_dispatch_queue(in->display, in->queue, wake_fd);
}

int swiftgpu_wayland_input_next(SwiftGPUWaylandInput *in, SwiftGPUWaylandInputRecord *record) {
    struct Queued *head = in->head;
    if (!head) return 0;
    *record = head->record;
    in->head = head->next;
    if (!in->head) in->tail = NULL;
    free(head);
    return 1;
}

void swiftgpu_wayland_input_destroy(SwiftGPUWaylandInput *in) {
    SwiftGPUWaylandInputRecord ignored;
    while (swiftgpu_wayland_input_next(in, &ignored)) {}
    for (int i = 0; i < MAX_TOOLS; i++)
        if (in->tools[i].proxy) zwp_tablet_tool_v2_destroy(in->tools[i].proxy);
    if (in->tablet_seat) zwp_tablet_seat_v2_destroy(in->tablet_seat);
    if (in->relative_pointer) zwp_relative_pointer_v1_destroy(in->relative_pointer);
    if (in->relative_manager) zwp_relative_pointer_manager_v1_destroy(in->relative_manager);
    if (in->pointer_timestamps) zwp_input_timestamps_v1_destroy(in->pointer_timestamps);
    if (in->touch_timestamps) zwp_input_timestamps_v1_destroy(in->touch_timestamps);
    if (in->pointer) wl_pointer_release(in->pointer);
    if (in->touch) wl_touch_release(in->touch);
    if (in->timestamps_manager) zwp_input_timestamps_manager_v1_destroy(in->timestamps_manager);
    if (in->tablet_manager) zwp_tablet_manager_v2_destroy(in->tablet_manager);
    if (in->seat) wl_seat_release(in->seat);
    if (in->display) wl_display_flush(in->display);
    if (in->queue) wl_event_queue_destroy(in->queue);
    free(in);
}
