#ifndef SWIFTGPU_CSYSTEMBUS_H
#define SWIFTGPU_CSYSTEMBUS_H
// The few sd-bus calls SwiftGPU's system-lifecycle sources make, without sd-bus's
// variadic functions (which Swift cannot call): a bus connection, logind's sleep inhibitor,
// and its PrepareForSleep and PrepareForShutdown signals queued for the caller to take.
#include <stdint.h>

/// A bus connection with the logind match installed.
typedef struct SwiftGPUSystemBus SwiftGPUSystemBus;

/// Connects to the bus at `address` ("unix:path=..."), or the system bus when NULL, and
/// subscribes to logind's PrepareForSleep and PrepareForShutdown. NULL on failure, with `error` set to a negative
/// errno.
SwiftGPUSystemBus *swiftgpu_bus_open(const char *address, int *error);

/// Takes a logind inhibitor lock of kind `what` ("sleep") in `mode` ("delay"): its file
/// descriptor (the lock lasts until it is closed), or a negative errno.
int swiftgpu_bus_inhibit(SwiftGPUSystemBus *bus, const char *what, const char *who, const char *why, const char *mode);

/// logind's InhibitDelayMaxUSec, or 0 when it cannot be read.
uint64_t swiftgpu_bus_inhibit_delay_max(SwiftGPUSystemBus *bus);

/// Waits until the bus has something or `wake_fd` is readable, and processes what came.
/// Returns 1 after processing, 0 when `wake_fd` became readable, a negative errno when the
/// connection failed.
int swiftgpu_bus_process(SwiftGPUSystemBus *bus, int wake_fd);

/// The signals swiftgpu_bus_next_signal reports.
enum { SWIFTGPU_BUS_SLEEP = 0, SWIFTGPU_BUS_SHUTDOWN = 1 };

/// Takes the oldest signal received: 1 with `kind` (SWIFTGPU_BUS_SLEEP or
/// SWIFTGPU_BUS_SHUTDOWN) and `value` (1 before, 0 after) set, 0 when none is waiting.
int swiftgpu_bus_next_signal(SwiftGPUSystemBus *bus, int *kind, int *value);

/// Closes the connection.
void swiftgpu_bus_close(SwiftGPUSystemBus *bus);

#endif
