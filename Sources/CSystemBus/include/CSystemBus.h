#ifndef SWIFTGPU_CSYSTEMBUS_H
#define SWIFTGPU_CSYSTEMBUS_H
// The few sd-bus calls SwiftGPU's system-lifecycle sources make, without sd-bus's
// variadic functions (which Swift cannot call): one bus connection, logind's sleep
// inhibitor and session, UPower's OnBattery, power-profiles-daemon's ActiveProfile and
// low-memory-monitor's LowMemoryWarning, their signals queued for the caller to take.
#include <stdint.h>

/// A bus connection with the services' matches installed.
typedef struct SwiftGPUSystemBus SwiftGPUSystemBus;

/// The services a connection follows.
enum {
    SWIFTGPU_SERVICE_LOGIND = 0,
    SWIFTGPU_SERVICE_UPOWER = 1,
    SWIFTGPU_SERVICE_POWER_PROFILES = 2,
    SWIFTGPU_SERVICE_LOW_MEMORY = 3,
    SWIFTGPU_SERVICE_COUNT = 4
};

/// Connects to the bus at `address` ("unix:path=..."), or the system bus when NULL, and
/// subscribes to logind's PrepareForSleep and PrepareForShutdown, UPower's and
/// power-profiles-daemon's property changes, low-memory-monitor's LowMemoryWarning, and
/// each service's name appearing and vanishing. NULL on failure, with `error` set to a
/// negative errno.
SwiftGPUSystemBus *swiftgpu_bus_open(const char *address, int *error);

/// Follows the logind session at `path`: its Lock and Unlock signals and its Active
/// property. 0, or a negative errno.
int swiftgpu_bus_follow_session(SwiftGPUSystemBus *bus, const char *path);

/// The object path of logind's session `id` (GetSession), or of the session of process
/// `pid` (GetSessionByPID) when `id` is NULL: a string to free, or NULL.
char *swiftgpu_bus_session_path(SwiftGPUSystemBus *bus, const char *id, uint32_t pid);

/// Takes a logind inhibitor lock of kind `what` ("sleep") in `mode` ("delay"): its file
/// descriptor (the lock lasts until it is closed), or a negative errno.
int swiftgpu_bus_inhibit(SwiftGPUSystemBus *bus, const char *what, const char *who, const char *why, const char *mode);

/// logind's InhibitDelayMaxUSec, or 0 when it cannot be read.
uint64_t swiftgpu_bus_inhibit_delay_max(SwiftGPUSystemBus *bus);

/// Whether `service` (SWIFTGPU_SERVICE_…) has an owner on the bus: 1, 0, or a negative errno.
int swiftgpu_bus_service_present(SwiftGPUSystemBus *bus, int service);

/// Reads the value the service's property change signals carry: logind session's Active
/// (the followed session), UPower's OnBattery, whether power-profiles-daemon's
/// ActiveProfile is "power-saver". 1 or 0, or a negative errno.
int swiftgpu_bus_read_flag(SwiftGPUSystemBus *bus, int kind);

/// Processes what the connection holds or can read now; only when that queued no signal,
/// waits until the bus has something or `wake_fd` is readable, and processes what came.
/// Returns 1 after processing (signals may be waiting), 0 when `wake_fd` became readable,
/// a negative errno when the connection failed.
int swiftgpu_bus_process(SwiftGPUSystemBus *bus, int wake_fd);

/// The signals swiftgpu_bus_next_signal reports, with what their value is.
enum {
    SWIFTGPU_BUS_SLEEP = 0,           ///< PrepareForSleep: 1 before, 0 after
    SWIFTGPU_BUS_SHUTDOWN = 1,        ///< PrepareForShutdown: 1 before, 0 after
    SWIFTGPU_BUS_SESSION_LOCK = 2,    ///< the session's Lock (1) or Unlock (0)
    SWIFTGPU_BUS_SESSION_ACTIVE = 3,  ///< the session's Active property
    SWIFTGPU_BUS_ON_BATTERY = 4,      ///< UPower's OnBattery property
    SWIFTGPU_BUS_POWER_SAVER = 5,     ///< power-profiles-daemon's ActiveProfile is "power-saver"
    SWIFTGPU_BUS_LOW_MEMORY = 6,      ///< LowMemoryWarning: its level (50 low, 100 medium, 255 critical)
    SWIFTGPU_BUS_APPEARED = 7,        ///< a service got an owner: its SWIFTGPU_SERVICE_…
    SWIFTGPU_BUS_VANISHED = 8         ///< a service lost its owner: its SWIFTGPU_SERVICE_…
};

/// Takes the oldest signal received: 1 with `kind` (SWIFTGPU_BUS_…) and `value` set, 0
/// when none is waiting.
int swiftgpu_bus_next_signal(SwiftGPUSystemBus *bus, int *kind, int *value);

/// Closes the connection.
void swiftgpu_bus_close(SwiftGPUSystemBus *bus);

#endif
