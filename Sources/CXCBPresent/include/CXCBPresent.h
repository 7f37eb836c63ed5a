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

/// Blocks for the next event of `events`. Returns 1 and fills `ust` (microseconds of
/// CLOCK_MONOTONIC), `msc` and `serial` for a NotifyMSC completion, 0 for another event,
/// -1 when the connection has failed.
int swiftgpu_present_wait(void *connection, SwiftGPUPresentEvents *events, uint64_t *ust, uint64_t *msc,
                          uint32_t *serial);

/// Unregisters and frees `events`.
void swiftgpu_present_unregister(void *connection, SwiftGPUPresentEvents *events);

#endif
