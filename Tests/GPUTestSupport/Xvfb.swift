import AppLifecycle
import CVulkan.XCB
import CVulkan.Xlib
import Foundation
import Glibc
import SwiftGPUSupport

/// An Xvfb server started for one test and stopped when it goes away.
///
/// Xvfb picks a free display number itself and writes it to `-displayfd` once it accepts
/// connections, so the start waits for that line: no guessed numbers, no sleeps. It is
/// spawned with an empty signal mask (test threads block SIGTERM, and a child inherits the
/// mask) so that SIGTERM stops it cleanly, removing its lock file and socket.
package final class XvfbServer: @unchecked Sendable {   // immutable after init
    /// The display name, e.g. `:99`.
    package let display: String
    private let pid: pid_t

    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// A server with one screen of `width`×`height`; `fakeScreenFPS` sets the rate of its
    /// fake vblank (Present's MSC; 60 by default); `extraArguments` go to Xvfb as they are
    /// (`-extension Present` turns an extension off).
    package init(width: Int = 640, height: Int = 480, fakeScreenFPS: Int? = nil, extraArguments: [String] = []) throws {
        // The child's dup2 onto 3 clears close-on-exec there, also when the write end is 3
        // already (glibc).
        guard let fds = closeOnExecPipe() else { throw StartFailure(description: "socketpair failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds.write, 3)
        let log = "/tmp/swiftgpu-xvfb-\(getpid())-\(UInt32.random(in: 0 ... .max)).log"
        defer { unlink(log) }
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Its output goes to the log, and it inherits nothing else: a server holding the
        // test's standard output would keep `swift test` waiting if the test process died.
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        addCloseFrom(&actions, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = ["Xvfb", "-displayfd", "3", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
            + (fakeScreenFPS.map { ["-fakescreenfps", "\($0)"] } ?? []) + extraArguments
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/Xvfb", &actions, &attributes, &argv, environ)
        close(fds.write)
        defer { close(fds.read) }
        guard spawned == 0 else { throw StartFailure(description: "Xvfb could not start (is the xvfb package installed?)") }
        self.pid = pid
        // Blocks until Xvfb is ready (it writes "N\n") or exits (end of file).
        var number = ""
        var byte: UInt8 = 0
        while read(fds.read, &byte, 1) == 1, byte != UInt8(ascii: "\n") { number.append(Character(UnicodeScalar(byte))) }
        guard Int(number) != nil else {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw StartFailure(description: "Xvfb exited before it was ready: \(output)")
        }
        display = ":\(number)"
    }

    deinit {
        kill(pid, SIGTERM)
        waitpid(pid, nil, 0)
    }
}

/// Test X connections are never closed. Mesa 22.3's X11 WSI keeps what it learnt about a
/// connection (XFixes version negotiated, SHM and Present support) in a table keyed by the
/// connection's address and never forgets it: a connection made later at a freed one's
/// address skips the XFixes version request, its next XFixes request fails with BadRequest,
/// and Xlib's default error handler exits the process. A test process makes a few dozen
/// connections; each one's server is stopped at the end of its test.
///
/// An xcb connection to a test's X server, with windows made on it and their pixels read
/// back with `xcb_get_image`.
package final class XcbConnection: @unchecked Sendable {   // xcb connections are thread-safe
    package let connection: OpaquePointer
    package let screen: xcb_screen_t

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package init(display: String) throws {
        guard let connection = xcb_connect(display, nil), xcb_connection_has_error(connection) == 0 else {
            throw Failure(description: "xcb_connect(\(display)) failed")
        }
        self.connection = connection
        screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data.pointee
    }

    /// Makes and maps a `width` × `height` window at the top-left corner and waits (one
    /// round trip) until the server has mapped it.
    package func makeWindow(width: Int, height: Int) -> UInt32 {
        let window = xcb_generate_id(connection)
        var values: [UInt32] = [screen.black_pixel]
        xcb_create_window(connection, UInt8(XCB_COPY_FROM_PARENT), window, screen.root, 0, 0, UInt16(width),
                          UInt16(height), 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual,
                          XCB_CW_BACK_PIXEL.rawValue, &values)
        xcb_map_window(connection, window)
        sync()
        return window
    }

    /// Resizes `window` and waits until the server has done it.
    package func resize(_ window: UInt32, width: Int, height: Int) {
        var values: [UInt32] = [UInt32(width), UInt32(height)]
        xcb_configure_window(connection, window, UInt16(XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue),
                             &values)
        sync()
    }

    /// Paints `window` with its background (black) and waits until the server has done it:
    /// what was presented to it before is gone.
    package func clear(_ window: UInt32) {
        xcb_clear_area(connection, 0, window, 0, 0, 0, 0)
        sync()
    }

    /// Waits for a reply, so that every request sent before has been processed.
    package func sync() {
        free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil))
    }

    /// The window's pixels as the server holds them, BGRX rows top to bottom.
    package func pixels(of window: UInt32, width: Int, height: Int) throws -> [UInt8] {
        let cookie = xcb_get_image(connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, 0, 0, UInt16(width),
                                   UInt16(height), UInt32.max)
        guard let reply = xcb_get_image_reply(connection, cookie, nil) else {
            throw Failure(description: "xcb_get_image of window \(window) failed")
        }
        defer { free(reply) }
        let length = Int(xcb_get_image_data_length(reply))
        return Array(UnsafeBufferPointer(start: xcb_get_image_data(reply), count: length))
    }

    /// The BGRX pixel at (`x`, `y`) of the window.
    package func pixel(of window: UInt32, width: Int, height: Int, x: Int, y: Int) throws -> [UInt8] {
        let pixels = try self.pixels(of: window, width: width, height: height)
        let i = (y * width + x) * 4
        return Array(pixels[i..<(i + 3)])
    }
}

/// An Xlib connection to a test's X server, with a window made through it (never closed:
/// see `XcbConnection`).
package final class XlibWindow: @unchecked Sendable {   // immutable after init; Xlib calls from one test
    package let display: OpaquePointer
    package let window: UInt

    package init(display name: String, width: Int, height: Int) throws {
        guard let display = XOpenDisplay(name) else {
            throw XcbConnection.Failure(description: "XOpenDisplay(\(name)) failed")
        }
        self.display = display
        let screen = XDefaultScreen(display)
        window = XCreateSimpleWindow(display, XRootWindow(display, screen), 0, 0, UInt32(width), UInt32(height), 0,
                                     XBlackPixel(display, screen), XBlackPixel(display, screen))
        XMapWindow(display, window)
        XSync(display, 0)
    }
}
