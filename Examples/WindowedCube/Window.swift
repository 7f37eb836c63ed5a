import CVulkan.XCB
import Glibc

/// The example's own X11 window: an xcb connection, a window with a title that closes on
/// the window manager's close button, and key presses translated to characters.
final class XWindow {
    let connection: OpaquePointer
    let window: UInt32
    private let screen: xcb_screen_t
    private let deleteWindow: xcb_atom_t
    private var keysyms: [UInt32] = []
    private var minimumKeycode = 0
    private var keysymsPerKeycode = 1

    /// What an event meant to the example (the lifecycle adapter sees every event too).
    enum Input {
        case key(Character)
        case close
        case other
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(width: Int, height: Int, title: String) throws {
        guard let connection = xcb_connect(nil, nil), xcb_connection_has_error(connection) == 0 else {
            throw Failure(description: "cannot connect to the X server (is DISPLAY set?)")
        }
        self.connection = connection
        screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data.pointee
        window = xcb_generate_id(connection)
        var values: [UInt32] = [screen.black_pixel, XCB_EVENT_MASK_KEY_PRESS.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue]
        xcb_create_window(connection, UInt8(XCB_COPY_FROM_PARENT), window, screen.root, 0, 0, UInt16(width), UInt16(height),
                          0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual,
                          XCB_CW_BACK_PIXEL.rawValue | XCB_CW_EVENT_MASK.rawValue, &values)
        xcb_change_property(connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, xcb_atom_t(XCB_ATOM_WM_NAME.rawValue),
                            xcb_atom_t(XCB_ATOM_STRING.rawValue), 8, UInt32(title.utf8.count), title)
        let protocols = Self.atom(connection, "WM_PROTOCOLS")
        var delete = Self.atom(connection, "WM_DELETE_WINDOW")
        deleteWindow = delete
        xcb_change_property(connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, protocols,
                            xcb_atom_t(XCB_ATOM_ATOM.rawValue), 32, 1, &delete)
        loadKeyboardMapping()
    }

    deinit {
        xcb_destroy_window(connection, window)
        xcb_disconnect(connection)
    }

    /// Maps the window and waits until the server has (its MapNotify), passing every event
    /// read meanwhile to `handle`.
    func map(handle: (UnsafeMutablePointer<xcb_generic_event_t>) -> Void) {
        xcb_map_window(connection, window)
        xcb_flush(connection)
        while let event = xcb_wait_for_event(connection) {
            let isMap = Int32(event.pointee.response_type & 0x7f) == XCB_MAP_NOTIFY
            handle(event)
            free(event)
            if isMap { return }
        }
    }

    /// Gives the window the keyboard focus (a window manager's job; for bare X servers).
    func takeFocus() {
        xcb_set_input_focus(connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window, UInt32(XCB_CURRENT_TIME))
        xcb_flush(connection)
    }

    /// The next event already received, or nil.
    func pollEvent() -> UnsafeMutablePointer<xcb_generic_event_t>? { xcb_poll_for_event(connection) }

    /// Blocks until an event comes or `timeout` (seconds; nil: none) passes; nil then.
    func waitEvent(timeout: Double?) -> UnsafeMutablePointer<xcb_generic_event_t>? {
        if let event = xcb_poll_for_event(connection) { return event }
        var ready = pollfd(fd: xcb_get_file_descriptor(connection), events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, timeout.map { Int32(max($0, 0) * 1000) } ?? -1)
        return xcb_poll_for_event(connection)
    }

    /// Whether the connection to the X server broke.
    var isBroken: Bool { xcb_connection_has_error(connection) != 0 }

    /// What `event` means to the example.
    func input(_ event: UnsafeMutablePointer<xcb_generic_event_t>) -> Input {
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_KEY_PRESS:
            let keycode = Int(UnsafeRawPointer(event).load(as: xcb_key_press_event_t.self).detail)
            let index = (keycode - minimumKeycode) * keysymsPerKeycode
            guard keysyms.indices.contains(index), let scalar = Unicode.Scalar(keysyms[index]), scalar.isASCII else {
                return .other
            }
            return .key(Character(scalar))
        case XCB_CLIENT_MESSAGE:
            let message = UnsafeRawPointer(event).load(as: xcb_client_message_event_t.self)
            return message.data.data32.0 == deleteWindow ? .close : .other
        default:
            return .other
        }
    }

    /// Reads the server's keycode → keysym table (core protocol; Latin-1 keysyms equal
    /// their characters).
    private func loadKeyboardMapping() {
        let setup = xcb_get_setup(connection).pointee
        minimumKeycode = Int(setup.min_keycode)
        let count = UInt8(Int(setup.max_keycode) - minimumKeycode + 1)
        let cookie = xcb_get_keyboard_mapping(connection, setup.min_keycode, count)
        guard let reply = xcb_get_keyboard_mapping_reply(connection, cookie, nil) else { return }
        defer { free(reply) }
        keysymsPerKeycode = max(Int(reply.pointee.keysyms_per_keycode), 1)
        let length = Int(xcb_get_keyboard_mapping_keysyms_length(reply))
        keysyms = Array(UnsafeBufferPointer(start: xcb_get_keyboard_mapping_keysyms(reply), count: length))
    }

    private static func atom(_ connection: OpaquePointer, _ name: String) -> xcb_atom_t {
        let reply = xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name), nil)
        defer { free(reply) }
        return reply?.pointee.atom ?? 0
    }
}
