#include "CSystemBus.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#define SIGNALS 64

struct SwiftGPUSystemBus {
    sd_bus *bus;
    sd_bus_slot *sleep_slot, *shutdown_slot;
    /// Signals not yet taken, a ring: their kind and boolean argument.
    int kinds[SIGNALS];
    int values[SIGNALS];
    int head, count;
};

/// Queues a PrepareFor… signal of `kind` with its boolean argument.
static int queue_signal(sd_bus_message *message, SwiftGPUSystemBus *b, int kind) {
    int value = 0;
    if (sd_bus_message_read(message, "b", &value) < 0) return 0;
    if (b->count < SIGNALS) {
        b->kinds[(b->head + b->count) % SIGNALS] = kind;
        b->values[(b->head + b->count) % SIGNALS] = value;
        b->count++;
    }
    return 0;
}

static int prepare_for_sleep(sd_bus_message *message, void *data, sd_bus_error *error) {
    return queue_signal(message, data, SWIFTGPU_BUS_SLEEP);
}

static int prepare_for_shutdown(sd_bus_message *message, void *data, sd_bus_error *error) {
    return queue_signal(message, data, SWIFTGPU_BUS_SHUTDOWN);
}

SwiftGPUSystemBus *swiftgpu_bus_open(const char *address, int *error) {
    SwiftGPUSystemBus *b = calloc(1, sizeof *b);
    if (!b) {
        *error = -ENOMEM;
        return NULL;
    }
    int r;
    if (address) {
        r = sd_bus_new(&b->bus);
        if (r >= 0) r = sd_bus_set_address(b->bus, address);
        if (r >= 0) r = sd_bus_set_bus_client(b->bus, 1);
        if (r >= 0) r = sd_bus_start(b->bus);
    } else {
        r = sd_bus_open_system(&b->bus);
    }
    if (r >= 0) {
        r = sd_bus_match_signal(b->bus, &b->sleep_slot, "org.freedesktop.login1", "/org/freedesktop/login1",
                                "org.freedesktop.login1.Manager", "PrepareForSleep", prepare_for_sleep, b);
    }
    if (r >= 0) {
        r = sd_bus_match_signal(b->bus, &b->shutdown_slot, "org.freedesktop.login1", "/org/freedesktop/login1",
                                "org.freedesktop.login1.Manager", "PrepareForShutdown", prepare_for_shutdown, b);
    }
    if (r < 0) {
        *error = r;
        swiftgpu_bus_close(b);
        return NULL;
    }
    return b;
}

int swiftgpu_bus_inhibit(SwiftGPUSystemBus *b, const char *what, const char *who, const char *why, const char *mode) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(b->bus, "org.freedesktop.login1", "/org/freedesktop/login1",
                               "org.freedesktop.login1.Manager", "Inhibit", &error, &reply, "ssss", what, who, why, mode);
    sd_bus_error_free(&error);
    if (r < 0) return r;
    int fd = -1;
    r = sd_bus_message_read(reply, "h", &fd);
    // The message owns its descriptor: keep a copy.
    int copy = r < 0 ? r : fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (r >= 0 && copy < 0) copy = -errno;
    sd_bus_message_unref(reply);
    return copy;
}

uint64_t swiftgpu_bus_inhibit_delay_max(SwiftGPUSystemBus *b) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    uint64_t value = 0;
    int r = sd_bus_get_property_trivial(b->bus, "org.freedesktop.login1", "/org/freedesktop/login1",
                                        "org.freedesktop.login1.Manager", "InhibitDelayMaxUSec", &error, 't', &value);
    sd_bus_error_free(&error);
    return r < 0 ? 0 : value;
}

int swiftgpu_bus_process(SwiftGPUSystemBus *b, int wake_fd) {
    int r;
    while ((r = sd_bus_process(b->bus, NULL)) > 0) {}
    if (r < 0) return r;
    struct pollfd fds[2] = {{sd_bus_get_fd(b->bus), (short)sd_bus_get_events(b->bus), 0}, {wake_fd, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) return errno == EINTR ? 1 : -errno;
    if (fds[1].revents & POLLIN) return 0;
    while ((r = sd_bus_process(b->bus, NULL)) > 0) {}
    return r < 0 ? r : 1;
}

int swiftgpu_bus_next_signal(SwiftGPUSystemBus *b, int *kind, int *value) {
    if (b->count == 0) return 0;
    *kind = b->kinds[b->head];
    *value = b->values[b->head];
    b->head = (b->head + 1) % SIGNALS;
    b->count--;
    return 1;
}

void swiftgpu_bus_close(SwiftGPUSystemBus *b) {
    if (b->sleep_slot) sd_bus_slot_unref(b->sleep_slot);
    if (b->shutdown_slot) sd_bus_slot_unref(b->shutdown_slot);
    if (b->bus) sd_bus_flush_close_unref(b->bus);
    free(b);
}
