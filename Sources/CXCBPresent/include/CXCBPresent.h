#ifndef SWIFTGPU_CXCBPRESENT_H
#define SWIFTGPU_CXCBPRESENT_H
// The X Present extension's MSC notifications, for XPresentClock. The connection is passed
// as void * (an xcb_connection_t *) so that Swift sees one type whichever module declared
// xcb_connection_t first. Present's CompleteNotify event is a packed struct, which Swift
// cannot read: these functions unpack it.
#include <stdint.h>

/// A connection's registration for Present events on one window.
typedef struct SwiftGPUPresentEvents SwiftGPUPresentEvents;

/// 1 when the server offers Present 1.0 or later, else 0.
int swiftgpu_present_supported(void *connection);

/// Selects CompleteNotify events for `window` and registers a special-event queue for them;
/// NULL on failure.
SwiftGPUPresentEvents *swiftgpu_present_register(void *connection, uint32_t window);

/// Asks for a CompleteNotify when the window's CRTC reaches `target_msc` (at once when it
/// has passed it), and flushes.
void swiftgpu_present_notify_msc(void *connection, uint32_t window, uint32_t serial, uint64_t target_msc);

/// Asks for a CompleteNotify at the window's next vblank (divisor 1: the first MSC after the
/// current one), and flushes. Sent right after a present on the same connection, the server
/// handles it after the present's copy, so it reports the vblank that shows the copy.
void swiftgpu_present_notify_next_msc(void *connection, uint32_t window, uint32_t serial);

/// A CompleteNotify event, unpacked.
typedef struct SwiftGPUPresentCompletion {
    /// 1 for a NotifyMSC completion, 2 for a PresentPixmap completion (another client's or
    /// the Vulkan driver's, on the same window), 0 for another Present event.
    int kind;
    /// For a pixmap: 0 copy, 1 flip, 2 skip, 3 suboptimal copy (Present's CompleteMode).
    int mode;
    uint32_t serial;
    /// Microseconds of CLOCK_MONOTONIC.
    uint64_t ust;
    uint64_t msc;
} SwiftGPUPresentCompletion;

/// The next event of `events` into `completion`: when `block` is non-zero, waits for one.
/// Returns 1 with an event, 0 when none is queued (not blocking), -1 when the connection has
/// failed.
int swiftgpu_present_next(void *connection, SwiftGPUPresentEvents *events, int block,
                          SwiftGPUPresentCompletion *completion);

/// Unregisters and frees `events`.
void swiftgpu_present_unregister(void *connection, SwiftGPUPresentEvents *events);

#endif
