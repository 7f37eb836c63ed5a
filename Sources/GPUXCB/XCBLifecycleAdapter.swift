import AppLifecycle
import CVulkan.XCB
import Glibc
import SwiftGPUSupport

/// Drives an `AppLifecycle` from an X11 window's visibility and focus, for a host that owns
/// the window and its xcb connection and feeds the adapter the events it reads:
///
/// | X11 | lifecycle |
/// |---|---|
/// | UnmapNotify, `_NET_WM_STATE` gaining `_NET_WM_STATE_HIDDEN`, or VisibilityNotify fully obscured | `didEnterBackground` (drained) |
/// | MapNotify, `_NET_WM_STATE` losing `_NET_WM_STATE_HIDDEN`, or VisibilityNotify (partly) unobscured | `willEnterForeground`, `didBecomeActive` |
/// | FocusOut, FocusIn | the lifecycle's `observeWindowFocus` observers; under `WindowFocusPolicy.pauseOnFocusLoss` also `willResignActive` and `didBecomeActive` (a shown window then waits for the focus) |
///
/// The lifecycle orders the calls as iOS does (see `AppLifecycle.hostWindowDidChange`).
/// Focus changes caused by keyboard grabs (mode Grab/Ungrab), pointer-root focus
/// (detail Pointer) and focus moving into a child window (detail Inferior) are not focus
/// changes of the window and are ignored.
///
/// `init` adds FocusChange, StructureNotify, PropertyChange and VisibilityChange to the
/// window's event mask (keeping what the host selected) and applies the window's current
/// state at once: one that is not mapped puts the app in the background. (Under a
/// compositing window manager the server reports every window unobscured: there, covering
/// a window does not stop its drawing.)
///
/// `Sendable` through its `LockedValue`; the connection, window and atoms are immutable, and xcb
/// connections are thread-safe.
public final class XCBLifecycleAdapter: Sendable {
    /// Whether the window has the input focus and whether it is shown.
    public struct WindowState: Sendable, Hashable {
        /// The window has the input focus.
        public var isFocused: Bool
        /// The window is mapped, not hidden (`_NET_WM_STATE_HIDDEN`, e.g. minimised) and not
        /// fully covered by other windows.
        public var isVisible: Bool
    }

    private struct Tracked {
        var isFocused: Bool
        var isMapped: Bool
        var isHidden: Bool
        var isObscured = false
        var windowState: WindowState { WindowState(isFocused: isFocused, isVisible: isMapped && !isHidden && !isObscured) }
    }

    /// The lifecycle the adapter drives.
    public let lifecycle: AppLifecycle
    /// The window watched, on `connection`.
    public let window: UInt32
    private nonisolated(unsafe) let connection: OpaquePointer
    private let drainDeadline: Duration
    private let netWMState: xcb_atom_t
    private let netWMStateHidden: xcb_atom_t
    private let tracked: LockedValue<Tracked>

    /// Watches `window` on the host's `connection` (an `xcb_connection_t *`) for `lifecycle`;
    /// `drainDeadline` bounds the drain when the window is hidden. The host keeps the
    /// connection open while the adapter lives and passes it every event it reads with
    /// `handle(_:)`.
    public init(connection: OpaquePointer, window: UInt32, lifecycle: AppLifecycle = .shared,
                drainDeadline: Duration = .seconds(5)) {
        self.connection = connection
        self.window = window
        self.lifecycle = lifecycle
        self.drainDeadline = drainDeadline
        netWMState = Self.atom(connection, "_NET_WM_STATE")
        netWMStateHidden = Self.atom(connection, "_NET_WM_STATE_HIDDEN")

        let attributes = xcb_get_window_attributes_reply(connection, xcb_get_window_attributes(connection, window), nil)
        defer { free(attributes) }
        let wanted = XCB_EVENT_MASK_FOCUS_CHANGE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
            | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue | XCB_EVENT_MASK_VISIBILITY_CHANGE.rawValue
        var mask = [(attributes?.pointee.your_event_mask ?? 0) | wanted]
        xcb_change_window_attributes(connection, window, XCB_CW_EVENT_MASK.rawValue, &mask)

        let focus = xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil)
        defer { free(focus) }
        let initial = Tracked(isFocused: focus?.pointee.focus == window,
                              isMapped: attributes?.pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue),
                              isHidden: false)
        tracked = LockedValue(initial, rank: .leaf("XCBLifecycleAdapter.tracked"))
        let hidden = isHiddenNow()
        let state = tracked.withLock { tracked -> WindowState in
            tracked.isHidden = hidden
            return tracked.windowState
        }
        lifecycle.hostWindowDidChange(isFocused: state.isFocused, isVisible: state.isVisible,
                                      drainDeadline: drainDeadline)
    }

    /// The window's focus and visibility as the adapter last saw them.
    public var windowState: WindowState { tracked.withLock { $0.windowState } }

    /// Applies `event` if it concerns the window's focus or visibility and returns whether it
    /// did. Other events (and events for other windows) are left to the host.
    @discardableResult
    public func handle(_ event: UnsafePointer<xcb_generic_event_t>) -> Bool {
        let type = Int32(event.pointee.response_type & 0x7f)
        let change: (inout Tracked) -> Void
        switch type {
        case XCB_FOCUS_IN, XCB_FOCUS_OUT:
            let focus = UnsafeRawPointer(event).load(as: xcb_focus_in_event_t.self)
            guard focus.event == window, Self.isRealFocusChange(focus) else { return false }
            change = { $0.isFocused = type == XCB_FOCUS_IN }
        case XCB_MAP_NOTIFY:
            guard UnsafeRawPointer(event).load(as: xcb_map_notify_event_t.self).window == window else { return false }
            change = { $0.isMapped = true }
        case XCB_UNMAP_NOTIFY:
            guard UnsafeRawPointer(event).load(as: xcb_unmap_notify_event_t.self).window == window else { return false }
            change = { $0.isMapped = false }
        case XCB_VISIBILITY_NOTIFY:
            let visibility = UnsafeRawPointer(event).load(as: xcb_visibility_notify_event_t.self)
            guard visibility.window == window else { return false }
            let obscured = UInt32(visibility.state) == XCB_VISIBILITY_FULLY_OBSCURED.rawValue
            change = { $0.isObscured = obscured }
        case XCB_PROPERTY_NOTIFY:
            let property = UnsafeRawPointer(event).load(as: xcb_property_notify_event_t.self)
            guard property.window == window, property.atom == netWMState else { return false }
            let hidden = isHiddenNow()
            change = { $0.isHidden = hidden }
        default:
            return false
        }
        let (before, after) = tracked.withLock { tracked -> (WindowState, WindowState) in
            let before = tracked.windowState
            change(&tracked)
            return (before, tracked.windowState)
        }
        if before != after {
            lifecycle.hostWindowDidChange(isFocused: after.isFocused, isVisible: after.isVisible,
                                          drainDeadline: drainDeadline)
        }
        return true
    }

    /// Whether the window's `_NET_WM_STATE` holds `_NET_WM_STATE_HIDDEN` (one round trip).
    private func isHiddenNow() -> Bool {
        let cookie = xcb_get_property(connection, 0, window, netWMState, xcb_atom_t(XCB_ATOM_ATOM.rawValue), 0, 64)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return false }
        defer { free(reply) }
        guard reply.pointee.format == 32, let value = xcb_get_property_value(reply) else { return false }
        let count = Int(xcb_get_property_value_length(reply)) / MemoryLayout<xcb_atom_t>.size
        let atoms = UnsafeBufferPointer(start: value.assumingMemoryBound(to: xcb_atom_t.self), count: count)
        return atoms.contains(netWMStateHidden)
    }

    /// A focus event that moves the keyboard focus to or from the window itself.
    private static func isRealFocusChange(_ event: xcb_focus_in_event_t) -> Bool {
        let mode = UInt32(event.mode)
        guard mode == XCB_NOTIFY_MODE_NORMAL.rawValue || mode == XCB_NOTIFY_MODE_WHILE_GRABBED.rawValue else {
            return false
        }
        let detail = UInt32(event.detail)
        return detail != XCB_NOTIFY_DETAIL_POINTER.rawValue && detail != XCB_NOTIFY_DETAIL_INFERIOR.rawValue
    }

    /// The atom named `name`, made if it does not exist yet.
    private static func atom(_ connection: OpaquePointer, _ name: String) -> xcb_atom_t {
        let reply = xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name), nil)
        defer { free(reply) }
        return reply?.pointee.atom ?? xcb_atom_t(XCB_ATOM_NONE.rawValue)
    }
}
