import CVulkan.XCB
import Glibc

/// A window covering the X screen, on a connection of its own that only this program's
/// main thread reads: where the recorder receives the injected motion.
final class TraceWindow {
    /// The connection (`xcb_connection_t *`).
    let connection: OpaquePointer
    /// The window (`xcb_window_t`), at the root's top-left corner: its coordinates are the root's.
    let window: UInt32
    /// The screen's size in pixels.
    let size: SIMD2<Double>

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `$DISPLAY` and maps a window the size of its first screen.
    init() throws {
        guard let connection = xcb_connect(nil, nil) else { throw Failure(description: "cannot connect to the X server (is DISPLAY set?)") }
        guard xcb_connection_has_error(connection) == 0 else {
            xcb_disconnect(connection)
            throw Failure(description: "cannot connect to the X server (is DISPLAY set?)")
        }
        self.connection = connection
        let screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data.pointee
        size = SIMD2(Double(screen.width_in_pixels), Double(screen.height_in_pixels))
        window = xcb_generate_id(connection)
        var values: [UInt32] = [screen.black_pixel, XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue]
        xcb_create_window(connection, UInt8(XCB_COPY_FROM_PARENT), window, screen.root, 0, 0, screen.width_in_pixels,
                          screen.height_in_pixels, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual,
                          XCB_CW_BACK_PIXEL.rawValue | XCB_CW_EVENT_MASK.rawValue, &values)
        xcb_map_window(connection, window)
        xcb_flush(connection)
        // Mapped once the server says so: motion before it would go to the root.
        while let event = xcb_wait_for_event(connection) {
            let isMap = Int32(event.pointee.response_type & 0x7f) == XCB_MAP_NOTIFY
            free(event)
            if isMap { return }
        }
        throw Failure(description: "the X connection failed before the window was mapped")
    }

    deinit {
        xcb_destroy_window(connection, window)
        xcb_disconnect(connection)
    }

    /// Waits up to `timeout` milliseconds for the connection to be readable, then passes
    /// every event read or queued to `handle` (and frees it).
    func pump(timeout: Int32, _ handle: (UnsafeRawPointer) -> Void) {
        var wait = pollfd(fd: xcb_get_file_descriptor(connection), events: Int16(POLLIN), revents: 0)
        _ = poll(&wait, 1, timeout)
        // xcb_poll_for_event returns queued events first (a reply waited for inside
        // `handle` can queue some), then reads the socket.
        while let event = xcb_poll_for_event(connection) {
            handle(UnsafeRawPointer(event))
            free(event)
        }
    }
}
