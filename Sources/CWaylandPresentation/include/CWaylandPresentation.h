#ifndef SWIFTGPU_CWAYLANDPRESENTATION_H
#define SWIFTGPU_CWAYLANDPRESENTATION_H
// Wayland's presentation-time protocol for one surface, on a private event queue that a
// thread of the caller's dispatches: feedback requested before each commit, and the
// compositor's answers collected for the caller to take.
#include <stdint.h>

struct wl_display;
struct wl_surface;

/// A surface's presentation feedback on its own queue.
typedef struct SwiftGPUPresentation SwiftGPUPresentation;

/// What the compositor said of one commit.
typedef struct SwiftGPUPresentationResult {
    /// The number given to swiftgpu_presentation_request.
    uint64_t frame;
    /// 1 presented, 0 discarded.
    int presented;
    /// When it was presented, in the protocol's clock (see swiftgpu_presentation_create).
    uint64_t seconds;
    uint32_t nanoseconds;
    /// The output's refresh period in nanoseconds; 0 when unknown.
    uint32_t refresh;
    /// The output's vblank counter; 0 when it has none.
    uint64_t sequence;
    /// wp_presentation_feedback.kind bits (vsync 1, hw_clock 2, hw_completion 4, zero_copy 8).
    uint32_t flags;
} SwiftGPUPresentationResult;

/// Binds wp_presentation on a new queue of `display`, for `surface`. NULL when the
/// compositor offers no wp_presentation (or on a connection failure). `clock_id` receives the
/// clock the compositor's times are on (CLOCK_MONOTONIC is 1).
SwiftGPUPresentation *swiftgpu_presentation_create(struct wl_display *display, struct wl_surface *surface,
                                                   uint32_t *clock_id);

/// Asks for feedback on the surface's next commit, reported as `frame`; flushes. 0 on
/// success, -1 when out of memory.
int swiftgpu_presentation_request(SwiftGPUPresentation *presentation, uint64_t frame);

/// Waits until the queue has events or `wake_fd` is readable, and dispatches what came.
/// Returns 1 after dispatching, 0 when `wake_fd` became readable, -1 when the connection
/// failed.
int swiftgpu_presentation_dispatch(SwiftGPUPresentation *presentation, int wake_fd);

/// Takes the oldest result not yet taken: 1 with one, 0 when none is waiting.
int swiftgpu_presentation_next(SwiftGPUPresentation *presentation, SwiftGPUPresentationResult *result);

/// Destroys the feedback still outstanding, the binding and the queue.
void swiftgpu_presentation_destroy(SwiftGPUPresentation *presentation);

#endif
