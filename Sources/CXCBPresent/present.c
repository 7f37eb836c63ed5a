#include "CXCBPresent.h"

#include <stdlib.h>
#include <xcb/present.h>
#include <xcb/xcb.h>

struct SwiftGPUPresentEvents {
    xcb_special_event_t *special;
    uint32_t eid;
    uint32_t window;
};

int swiftgpu_present_supported(void *connection) {
    xcb_connection_t *c = connection;
    const xcb_query_extension_reply_t *extension = xcb_get_extension_data(c, &xcb_present_id);
    if (!extension || !extension->present) return 0;
    xcb_present_query_version_reply_t *reply =
        xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 0), NULL);
    int ok = reply && reply->major_version >= 1;
    free(reply);
    return ok;
}

SwiftGPUPresentEvents *swiftgpu_present_register(void *connection, uint32_t window) {
    xcb_connection_t *c = connection;
    SwiftGPUPresentEvents *events = calloc(1, sizeof *events);
    if (!events) return NULL;
    events->eid = xcb_generate_id(c);
    events->window = window;
    xcb_void_cookie_t cookie =
        xcb_present_select_input_checked(c, events->eid, window, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    events->special = xcb_register_for_special_xge(c, &xcb_present_id, events->eid, NULL);
    xcb_generic_error_t *error = xcb_request_check(c, cookie);
    if (error || !events->special) {
        free(error);
        if (events->special) xcb_unregister_for_special_event(c, events->special);
        free(events);
        return NULL;
    }
    return events;
}

void swiftgpu_present_notify_msc(void *connection, uint32_t window, uint32_t serial, uint64_t target_msc) {
    xcb_connection_t *c = connection;
    xcb_present_notify_msc(c, window, serial, target_msc, 0, 0);
    xcb_flush(c);
}

void swiftgpu_present_notify_next_msc(void *connection, uint32_t window, uint32_t serial) {
    xcb_connection_t *c = connection;
    xcb_present_notify_msc(c, window, serial, 0, 1, 0);
    xcb_flush(c);
}

int swiftgpu_present_next(void *connection, SwiftGPUPresentEvents *events, int block,
                          SwiftGPUPresentCompletion *completion) {
    xcb_generic_event_t *event = block ? xcb_wait_for_special_event(connection, events->special)
                                       : xcb_poll_for_special_event(connection, events->special);
    if (!event) return block || xcb_connection_has_error(connection) ? -1 : 0;
    completion->kind = 0;
    xcb_present_generic_event_t *generic = (xcb_present_generic_event_t *)event;
    if (generic->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
        xcb_present_complete_notify_event_t *complete = (xcb_present_complete_notify_event_t *)event;
        completion->kind = complete->kind == XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC ? 1 : 2;
        completion->mode = complete->mode;
        completion->serial = complete->serial;
        completion->ust = complete->ust;
        completion->msc = complete->msc;
    }
    free(event);
    return 1;
}

void swiftgpu_present_unregister(void *connection, SwiftGPUPresentEvents *events) {
    xcb_connection_t *c = connection;
    xcb_present_select_input(c, events->eid, events->window, 0);
    xcb_unregister_for_special_event(c, events->special);
    xcb_flush(c);
    free(events);
}
