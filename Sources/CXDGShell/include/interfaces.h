#ifndef SWIFTGPU_CXDGSHELL_INTERFACES_H
#define SWIFTGPU_CXDGSHELL_INTERFACES_H
// The addresses of the protocol interface descriptions that wl_registry_bind takes. Swift
// imports the `extern const struct wl_interface` globals as values, not addresses.
#include "xdg-shell-client-protocol.h"

static inline const struct wl_interface *swiftgpu_wl_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *swiftgpu_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
#endif
