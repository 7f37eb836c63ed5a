#include "CSystemBus.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#define SIGNALS 256
#define LOGIND "org.freedesktop.login1"
#define LOGIND_PATH "/org/freedesktop/login1"
#define LOGIND_MANAGER "org.freedesktop.login1.Manager"
#define LOGIND_SESSION "org.freedesktop.login1.Session"
#define PROPERTIES "org.freedesktop.DBus.Properties"

/// A property whose changes become signals of `kind`: a boolean, or whether a string
/// equals `equals`.
struct property {
    int service;
    const char *path, *interface, *name;
    const char *equals;
    int kind;
};

static const char *const service_names[SWIFTGPU_SERVICE_COUNT] = {
    LOGIND, "org.freedesktop.UPower", "net.hadess.PowerProfiles", "org.freedesktop.LowMemoryMonitor",
};

/// The properties followed on fixed paths; the session's Active is added with its path.
static const struct property fixed_properties[] = {
    {SWIFTGPU_SERVICE_UPOWER, "/org/freedesktop/UPower", "org.freedesktop.UPower", "OnBattery", NULL,
     SWIFTGPU_BUS_ON_BATTERY},
    {SWIFTGPU_SERVICE_POWER_PROFILES, "/net/hadess/PowerProfiles", "net.hadess.PowerProfiles", "ActiveProfile",
     "power-saver", SWIFTGPU_BUS_POWER_SAVER},
};
#define FIXED_PROPERTIES (sizeof fixed_properties / sizeof fixed_properties[0])

struct watch {
    SwiftGPUSystemBus *bus;
    struct property property;
};

struct SwiftGPUSystemBus {
    sd_bus *bus;
    /// Every match this connection installed; released with it.
    sd_bus_slot *slots[16];
    int slot_count;
    struct watch watches[FIXED_PROPERTIES + 1];
    char *session_path;
    /// Signals not yet taken, a ring: their kind and value.
    int kinds[SIGNALS];
    int values[SIGNALS];
    int head, count;
};

static void queue(SwiftGPUSystemBus *b, int kind, int value) {
    if (b->count == SIGNALS) {
        // The oldest goes: the newest state matters more than an old one.
        b->head = (b->head + 1) % SIGNALS;
        b->count--;
    }
    b->kinds[(b->head + b->count) % SIGNALS] = kind;
    b->values[(b->head + b->count) % SIGNALS] = value;
    b->count++;
}

static int prepare_for_sleep(sd_bus_message *message, void *data, sd_bus_error *error) {
    int value = 0;
    if (sd_bus_message_read(message, "b", &value) >= 0) queue(data, SWIFTGPU_BUS_SLEEP, value);
    return 0;
}

static int prepare_for_shutdown(sd_bus_message *message, void *data, sd_bus_error *error) {
    int value = 0;
    if (sd_bus_message_read(message, "b", &value) >= 0) queue(data, SWIFTGPU_BUS_SHUTDOWN, value);
    return 0;
}

static int session_lock(sd_bus_message *message, void *data, sd_bus_error *error) {
    queue(data, SWIFTGPU_BUS_SESSION_LOCK, 1);
    return 0;
}

static int session_unlock(sd_bus_message *message, void *data, sd_bus_error *error) {
    queue(data, SWIFTGPU_BUS_SESSION_LOCK, 0);
    return 0;
}

static int low_memory_warning(sd_bus_message *message, void *data, sd_bus_error *error) {
    uint8_t level = 0;
    if (sd_bus_message_read(message, "y", &level) >= 0) queue(data, SWIFTGPU_BUS_LOW_MEMORY, level);
    return 0;
}

/// Reads the property's value, the next item of `message`: 1 or 0, or a negative errno.
static int read_flag(sd_bus_message *message, const struct property *p) {
    int r;
    if (p->equals) {
        const char *text = NULL;
        r = sd_bus_message_read(message, "s", &text);
        return r < 0 ? r : strcmp(text, p->equals) == 0;
    }
    int value = 0;
    r = sd_bus_message_read(message, "b", &value);
    return r < 0 ? r : value != 0;
}

/// PropertiesChanged(s interface, a{sv} changed, as invalidated): queues the watched
/// property's new value when it is among the changed ones.
static int properties_changed(sd_bus_message *message, void *data, sd_bus_error *error) {
    struct watch *w = data;
    const char *interface = NULL;
    if (sd_bus_message_read(message, "s", &interface) < 0 || strcmp(interface, w->property.interface) != 0) return 0;
    if (sd_bus_message_enter_container(message, SD_BUS_TYPE_ARRAY, "{sv}") < 0) return 0;
    while (sd_bus_message_enter_container(message, SD_BUS_TYPE_DICT_ENTRY, "sv") > 0) {
        const char *name = NULL;
        if (sd_bus_message_read(message, "s", &name) < 0) return 0;
        if (strcmp(name, w->property.name) == 0) {
            if (sd_bus_message_enter_container(message, SD_BUS_TYPE_VARIANT, w->property.equals ? "s" : "b") < 0) {
                return 0;
            }
            int value = read_flag(message, &w->property);
            if (value >= 0) queue(w->bus, w->property.kind, value);
            return 0;
        }
        if (sd_bus_message_skip(message, "v") < 0 || sd_bus_message_exit_container(message) < 0) return 0;
    }
    return 0;
}

/// NameOwnerChanged(s name, s old, s new) for one of the services.
static int name_owner_changed(sd_bus_message *message, void *data, sd_bus_error *error) {
    SwiftGPUSystemBus *b = data;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd_bus_message_read(message, "sss", &name, &old_owner, &new_owner) < 0) return 0;
    for (int service = 0; service < SWIFTGPU_SERVICE_COUNT; service++) {
        if (strcmp(name, service_names[service]) != 0) continue;
        if (*old_owner) queue(b, SWIFTGPU_BUS_VANISHED, service);
        if (*new_owner) queue(b, SWIFTGPU_BUS_APPEARED, service);
    }
    return 0;
}

static int match_signal(SwiftGPUSystemBus *b, const char *sender, const char *path, const char *interface,
                        const char *member, sd_bus_message_handler_t handler, void *data) {
    if (b->slot_count == (int)(sizeof b->slots / sizeof b->slots[0])) return -ENOSPC;
    return sd_bus_match_signal(b->bus, &b->slots[b->slot_count++], sender, path, interface, member, handler, data);
}

static int watch_property(SwiftGPUSystemBus *b, struct watch *w) {
    return match_signal(b, service_names[w->property.service], w->property.path, PROPERTIES, "PropertiesChanged",
                        properties_changed, w);
}

static int install_matches(SwiftGPUSystemBus *b) {
    int r = match_signal(b, LOGIND, LOGIND_PATH, LOGIND_MANAGER, "PrepareForSleep", prepare_for_sleep, b);
    if (r >= 0) r = match_signal(b, LOGIND, LOGIND_PATH, LOGIND_MANAGER, "PrepareForShutdown", prepare_for_shutdown, b);
    if (r >= 0) {
        r = match_signal(b, service_names[SWIFTGPU_SERVICE_LOW_MEMORY], "/org/freedesktop/LowMemoryMonitor",
                         "org.freedesktop.LowMemoryMonitor", "LowMemoryWarning", low_memory_warning, b);
    }
    for (size_t i = 0; r >= 0 && i < FIXED_PROPERTIES; i++) {
        b->watches[i] = (struct watch){b, fixed_properties[i]};
        r = watch_property(b, &b->watches[i]);
    }
    for (int service = 0; r >= 0 && service < SWIFTGPU_SERVICE_COUNT; service++) {
        char rule[256];
        snprintf(rule, sizeof rule,
                 "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                 "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='%s'",
                 service_names[service]);
        if (b->slot_count == (int)(sizeof b->slots / sizeof b->slots[0])) return -ENOSPC;
        r = sd_bus_add_match(b->bus, &b->slots[b->slot_count++], rule, name_owner_changed, b);
    }
    return r;
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
    if (r >= 0) r = install_matches(b);
    if (r < 0) {
        *error = r;
        swiftgpu_bus_close(b);
        return NULL;
    }
    return b;
}

int swiftgpu_bus_follow_session(SwiftGPUSystemBus *b, const char *path) {
    if (b->session_path) return -EALREADY;
    b->session_path = strdup(path);
    if (!b->session_path) return -ENOMEM;
    int r = match_signal(b, LOGIND, path, LOGIND_SESSION, "Lock", session_lock, b);
    if (r >= 0) r = match_signal(b, LOGIND, path, LOGIND_SESSION, "Unlock", session_unlock, b);
    if (r >= 0) {
        struct watch *w = &b->watches[FIXED_PROPERTIES];
        *w = (struct watch){b, {SWIFTGPU_SERVICE_LOGIND, b->session_path, LOGIND_SESSION, "Active", NULL,
                                SWIFTGPU_BUS_SESSION_ACTIVE}};
        r = watch_property(b, w);
    }
    return r;
}

char *swiftgpu_bus_session_path(SwiftGPUSystemBus *b, const char *id, uint32_t pid) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = id ? sd_bus_call_method(b->bus, LOGIND, LOGIND_PATH, LOGIND_MANAGER, "GetSession", &error, &reply, "s", id)
               : sd_bus_call_method(b->bus, LOGIND, LOGIND_PATH, LOGIND_MANAGER, "GetSessionByPID", &error, &reply,
                                    "u", pid);
    sd_bus_error_free(&error);
    if (r < 0) return NULL;
    const char *path = NULL;
    char *copy = sd_bus_message_read(reply, "o", &path) < 0 ? NULL : strdup(path);
    sd_bus_message_unref(reply);
    return copy;
}

int swiftgpu_bus_inhibit(SwiftGPUSystemBus *b, const char *what, const char *who, const char *why, const char *mode) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(b->bus, LOGIND, LOGIND_PATH, LOGIND_MANAGER, "Inhibit", &error, &reply, "ssss", what,
                               who, why, mode);
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
    int r = sd_bus_get_property_trivial(b->bus, LOGIND, LOGIND_PATH, LOGIND_MANAGER, "InhibitDelayMaxUSec", &error,
                                        't', &value);
    sd_bus_error_free(&error);
    return r < 0 ? 0 : value;
}

int swiftgpu_bus_service_present(SwiftGPUSystemBus *b, int service) {
    if (service < 0 || service >= SWIFTGPU_SERVICE_COUNT) return -EINVAL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(b->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "NameHasOwner", &error, &reply, "s", service_names[service]);
    sd_bus_error_free(&error);
    if (r < 0) return r;
    int present = 0;
    r = sd_bus_message_read(reply, "b", &present);
    sd_bus_message_unref(reply);
    return r < 0 ? r : present != 0;
}

int swiftgpu_bus_read_flag(SwiftGPUSystemBus *b, int kind) {
    const struct property *p = NULL;
    for (size_t i = 0; i < FIXED_PROPERTIES + 1; i++) {
        if (b->watches[i].bus && b->watches[i].property.kind == kind) p = &b->watches[i].property;
    }
    if (!p) return -EINVAL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_get_property(b->bus, service_names[p->service], p->path, p->interface, p->name, &error, &reply,
                                p->equals ? "s" : "b");
    sd_bus_error_free(&error);
    if (r < 0) return r;
    // sd_bus_get_property leaves the reply inside its variant.
    r = read_flag(reply, p);
    sd_bus_message_unref(reply);
    return r;
}

int swiftgpu_bus_process(SwiftGPUSystemBus *b, int wake_fd) {
    // What the connection already holds or can read without waiting goes first: messages
    // that came while the caller acted on the last signals, and those a method call read
    // ahead of its reply. Their signals go to the caller before any wait, since nothing
    // more may come to end it.
    int r;
    while ((r = sd_bus_process(b->bus, NULL)) > 0) {}
    if (r < 0) return r;
    if (b->count > 0) return 1;
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
    for (int i = 0; i < b->slot_count; i++) sd_bus_slot_unref(b->slots[i]);
    if (b->bus) sd_bus_flush_close_unref(b->bus);
    free(b->session_path);
    free(b);
}
