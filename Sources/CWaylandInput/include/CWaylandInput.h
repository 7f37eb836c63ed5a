#ifndef SWIFTGPU_CWAYLANDINPUT_H
#define SWIFTGPU_CWAYLANDINPUT_H
// A Wayland seat's pointer, touch and tablet tools for one surface, on a private event queue
// that a thread of the caller's dispatches: the events of each frame gathered into one
// record per contact, with nanosecond timestamps where the compositor offers
// zwp_input_timestamps_v1 and unaccelerated pointer motion where it offers
// zwp_relative_pointer_v1.
#include <stdint.h>

struct wl_display;
struct wl_surface;

/// A seat's input for one surface.
typedef struct SwiftGPUWaylandInput SwiftGPUWaylandInput;

/// What a record is.
typedef enum SwiftGPUWaylandInputKind {
    SWIFTGPU_WL_POINTER = 0,
    SWIFTGPU_WL_TOUCH = 1,
    SWIFTGPU_WL_PEN = 2,
} SwiftGPUWaylandInputKind;

/// Where the contact is: 0 began, 1 moved, 2 ended, 3 cancelled, 4 hovering.
typedef int SwiftGPUWaylandPhase;

/// One contact's state at the end of one frame of events.
typedef struct SwiftGPUWaylandInputRecord {
    SwiftGPUWaylandInputKind kind;
    SwiftGPUWaylandPhase phase;
    /// The touch's id; 0 for the pointer and the pen.
    int32_t contact;
    /// Surface-local position.
    double x;
    double y;
    /// The event's time in milliseconds (`has_milliseconds`: a frame of only an enter has
    /// none), and in nanoseconds where timestamps are offered (`has_nanoseconds`).
    uint32_t milliseconds;
    int has_milliseconds;
    /// When the frame's events were dispatched, in CLOCK_MONOTONIC nanoseconds: the
    /// record's arrival.
    uint64_t dispatched;
    uint64_t nanoseconds;
    int has_nanoseconds;
    /// A pen's pressure (0–65535) and tilt in degrees; `has_pressure` / `has_tilt` say if sent.
    double pressure;
    int has_pressure;
    double tilt_x;
    double tilt_y;
    int has_tilt;
    /// The pointer's unaccelerated relative motion since its previous record, where the
    /// compositor offers zwp_relative_pointer_v1 (`has_delta`).
    double delta_x;
    double delta_y;
    int has_delta;
} SwiftGPUWaylandInputRecord;

/// What the compositor offers: bits 1 pointer, 2 touch, 4 tablet, 8 input timestamps, 16
/// relative pointer motion.
enum {
    SWIFTGPU_WL_HAS_POINTER = 1,
    SWIFTGPU_WL_HAS_TOUCH = 2,
    SWIFTGPU_WL_HAS_TABLET = 4,
    SWIFTGPU_WL_HAS_TIMESTAMPS = 8,
    SWIFTGPU_WL_HAS_RELATIVE = 16,
};

/// Binds the first wl_seat (and the timestamp and tablet managers where offered) on a new
/// queue of `display`, for events on `surface`. NULL without a seat.
SwiftGPUWaylandInput *swiftgpu_wayland_input_create(struct wl_display *display, struct wl_surface *surface);

/// What the compositor offers (see the SWIFTGPU_WL_HAS_ bits).
int swiftgpu_wayland_input_capabilities(SwiftGPUWaylandInput *input);

/// Waits until the queue has events or `wake_fd` is readable, and dispatches what came.
/// Returns 1 after dispatching, 0 when `wake_fd` became readable, -1 when the connection
/// failed.
int swiftgpu_wayland_input_dispatch(SwiftGPUWaylandInput *input, int wake_fd);

/// Takes the oldest record not yet taken: 1 with one, 0 when none is waiting.
int swiftgpu_wayland_input_next(SwiftGPUWaylandInput *input, SwiftGPUWaylandInputRecord *record);

/// Destroys the seat's objects, the bindings and the queue.
void swiftgpu_wayland_input_destroy(SwiftGPUWaylandInput *input);

#endif
