#ifndef SWIFTGPU_CGTK_DECLARATIONS_H
#define SWIFTGPU_CGTK_DECLARATIONS_H
// The GTK 4, GDK and GLib functions SwiftGPU's GTK view and its example call, declared
// with opaque types. GTK's own headers need pkg-config's flags, which SwiftPM refuses
// (-pthread, -msse): these declarations follow GTK 4.8's API (libgtk-4-dev on Debian 12)
// and link against libgtk-4 itself.
#include <stddef.h>
#include <stdint.h>

typedef struct _GtkWidget GtkWidget;
typedef struct _GdkFrameClock GdkFrameClock;
typedef struct _GdkGLContext GdkGLContext;
typedef struct _GdkTexture GdkTexture;
typedef struct _GdkSurface GdkSurface;
typedef struct _GBytes GBytes;
typedef struct _GError {
    uint32_t domain;
    int code;
    char *message;
} GError;
typedef int gboolean;
typedef void (*GCallback)(void);
typedef void (*GDestroyNotify)(void *data);
typedef gboolean (*GtkTickCallback)(GtkWidget *widget, GdkFrameClock *clock, void *data);

// GLib and GObject.
unsigned long g_signal_connect_data(void *instance, const char *signal, GCallback handler, void *data,
                                    void *destroy_data, int flags);
unsigned int g_signal_handlers_disconnect_matched(void *instance, int mask, unsigned int signal_id, uint32_t detail,
                                                 void *closure, void *func, void *data);
void g_object_unref(void *object);
void *g_object_ref(void *object);
GBytes *g_bytes_new(const void *data, size_t size);
void g_bytes_unref(GBytes *bytes);
gboolean g_main_context_iteration(void *context, gboolean may_block);

// GTK.
void gtk_init(void);
GtkWidget *gtk_window_new(void);
void gtk_window_set_title(GtkWidget *window, const char *title);
void gtk_window_set_default_size(GtkWidget *window, int width, int height);
void gtk_window_set_child(GtkWidget *window, GtkWidget *child);
void gtk_window_present(GtkWidget *window);
void gtk_window_destroy(GtkWidget *window);
gboolean gtk_window_is_active(GtkWidget *window);
GtkWidget *gtk_box_new(int orientation, int spacing);
void gtk_box_append(GtkWidget *box, GtkWidget *child);
void gtk_box_remove(GtkWidget *box, GtkWidget *child);
GtkWidget *gtk_button_new_with_label(const char *label);
GtkWidget *gtk_check_button_new_with_label(const char *label);
gboolean gtk_check_button_get_active(GtkWidget *button);
void gtk_check_button_set_active(GtkWidget *button, gboolean active);
GtkWidget *gtk_label_new(const char *text);
void gtk_label_set_text(GtkWidget *label, const char *text);
GtkWidget *gtk_gl_area_new(void);
void gtk_gl_area_make_current(GtkWidget *area);
GError *gtk_gl_area_get_error(GtkWidget *area);
void gtk_gl_area_queue_render(GtkWidget *area);
void gtk_gl_area_set_auto_render(GtkWidget *area, gboolean auto_render);
GtkWidget *gtk_picture_new(void);
void gtk_picture_set_paintable(GtkWidget *picture, void *paintable);
void gtk_picture_set_can_shrink(GtkWidget *picture, gboolean can_shrink);
GdkTexture *gdk_memory_texture_new(int width, int height, int format, GBytes *bytes, size_t stride);
unsigned int gtk_widget_add_tick_callback(GtkWidget *widget, GtkTickCallback callback, void *data, GDestroyNotify notify);
void gtk_widget_remove_tick_callback(GtkWidget *widget, unsigned int id);
int64_t gdk_frame_clock_get_frame_time(GdkFrameClock *clock);
GdkFrameClock *gtk_widget_get_frame_clock(GtkWidget *widget);
int gtk_widget_get_width(GtkWidget *widget);
int gtk_widget_get_height(GtkWidget *widget);
int gtk_widget_get_scale_factor(GtkWidget *widget);
gboolean gtk_widget_get_mapped(GtkWidget *widget);
void gtk_widget_set_visible(GtkWidget *widget, gboolean visible);
void gtk_widget_set_size_request(GtkWidget *widget, int width, int height);
void gtk_widget_set_hexpand(GtkWidget *widget, gboolean expand);
void gtk_widget_set_vexpand(GtkWidget *widget, gboolean expand);
GtkWidget *gtk_widget_get_root(GtkWidget *widget);
gboolean gtk_widget_translate_coordinates(GtkWidget *source, GtkWidget *destination, double x, double y, double *out_x,
                                          double *out_y);
GdkSurface *gtk_native_get_surface(GtkWidget *native);
void gtk_native_get_surface_transform(GtkWidget *native, double *x, double *y);
unsigned long gdk_x11_surface_get_xid(GdkSurface *surface);

/// GSignalMatchType's G_SIGNAL_MATCH_DATA.
enum { SWIFTGPU_G_SIGNAL_MATCH_DATA = 16 };
/// GtkOrientation's values.
enum { SWIFTGPU_GTK_HORIZONTAL = 0, SWIFTGPU_GTK_VERTICAL = 1 };
/// GdkMemoryFormat's R8G8B8A8 (straight alpha).
enum { SWIFTGPU_GDK_MEMORY_R8G8B8A8 = 5 };
#endif
