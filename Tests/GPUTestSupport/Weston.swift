import CXDGShell
import Foundation
import Glibc
import GPUWayland

/// A Weston compositor (pixman renderer, desktop shell) on its headless backend, or with
/// `xDisplay` on its X11 backend, which has a seat (the X server's keyboard and pointer) and
/// so activates toplevels. Started for one test in a private runtime directory and stopped
/// when it goes away. The start waits
/// for Weston's readiness message (its systemd-notify module writes `READY=1` to
/// `NOTIFY_SOCKET`): no sleeps.
///
/// The desktop shell, not the kiosk shell: under the kiosk shell Weston 10's headless
/// backend never sends our toplevel a frame callback, so a FIFO present waits forever.
package final class WestonServer: @unchecked Sendable {   // immutable after init
    /// The compositor's socket, an absolute path for `wl_display_connect`.
    package let socketPath: String
    private let directory: String
    private let process: SpawnedProcess

    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// `ini`, when given, is Weston's configuration (a weston.ini's text); without it Weston
    /// runs on its defaults (`--no-config`).
    package init(xDisplay: String? = nil, ini: String? = nil) throws {
        var template = Array("\(NSTemporaryDirectory())/swiftgpu-weston-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StartFailure(description: "mkdtemp failed") }
        directory = String(cString: made)
        let notifyPath = directory + "/notify"
        let notify = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(notify) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (i, byte) in notifyPath.utf8.prefix(path.count - 1).enumerated() { path[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notify, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw StartFailure(description: "could not bind \(notifyPath)") }

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory
        environment["NOTIFY_SOCKET"] = notifyPath
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment["DISPLAY"] = xDisplay
        socketPath = directory + "/wayland-0"
        var configuration = ["--no-config"]
        if let ini {
            let path = directory + "/weston.ini"
            try ini.write(toFile: path, atomically: true, encoding: .utf8)
            configuration = ["--config=\(path)"]
        }
        process = try SpawnedProcess("/usr/bin/weston", [
            xDisplay == nil ? "--backend=headless-backend.so" : "--backend=x11-backend.so",
            "--socket=wayland-0", "--idle-time=0"] + configuration + [
            "--shell=desktop-shell.so", "--use-pixman", "--modules=systemd-notify.so", "--log=\(directory)/weston.log",
        ], environment: environment, standardError: directory + "/stderr")
        var ready = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
        var message = [UInt8](repeating: 0, count: 64)
        guard poll(&ready, 1, 10_000) > 0, recv(notify, &message, message.count, 0) > 0,
              String(decoding: message.prefix { $0 != 0 }, as: UTF8.self).contains("READY=1") else {
            kill(process.pid, SIGKILL)
            waitpid(process.pid, nil, 0)
            throw StartFailure(description: "weston did not become ready; see \(directory)/weston.log")
        }
    }

    /// The end of Weston's log, for a failure message.
    package func logTail(_ characters: Int = 3000) -> String {
        let text = (try? String(contentsOfFile: directory + "/weston.log", encoding: .utf8)) ?? "(no log)"
        return String(text.suffix(characters))
    }

    deinit {
        kill(process.pid, SIGTERM)
        waitpid(process.pid, nil, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A Wayland client with one xdg_toplevel, as a host toolkit makes it: it binds the
/// compositor and `xdg_wm_base`, answers pings, acknowledges configures and passes every
/// toplevel configure's states to `adapter`.
package final class WaylandToplevel: @unchecked Sendable {   // used from one test thread
    package let display: OpaquePointer
    package private(set) var surface: OpaquePointer?
    package private(set) var wmBaseVersion: UInt32 = 0
    /// The states of every toplevel configure so far.
    package private(set) var configures: [[UInt32]] = []
    package private(set) var isClosed = false
    private let adapter: WaylandLifecycleAdapter?
    private var compositor: OpaquePointer?
    private var wmBase: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private let listeners = Listeners()

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// A toplevel on the compositor at `socketPath`, fullscreen on its output when
    /// `fullscreen` (its surface then starts at the output's origin).
    package init(socketPath: String, adapter: WaylandLifecycleAdapter?, fullscreen: Bool = false) throws {
        guard let display = wl_display_connect(socketPath) else {
            throw Failure(description: "wl_display_connect(\(socketPath)) failed")
        }
        self.display = display
        self.adapter = adapter
        let me = Unmanaged.passUnretained(self).toOpaque()
        let registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, listeners.registry, me)
        wl_display_roundtrip(display)
        wl_registry_destroy(registry)
        guard let compositor, let wmBase else { throw Failure(description: "no wl_compositor or xdg_wm_base") }
        xdg_wm_base_add_listener(wmBase, listeners.wmBase, me)
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, listeners.xdgSurface, me)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, listeners.toplevel, me)
        xdg_toplevel_set_title(toplevel, "SwiftGPU test")
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        wl_surface_commit(surface)
        wl_display_roundtrip(display)
    }

    deinit {
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
        xdg_wm_base_destroy(wmBase)
        wl_compositor_destroy(compositor)
        wl_display_disconnect(display)
    }

    /// Sends what is queued and handles every event the compositor has sent by then.
    package func roundtrip() { wl_display_roundtrip(display) }

    /// Handles the compositor's events as they come until `done` holds; false if 5 s pass
    /// first.
    package func dispatch(until done: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !done() {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            while wl_display_prepare_read(display) != 0 { wl_display_dispatch_pending(display) }
            wl_display_flush(display)
            var ready = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, Int32(left / .milliseconds(1)) + 1) > 0 {
                wl_display_read_events(display)
            } else {
                wl_display_cancel_read(display)
            }
            wl_display_dispatch_pending(display)
        }
        return true
    }

    fileprivate func global(_ registry: OpaquePointer?, name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor":
            compositor = OpaquePointer(wl_registry_bind(registry, name, swiftgpu_wl_compositor_interface(), min(version, 4)))
        case "xdg_wm_base":
            // Version 6 has the `suspended` state; bind as much of it as the compositor has.
            wmBaseVersion = min(version, 6)
            wmBase = OpaquePointer(wl_registry_bind(registry, name, swiftgpu_xdg_wm_base_interface(), wmBaseVersion))
        default:
            break
        }
    }

    fileprivate func ping(_ serial: UInt32) { xdg_wm_base_pong(wmBase, serial) }
    fileprivate func surfaceConfigure(_ serial: UInt32) { xdg_surface_ack_configure(xdgSurface, serial) }
    fileprivate func toplevelConfigure(_ states: UnsafeMutablePointer<wl_array>) {
        let count = states.pointee.size / 4
        configures.append(states.pointee.data.map { Array(UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt32.self), count: count)) } ?? [])
        adapter?.toplevelConfigured(states: states)
    }
    fileprivate func close() { isClosed = true }
}

/// The C listener tables, allocated once per client so their addresses stay put.
private final class Listeners {
    let registry = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    let wmBase = UnsafeMutablePointer<xdg_wm_base_listener>.allocate(capacity: 1)
    let xdgSurface = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
    let toplevel = UnsafeMutablePointer<xdg_toplevel_listener>.allocate(capacity: 1)

    static func client(_ data: UnsafeMutableRawPointer?) -> WaylandToplevel {
        Unmanaged<WaylandToplevel>.fromOpaque(data!).takeUnretainedValue()
    }

    init() {
        registry.initialize(to: wl_registry_listener(
            global: { data, registry, name, interface, version in
                Listeners.client(data).global(registry, name: name, interface: String(cString: interface!), version: version)
            },
            global_remove: { _, _, _ in }))
        wmBase.initialize(to: xdg_wm_base_listener(ping: { data, _, serial in Listeners.client(data).ping(serial) }))
        xdgSurface.initialize(to: xdg_surface_listener(configure: { data, _, serial in
            Listeners.client(data).surfaceConfigure(serial)
        }))
        toplevel.initialize(to: xdg_toplevel_listener(
            configure: { data, _, _, _, states in Listeners.client(data).toplevelConfigure(states!) },
            close: { data, _ in Listeners.client(data).close() },
            configure_bounds: { _, _, _, _ in },
            wm_capabilities: { _, _, _ in }))
    }

    deinit {
        registry.deallocate()
        wmBase.deallocate()
        xdgSurface.deallocate()
        toplevel.deallocate()
    }
}
