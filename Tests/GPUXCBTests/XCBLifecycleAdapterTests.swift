import AppLifecycle
import CVulkan.XCB
import Glibc
import GPUTestSupport
import GPUXCB
import Testing

/// The xcb lifecycle adapter against a real X server: the test maps, unmaps and focuses
/// the window and changes its `_NET_WM_STATE` as a window manager would, and waits (bounded)
/// for the events to reach the adapter.
@Suite("xcb lifecycle adapter")
struct XCBLifecycleAdapterTests {
    /// The host's side: a connection, an unmapped window on it, the adapter, and every
    /// transition the lifecycle made.
    final class Host: @unchecked Sendable {   // used from the test's thread only; `made` is locked
        let server: XvfbServer
        let x: XcbConnection
        let window: UInt32
        let lifecycle = AppLifecycle(clock: ManualClock())
        let adapter: XCBLifecycleAdapter
        let made = Locked<[String]>([])
        let focus = Locked<[Bool]>([])
        private var observation: LifecycleObservation?
        private var focusObservation: LifecycleObservation?

        init(policy: WindowFocusPolicy = .keepDrawingWhileVisible) throws {
            server = try XvfbServer()
            x = try XcbConnection(display: server.display)
            window = xcb_generate_id(x.connection)
            var values: [UInt32] = [x.screen.black_pixel]
            xcb_create_window(x.connection, UInt8(XCB_COPY_FROM_PARENT), window, x.screen.root, 0, 0, 64, 64, 0,
                              UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), x.screen.root_visual,
                              XCB_CW_BACK_PIXEL.rawValue, &values)
            let made = made, focus = focus
            observation = lifecycle.observe { transition in made.withLock { $0.append(transition.event.rawValue) } }
            focusObservation = lifecycle.observeWindowFocus { focused in focus.withLock { $0.append(focused) } }
            lifecycle.windowFocusPolicy = policy
            adapter = XCBLifecycleAdapter(connection: x.connection, window: window, lifecycle: lifecycle,
                                          drainDeadline: .zero)
        }

        /// The transitions made since the last call.
        func transitions() -> [String] {
            made.withLock { made in
                defer { made.removeAll() }
                return made
            }
        }

        /// Feeds the adapter every event until `done` holds; false if the server sends
        /// nothing for 5 s first.
        func pump(until done: () -> Bool) -> Bool {
            let fd = xcb_get_file_descriptor(x.connection)
            while true {
                while let event = xcb_poll_for_event(x.connection) {
                    adapter.handle(event)
                    free(event)
                }
                if done() { return true }
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 5000) > 0 else { return false }
            }
        }

        func pump(until state: LifecycleState) -> Bool {
            xcb_flush(x.connection)
            return pump { lifecycle.state == state }
        }

        /// Feeds the adapter events until the focus observers have heard `seen`.
        func pump(untilFocus seen: [Bool]) -> Bool {
            xcb_flush(x.connection)
            return pump { focus.withLock { $0 } == seen }
        }

        /// A window over the adapter's, `width` pixels wide from the left, mapped.
        func cover(width: UInt16) -> UInt32 {
            let cover = xcb_generate_id(x.connection)
            var values: [UInt32] = [x.screen.white_pixel]
            xcb_create_window(x.connection, UInt8(XCB_COPY_FROM_PARENT), cover, x.screen.root, 0, 0, width, 64, 0,
                              UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), x.screen.root_visual,
                              XCB_CW_BACK_PIXEL.rawValue, &values)
            xcb_map_window(x.connection, cover)
            return cover
        }

        func focus(_ target: UInt32) {
            xcb_set_input_focus(x.connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), target, UInt32(XCB_CURRENT_TIME))
        }

        /// Sets the window's `_NET_WM_STATE` as a window manager does when it minimises
        /// (`hidden`) or restores the window.
        func setHidden(_ hidden: Bool) {
            let state = atom("_NET_WM_STATE")
            var atoms = hidden ? [atom("_NET_WM_STATE_HIDDEN")] : []
            xcb_change_property(x.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, state,
                                xcb_atom_t(XCB_ATOM_ATOM.rawValue), 32, UInt32(atoms.count), &atoms)
        }

        func atom(_ name: String) -> xcb_atom_t {
            let reply = xcb_intern_atom_reply(x.connection, xcb_intern_atom(x.connection, 0, UInt16(name.utf8.count), name), nil)
            defer { free(reply) }
            return reply!.pointee.atom
        }
    }

    @Test("desktop rule: a shown window stays active without the focus (observers hear focus changes); covering, minimising and unmapping it enter the background")
    func desktopVisibility() throws {
        let host = try Host()
        #expect(host.lifecycle.windowFocusPolicy == .keepDrawingWhileVisible)
        #expect(host.lifecycle.state == .background)
        _ = host.transitions()

        // Shown but never focused (a preview beside an editor): active, commits admitted.
        xcb_map_window(host.x.connection, host.window)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["willEnterForeground", "didBecomeActive"])
        #expect(!host.lifecycle.isWindowFocused)

        host.focus(host.window)
        #expect(host.pump(untilFocus: [false, true]))
        host.focus(UInt32(XCB_NONE))
        #expect(host.pump(untilFocus: [false, true, false]))
        #expect(host.lifecycle.state == .active)
        #expect(host.transitions() == [])

        // Fully covered by another window: the background; half uncovered: active again.
        let full = host.cover(width: 64)
        #expect(host.pump(until: .background))
        #expect(!host.adapter.windowState.isVisible)
        xcb_destroy_window(host.x.connection, full)
        let half = host.cover(width: 32)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive"])
        xcb_destroy_window(host.x.connection, half)

        // Minimised, then restored; unmapped, then mapped.
        host.setHidden(true)
        #expect(host.pump(until: .background))
        host.setHidden(false)
        #expect(host.pump(until: .active))
        xcb_unmap_window(host.x.connection, host.window)
        #expect(host.pump(until: .background))
        xcb_map_window(host.x.connection, host.window)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive",
                                       "willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive"])
    }

    @Test("pauseOnFocusLoss: map, focus, focus loss, _NET_WM_STATE_HIDDEN and unmap drive the lifecycle in iOS's order")
    func lifecycleFollowsTheWindow() throws {
        let host = try Host(policy: .pauseOnFocusLoss)
        // Made before the window is mapped: the app starts in the background.
        #expect(host.lifecycle.state == .background)
        #expect(host.transitions() == ["willResignActive", "didEnterBackground"])

        xcb_map_window(host.x.connection, host.window)
        #expect(host.pump(until: .inactive))
        #expect(host.transitions() == ["willEnterForeground"])
        #expect(!host.adapter.windowState.isFocused && host.adapter.windowState.isVisible)

        host.focus(host.window)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["didBecomeActive"])

        host.focus(UInt32(XCB_NONE))
        #expect(host.pump(until: .inactive))
        #expect(host.transitions() == ["willResignActive"])

        host.focus(host.window)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["didBecomeActive"])

        // Minimised while focused: through inactive to the background, and back.
        host.setHidden(true)
        #expect(host.pump(until: .background))
        #expect(host.transitions() == ["willResignActive", "didEnterBackground"])
        #expect(host.adapter.windowState.isFocused && !host.adapter.windowState.isVisible)
        host.setHidden(false)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["willEnterForeground", "didBecomeActive"])

        // Unmapped: the background; mapped again: inactive until the window is focused.
        xcb_unmap_window(host.x.connection, host.window)
        #expect(host.pump(until: .background))
        xcb_map_window(host.x.connection, host.window)
        #expect(host.pump(until: .inactive))
        host.focus(host.window)
        #expect(host.pump(until: .active))
        #expect(host.transitions() == ["willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive"])
    }

    @Test("an adapter made for a mapped, focused window leaves the app active; other windows' events are not its own")
    func initialStateAndOtherWindows() throws {
        let host = try Host()
        let other = xcb_generate_id(host.x.connection)
        xcb_create_window(host.x.connection, UInt8(XCB_COPY_FROM_PARENT), other, host.x.screen.root, 0, 0, 32, 32, 0,
                          UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), host.x.screen.root_visual, 0, nil)
        var mask: [UInt32] = [XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue]
        xcb_change_window_attributes(host.x.connection, other, XCB_CW_EVENT_MASK.rawValue, &mask)
        xcb_map_window(host.x.connection, host.window)
        host.focus(host.window)
        #expect(host.pump(until: .active))
        _ = host.transitions()

        // Another window's map is seen (the host selected it) but is not the adapter's.
        xcb_map_window(host.x.connection, other)
        xcb_flush(host.x.connection)
        var sawOther = false
        let fd = xcb_get_file_descriptor(host.x.connection)
        while !sawOther {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5000) > 0 else { break }
            while let event = xcb_poll_for_event(host.x.connection) {
                if Int32(event.pointee.response_type & 0x7f) == XCB_MAP_NOTIFY {
                    #expect(!host.adapter.handle(event))
                    sawOther = true
                }
                free(event)
            }
        }
        #expect(sawOther)
        #expect(host.lifecycle.state == .active)

        let second = XCBLifecycleAdapter(connection: host.x.connection, window: host.window, lifecycle: host.lifecycle)
        #expect(second.windowState.isFocused && second.windowState.isVisible)
        #expect(host.lifecycle.state == .active)
        #expect(host.transitions() == [])
    }
}
