#include "CWaylandPresentation.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "CWaylandQueue.h"

#include "presentation-time-client-protocol.h"

/// One outstanding wp_presentation_feedback.
struct Request {
    struct wp_presentation_feedback *feedback;
    uint64_t frame;
    SwiftGPUPresentation *owner;
    struct Request *next;
};

/// A finished request's result, queued for the caller.
struct Result {
    SwiftGPUPresentationResult value;
    struct Result *next;
};

struct SwiftGPUPresentation {
    struct wl_display *display;
    struct wl_surface *surface;
    struct wl_event_queue *queue;
    struct wp_presentation *presentation;
    uint32_t clock_id;
    /// Guards `requests`, `head` and `tail`: requests are made on the presenting thread and
    /// finished on the dispatching one.
    pthread_mutex_t lock;
    struct Request *requests;
    struct Result *head, *tail;
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
    SwiftGPUPresentation *p = data;
    if (strcmp(interface, wp_presentation_interface.name) == 0 && !p->presentation) {
        p->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void clock_id(void *data, struct wp_presentation *presentation, uint32_t clk_id) {
    ((SwiftGPUPresentation *)data)->clock_id = clk_id;
}

static const struct wp_presentation_listener presentation_listener = {clock_id};

/// Queues a result for `request` and frees it.
static void finish(struct Request *request, const SwiftGPUPresentationResult *value) {
    SwiftGPUPresentation *p = request->owner;
    struct Result *result = calloc(1, sizeof *result);
    pthread_mutex_lock(&p->lock);
    if (result) {
        result->value = *value;
        result->value.frame = request->frame;
        if (p->tail) p->tail->next = result; else p->head = result;
        p->tail = result;
    }
    struct Request **link = &p->requests;
    while (*link && *link != request) link = &(*link)->next;
    if (*link) *link = request->next;
    pthread_mutex_unlock(&p->lock);
    wp_presentation_feedback_destroy(request->feedback);
    free(request);
}

static void sync_output(void *data, struct wp_presentation_feedback *feedback, struct wl_output *output) {}

static void presented(void *data, struct wp_presentation_feedback *feedback, uint32_t tv_sec_hi, uint32_t tv_sec_lo,
                      uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo, uint32_t flags) {
    SwiftGPUPresentationResult value = {0};
    value.presented = 1;
    value.seconds = ((uint64_t)tv_sec_hi << 32) | tv_sec_lo;
    value.nanoseconds = tv_nsec;
    value.refresh = refresh;
    value.sequence = ((uint64_t)seq_hi << 32) | seq_lo;
    value.flags = flags;
    finish(data, &value);
}

static void discarded(void *data, struct wp_presentation_feedback *feedback) {
    SwiftGPUPresentationResult value = {0};
    finish(data, &value);
}

static const struct wp_presentation_feedback_listener feedback_listener = {sync_output, presented, discarded};

SwiftGPUPresentation *swiftgpu_presentation_create(struct wl_display *display, struct wl_surface *surface,
                                                   uint32_t *clock) {
    SwiftGPUPresentation *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    p->display = display;
    p->surface = surface;
    p->clock_id = 1;
    p->queue = wl_display_create_queue(display);
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    if (!p->queue || !wrapper) goto failed;
    wl_proxy_set_queue((struct wl_proxy *)wrapper, p->queue);
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    wl_proxy_wrapper_destroy(wrapper);
    if (!registry) goto failed;
    wl_registry_add_listener(registry, &registry_listener, p);
    int ok = wl_display_roundtrip_queue(display, p->queue) >= 0;
    wl_registry_destroy(registry);
    if (!ok || !p->presentation) goto failed;
    wp_presentation_add_listener(p->presentation, &presentation_listener, p);
    if (wl_display_roundtrip_queue(display, p->queue) < 0) goto failed;
    *clock = p->clock_id;
    return p;
failed:
    if (p->presentation) wp_presentation_destroy(p->presentation);
    if (p->queue) wl_event_queue_destroy(p->queue);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return NULL;
}

int swiftgpu_presentation_request(SwiftGPUPresentation *p, uint64_t frame) {
    struct Request *request = calloc(1, sizeof *request);
    if (!request) return -1;
    request->frame = frame;
    request->owner = p;
    // The feedback proxy inherits the presentation's queue, so its events are dispatched
    // only by swiftgpu_presentation_dispatch.
    request->feedback = wp_presentation_feedback(p->presentation, p->surface);
    if (!request->feedback) {
        free(request);
        return -1;
    }
    wp_presentation_feedback_add_listener(request->feedback, &feedback_listener, request);
    pthread_mutex_lock(&p->lock);
    request->next = p->requests;
    p->requests = request;
    pthread_mutex_unlock(&p->lock);
    return 0;
}

int swiftgpu_presentation_dispatch(SwiftGPUPresentation *p, int wake_fd) {
    return swiftgpu_wayland_dispatch_queue(p->display, p->queue, wake_fd);
}

int swiftgpu_presentation_next(SwiftGPUPresentation *p, SwiftGPUPresentationResult *result) {
    pthread_mutex_lock(&p->lock);
    struct Result *head = p->head;
    if (head) {
        p->head = head->next;
        if (!p->head) p->tail = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    if (!head) return 0;
    *result = head->value;
    free(head);
    return 1;
}

void swiftgpu_presentation_destroy(SwiftGPUPresentation *p) {
    while (p->requests) {
        struct Request *request = p->requests;
        p->requests = request->next;
        wp_presentation_feedback_destroy(request->feedback);
        free(request);
    }
    SwiftGPUPresentationResult ignored;
    while (swiftgpu_presentation_next(p, &ignored)) {}
    wp_presentation_destroy(p->presentation);
    wl_display_flush(p->display);
    wl_event_queue_destroy(p->queue);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
