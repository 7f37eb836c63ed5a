#include "CXCBInput.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>
#include <xcb/xinput.h>
#include <xcb/xtest.h>

static double fp1616(xcb_input_fp1616_t value) { return value / 65536.0; }
static double fp3232(xcb_input_fp3232_t value) { return value.integral + value.frac / 4294967296.0; }

uint8_t swiftgpu_xinput_opcode(void *connection) {
    xcb_connection_t *c = connection;
    const xcb_query_extension_reply_t *extension = xcb_get_extension_data(c, &xcb_input_id);
    if (!extension || !extension->present) return 0;
    xcb_input_xi_query_version_reply_t *reply =
        xcb_input_xi_query_version_reply(c, xcb_input_xi_query_version(c, 2, 2), NULL);
    int ok = reply && (reply->major_version > 2 || (reply->major_version == 2 && reply->minor_version >= 2));
    free(reply);
    return ok ? extension->major_opcode : 0;
}

/// Selects the XI events in `events` of every master device on `window`: 1, or 0 when refused.
static int select_events(xcb_connection_t *c, xcb_window_t window, uint32_t events) {
    struct {
        xcb_input_event_mask_t head;
        uint32_t mask;
    } mask;
    mask.head.deviceid = XCB_INPUT_DEVICE_ALL_MASTER;
    mask.head.mask_len = 1;
    mask.mask = events;
    xcb_generic_error_t *error = xcb_request_check(c, xcb_input_xi_select_events_checked(c, window, 1, &mask.head));
    free(error);
    return error == NULL;
}

int swiftgpu_xinput_select(void *connection, uint32_t window) {
    return select_events(connection, window,
                         XCB_INPUT_XI_EVENT_MASK_BUTTON_PRESS | XCB_INPUT_XI_EVENT_MASK_BUTTON_RELEASE |
                             XCB_INPUT_XI_EVENT_MASK_MOTION | XCB_INPUT_XI_EVENT_MASK_TOUCH_BEGIN |
                             XCB_INPUT_XI_EVENT_MASK_TOUCH_UPDATE | XCB_INPUT_XI_EVENT_MASK_TOUCH_END);
}

int swiftgpu_xinput_select_raw(void *connection, uint32_t window) {
    xcb_connection_t *c = connection;
    xcb_get_geometry_reply_t *geometry = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), NULL);
    if (!geometry) return 0;
    xcb_window_t root = geometry->root;
    free(geometry);
    return select_events(c, root, XCB_INPUT_XI_EVENT_MASK_RAW_MOTION);
}

/// Copies the valuators named by `mask` (`words` 32-bit words) from `values`, one per bit
/// set in bit order, into `out`.
static void unpack_valuators(const uint32_t *mask, int words, const xcb_input_fp3232_t *values,
                             SwiftGPUXIEvent *out) {
    int count = 0, taken = 0;
    for (int word = 0; word < words; word++) {
        for (int bit = 0; bit < 32; bit++) {
            if (!(mask[word] & (1u << bit))) continue;
            if (count < SWIFTGPU_XI_VALUATORS) {
                out->valuator_numbers[count] = (uint16_t)(word * 32 + bit);
                out->valuator_values[count] = fp3232(values[taken]);
                count++;
            }
            taken++;
        }
    }
    out->valuator_count = count;
}

/// Unpacks a raw motion event: no window or position, the unaccelerated valuators.
static int unpack_raw(const xcb_input_raw_motion_event_t *e, SwiftGPUXIEvent *out) {
    memset(out, 0, sizeof *out);
    out->kind = SWIFTGPU_XI_RAW_MOTION;
    out->deviceid = e->deviceid;
    out->sourceid = e->sourceid;
    out->time = e->time;
    unpack_valuators(xcb_input_raw_button_press_valuator_mask(e), e->valuators_len,
                     xcb_input_raw_button_press_axisvalues_raw(e), out);
    return 1;
}

int swiftgpu_xinput_unpack(const void *event, uint8_t opcode, SwiftGPUXIEvent *out) {
    const xcb_ge_generic_event_t *generic = event;
    if ((generic->response_type & 0x7f) != XCB_GE_GENERIC || generic->extension != opcode) return 0;
    if (generic->event_type == XCB_INPUT_RAW_MOTION) return unpack_raw(event, out);
    const xcb_input_button_press_event_t *e = event;
    switch (generic->event_type) {
    case XCB_INPUT_BUTTON_PRESS: out->kind = SWIFTGPU_XI_BUTTON_PRESS; break;
    case XCB_INPUT_BUTTON_RELEASE: out->kind = SWIFTGPU_XI_BUTTON_RELEASE; break;
    case XCB_INPUT_MOTION: out->kind = SWIFTGPU_XI_MOTION; break;
    case XCB_INPUT_TOUCH_BEGIN: out->kind = SWIFTGPU_XI_TOUCH_BEGIN; break;
    case XCB_INPUT_TOUCH_UPDATE: out->kind = SWIFTGPU_XI_TOUCH_UPDATE; break;
    case XCB_INPUT_TOUCH_END: out->kind = SWIFTGPU_XI_TOUCH_END; break;
    default: return 0;
    }
    out->deviceid = e->deviceid;
    out->sourceid = e->sourceid;
    out->detail = e->detail;
    out->time = e->time;
    out->window = e->event;
    out->x = fp1616(e->event_x);
    out->y = fp1616(e->event_y);
    // The button mask: bits 1–3 are buttons 1–3.
    const uint32_t *buttons = xcb_input_button_press_button_mask(e);
    out->buttons_down = e->buttons_len > 0 && (buttons[0] & 0xE) != 0;
    // The valuator mask, then one FP3232 value per bit set, in bit order.
    unpack_valuators(xcb_input_button_press_valuator_mask(e), e->valuators_len,
                     xcb_input_button_press_axisvalues(e), out);
    return 1;
}

/// The device's info from XIQueryDevice (free with free()), or NULL.
static xcb_input_xi_query_device_reply_t *query(xcb_connection_t *c, uint16_t deviceid) {
    return xcb_input_xi_query_device_reply(c, xcb_input_xi_query_device(c, deviceid), NULL);
}

int swiftgpu_xinput_axis(void *connection, uint16_t deviceid, const char *label, uint16_t *number, double *min,
                         double *max) {
    xcb_connection_t *c = connection;
    xcb_intern_atom_reply_t *atom = xcb_intern_atom_reply(c, xcb_intern_atom(c, 1, strlen(label), label), NULL);
    if (!atom || atom->atom == XCB_ATOM_NONE) {
        free(atom);
        return 0;
    }
    xcb_atom_t wanted = atom->atom;
    free(atom);
    xcb_input_xi_query_device_reply_t *reply = query(c, deviceid);
    if (!reply) return 0;
    int found = 0;
    for (xcb_input_xi_device_info_iterator_t info = xcb_input_xi_query_device_infos_iterator(reply);
         info.rem && !found; xcb_input_xi_device_info_next(&info)) {
        for (xcb_input_device_class_iterator_t class = xcb_input_xi_device_info_classes_iterator(info.data);
             class.rem; xcb_input_device_class_next(&class)) {
            if (class.data->type != XCB_INPUT_DEVICE_CLASS_TYPE_VALUATOR) continue;
            const xcb_input_valuator_class_t *valuator = (const xcb_input_valuator_class_t *)class.data;
            if (valuator->label != wanted) continue;
            *number = valuator->number;
            *min = fp3232(valuator->min);
            *max = fp3232(valuator->max);
            found = 1;
            break;
        }
    }
    free(reply);
    return found;
}

int swiftgpu_xinput_axis_relative(void *connection, uint16_t deviceid, uint16_t number) {
    xcb_input_xi_query_device_reply_t *reply = query(connection, deviceid);
    if (!reply) return -1;
    int relative = -1;
    xcb_input_xi_device_info_iterator_t info = xcb_input_xi_query_device_infos_iterator(reply);
    if (info.rem) {
        for (xcb_input_device_class_iterator_t class = xcb_input_xi_device_info_classes_iterator(info.data);
             class.rem; xcb_input_device_class_next(&class)) {
            if (class.data->type != XCB_INPUT_DEVICE_CLASS_TYPE_VALUATOR) continue;
            const xcb_input_valuator_class_t *valuator = (const xcb_input_valuator_class_t *)class.data;
            if (valuator->number != number) continue;
            relative = valuator->mode == XCB_INPUT_VALUATOR_MODE_RELATIVE;
            break;
        }
    }
    free(reply);
    return relative;
}

int swiftgpu_xinput_is_pen(void *connection, uint16_t deviceid) {
    xcb_input_xi_query_device_reply_t *reply = query(connection, deviceid);
    if (!reply) return 0;
    int pen = 0;
    xcb_input_xi_device_info_iterator_t info = xcb_input_xi_query_device_infos_iterator(reply);
    if (info.rem) {
        int length = xcb_input_xi_device_info_name_length(info.data);
        char name[256] = {0};
        memcpy(name, xcb_input_xi_device_info_name(info.data), length < 255 ? length : 255);
        for (char *p = name; *p; p++) *p = (*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p;
        pen = strstr(name, "stylus") || strstr(name, "pen") || strstr(name, "eraser");
    }
    free(reply);
    return pen;
}

void swiftgpu_xtest_motion(void *connection, uint32_t root, int16_t x, int16_t y) {
    xcb_test_fake_input(connection, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, root, x, y, 0);
    xcb_flush(connection);
}

void swiftgpu_xtest_relative_motion(void *connection, int16_t dx, int16_t dy) {
    // A motion's detail 1 is relative.
    xcb_test_fake_input(connection, XCB_MOTION_NOTIFY, 1, XCB_CURRENT_TIME, XCB_NONE, dx, dy, 0);
    xcb_flush(connection);
}

void swiftgpu_xtest_button(void *connection, uint8_t button, int press) {
    xcb_test_fake_input(connection, press ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, button, XCB_CURRENT_TIME,
                        XCB_NONE, 0, 0, 0);
    xcb_flush(connection);
}
