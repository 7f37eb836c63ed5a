#ifndef SWIFTGPU_CXCBINPUT_H
#define SWIFTGPU_CXCBINPUT_H
// XInput 2 device events on an app's own xcb connection, unpacked for Swift (their
// valuators follow the event in variable-length lists), and XTest's fake input for tests.
// The connection is passed as void * (an xcb_connection_t *), as in CXCBPresent.
#include <stdint.h>

/// What a device event is.
typedef enum SwiftGPUXIKind {
    SWIFTGPU_XI_OTHER = 0,
    SWIFTGPU_XI_BUTTON_PRESS = 1,
    SWIFTGPU_XI_BUTTON_RELEASE = 2,
    SWIFTGPU_XI_MOTION = 3,
    SWIFTGPU_XI_TOUCH_BEGIN = 4,
    SWIFTGPU_XI_TOUCH_UPDATE = 5,
    SWIFTGPU_XI_TOUCH_END = 6,
    /// Raw motion (XI 2.1): the device's own valuators before acceleration, of no window.
    SWIFTGPU_XI_RAW_MOTION = 7,
} SwiftGPUXIKind;

/// The most valuators an unpacked event carries.
#define SWIFTGPU_XI_VALUATORS 16

/// An XInput 2 device event, unpacked.
typedef struct SwiftGPUXIEvent {
    SwiftGPUXIKind kind;
    /// The master device, and the physical (slave) device that produced it.
    uint16_t deviceid;
    uint16_t sourceid;
    /// The button, or the touch's identifier.
    uint32_t detail;
    /// The server's time, in milliseconds.
    uint32_t time;
    /// The event window; 0 for raw motion.
    uint32_t window;
    /// Position in the event window, in pixels (fractional where the device is finer).
    double x;
    double y;
    /// Whether a button (1–3) is held during the event.
    int buttons_down;
    /// Valuators present in the event: their numbers and values (raw motion: the unaccelerated
    /// values).
    int valuator_count;
    uint16_t valuator_numbers[SWIFTGPU_XI_VALUATORS];
    double valuator_values[SWIFTGPU_XI_VALUATORS];
} SwiftGPUXIEvent;

/// The XInput extension's major opcode when the server offers XInput 2.2 (touch events),
/// else 0.
uint8_t swiftgpu_xinput_opcode(void *connection);

/// Selects button, motion and touch events of every master device on `window`. 1 on
/// success, 0 when the server refused.
int swiftgpu_xinput_select(void *connection, uint32_t window);

/// Selects raw motion of every master device on the root window of `window`'s screen, where
/// XInput 2.1 delivers it whatever window the pointer is over. 1 on success, else 0.
int swiftgpu_xinput_select_raw(void *connection, uint32_t window);

/// Unpacks `event` (an xcb_generic_event_t *) when it is an XInput 2 device event of the
/// extension with `opcode`: 1 with `out` filled, else 0.
int swiftgpu_xinput_unpack(const void *event, uint8_t opcode, SwiftGPUXIEvent *out);

/// The valuator of device `deviceid` labelled `label` ("Abs Pressure", "Abs Tilt X", ...):
/// 1 with its number and range, else 0.
int swiftgpu_xinput_axis(void *connection, uint16_t deviceid, const char *label, uint16_t *number, double *min,
                         double *max);

/// Whether valuator `number` of device `deviceid` reports relative motion: 1 relative,
/// 0 absolute, -1 when the device has no such valuator.
int swiftgpu_xinput_axis_relative(void *connection, uint16_t deviceid, uint16_t number);

/// Whether device `deviceid`'s name says it is a pen (stylus, pen, eraser): 1 or 0.
int swiftgpu_xinput_is_pen(void *connection, uint16_t deviceid);

/// XTest: moves the pointer to (`x`, `y`) of the root window, and flushes.
void swiftgpu_xtest_motion(void *connection, uint32_t root, int16_t x, int16_t y);

/// XTest: moves the pointer by (`dx`, `dy`), as a relative device does, and flushes.
void swiftgpu_xtest_relative_motion(void *connection, int16_t dx, int16_t dy);

/// XTest: presses (`press` 1) or releases button `button`, and flushes.
void swiftgpu_xtest_button(void *connection, uint8_t button, int press);

#endif
