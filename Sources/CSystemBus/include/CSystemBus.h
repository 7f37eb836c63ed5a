#ifndef SWIFTGPU_CSYSTEMBUS_H
#define SWIFTGPU_CSYSTEMBUS_H
// The few sd-bus calls SwiftGPU's system-lifecycle sources make, without sd-bus's
// variadic functions (which Swift cannot call): a bus connection, logind's sleep inhibitor,
// and its PrepareForSleep signal queued for the caller to take.
#include <stdint.h>

/// A bus connection with the logind match installed.
typedef struct SwiftGPUSystemBus SwiftGPUSystemBus;

/// Connects to the bus at `address` ("unix:path=..."), or the system bus when NULL, and
/// subscribes to logind's PrepareForSleep. NULL on failure, with `error` set to a negative
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

/// Takes the oldest PrepareForSleep argument received: 1 with `start` set (1 before sleep,
/// 0 after resume), 0 when none is waiting.
int swiftgpu_bus_next_sleep_signal(SwiftGPUSystemBus *bus, int *start);

/// Closes the connection.
void swiftgpu_bus_close(SwiftGPUSystemBus *bus);

#endif
