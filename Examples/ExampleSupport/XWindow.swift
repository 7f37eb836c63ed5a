import CVulkan.XCB
import Foundation
import Glibc
import SwiftGPUSupport

/// An example's own X11 window: an xcb connection, a window with a title that closes on
/// the window manager's close button, and key presses translated to characters.
///
/// Events are read by a thread of the window's that blocks in `xcb_wait_for_event`, and
/// queued for `pollEvent()` / `waitEvent(timeout:)`; `eventDescriptor` becomes readable when
/// one is queued. Waiting on the connection's own descriptor would miss events: other
/// threads read the connection too (the Vulkan driver's present path, an `XPresentClock`),
/// and an event one of them reads is queued inside xcb with nothing left to read on the
/// descriptor.
///
/// `@unchecked Sendable`: the queue is guarded by its lock; the rest is immutable or used
/// from the example's thread.
public final class XWindow: @unchecked Sendable {
    /// The connection (`xcb_connection_t *`).
    public let connection: OpaquePointer
    /// The window (`xcb_window_t`).
    public let window: UInt32
    private let screen: xcb_screen_t
    private let deleteWindow: xcb_atom_t
    private var keysyms: [UInt32] = []
    /// Events read and not yet taken.
    private let queue = EventQueue()
    /// Written once per queued event: `eventDescriptor` is its read end.
    private let wake: (read: Int32, write: Int32)

    /// What the reader thread shares with the window.
    ///
    /// `@unchecked Sendable`: every property is guarded by `lock`.
    private final class EventQueue: @unchecked Sendable {
        let lock = ConditionLock(rank: .leaf("XWindow.lock"))
        var events: [UnsafeMutablePointer<xcb_generic_event_t>] = []
        /// The connection failed (or was shut down).
        var broken = false
        /// The reader thread has returned.
        var finished = false
    }
    private var minimumKeycode = 0
    private var keysymsPerKeycode = 1

    /// What an event meant to the example (the lifecycle adapter sees every event too).
    public enum Input {
        /// A key with this character was pressed.
        case key(Character)
        /// The window manager's close button.
        case close
        /// Anything else.
        case other
    }

    /// Why the window could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Connects to `$DISPLAY` and makes (unmapped) a `width`×`height` window at the root's
    /// top-left corner titled `title`.
    public init(width: Int, height: Int, title: String) throws {
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
        guard let wake = closeOnExecPipe() else { throw Failure(description: "no pipe for the event thread") }
        self.wake = wake
        loadKeyboardMapping()
        // The thread holds the queue, not the window, so the window can go while it waits.
        nonisolated(unsafe) let shared = connection
        let (queue, signal) = (queue, wake.write)
        let reader = Thread { Self.readEvents(shared, into: queue, signal: signal) }
        reader.name = "XWindow.events"
        reader.start()
    }

    deinit {
        xcb_destroy_window(connection, window)
        xcb_flush(connection)
        // Ends the reader's wait (the connection reports an error), then frees the rest.
        shutdown(xcb_get_file_descriptor(connection), Int32(SHUT_RDWR))
        queue.lock.withLock { queue.lock.wait { queue.finished } }
        for event in queue.lock.withLock({ queue.events }) { free(event) }
        xcb_disconnect(connection)
        close(wake.read)
        close(wake.write)
    }

    /// The reader thread: queues every event until the connection fails or closes.
    private static func readEvents(_ connection: OpaquePointer, into queue: EventQueue, signal: Int32) {
        var byte: UInt8 = 1
        while let event = xcb_wait_for_event(connection) {
            queue.lock.withLock { queue.events.append(event) }
            _ = write(signal, &byte, 1)
        }
        queue.lock.withLock { queue.broken = true }
        _ = write(signal, &byte, 1)
        queue.lock.withLock {
            queue.finished = true
            queue.lock.broadcast()
        }
    }

    /// Readable while an event is queued (or the connection broke): for a loop that also
    /// waits on other descriptors. Take the events with `pollEvent()`.
    public var eventDescriptor: Int32 { wake.read }

    /// Maps the window and waits until the server has (its MapNotify), passing every event
    /// read meanwhile to `handle`.
    public func map(handle: (UnsafeMutablePointer<xcb_generic_event_t>) -> Void) {
        xcb_map_window(connection, window)
        xcb_flush(connection)
        while let event = waitEvent(timeout: nil) {
            let isMap = Int32(event.pointee.response_type & 0x7f) == XCB_MAP_NOTIFY
            handle(event)
            free(event)
            if isMap { return }
        }
    }

    /// Gives the window the keyboard focus (a window manager's job; for bare X servers).
    public func takeFocus() {
        xcb_set_input_focus(connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window, UInt32(XCB_CURRENT_TIME))
        xcb_flush(connection)
    }

    /// The next event already received, or nil. The caller frees it.
    public func pollEvent() -> UnsafeMutablePointer<xcb_generic_event_t>? {
        let event = queue.lock.withLock { queue.events.isEmpty ? nil : queue.events.removeFirst() }
        if event != nil {
            var byte: UInt8 = 0
            _ = read(wake.read, &byte, 1)
        }
        return event
    }

    /// Blocks until an event comes or `timeout` (seconds; nil: none) passes; nil then, or
    /// when the connection broke.
    public func waitEvent(timeout: Double?) -> UnsafeMutablePointer<xcb_generic_event_t>? {
        if let event = pollEvent() { return event }
        guard !isBroken else { return nil }
        var ready = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, timeout.map { Int32(max($0, 0) * 1000) } ?? -1)
        return pollEvent()
    }

    /// Whether the connection to the X server broke.
    public var isBroken: Bool { queue.lock.withLock { queue.broken } || xcb_connection_has_error(connection) != 0 }

    /// What `event` means to the example.
    public func input(_ event: UnsafeMutablePointer<xcb_generic_event_t>) -> Input {
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
