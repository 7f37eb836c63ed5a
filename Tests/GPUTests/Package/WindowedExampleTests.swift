import CVulkan.XCB
import CXCBInput
import Foundation
import Glibc
import GPUTestSupport
import Testing

/// The windowed examples run as a user would, each on an Xvfb server the test starts; the
/// test plays the window manager and the keyboard.
@Suite("Windowed examples under Xvfb")
struct WindowedExampleTests {
    /// Starts example `name` with `arguments` on `server` and reads its "window N" line: the
    /// process (the caller ends it), its output's lines, and the window.
    static func launch(_ name: String, _ arguments: [String], on server: XvfbServer) throws
        -> (child: SpawnedProcess, lines: LineReader, window: UInt32) {
        let child = try SpawnedProcess(try ExampleProgram.executable(name).path, arguments, environment: ExampleProgram.environment(server))
        let lines = LineReader(child.output)
        guard let announced = lines.next(containing: "window "),
              let window = announced.split(separator: " ").dropFirst().first.flatMap({ UInt32($0) }) else {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
            throw XcbConnection.Failure(description: "\(name) announced no window")
        }
        return (child, lines, window)
    }

    @Test("Sketch: a scripted XTest stroke is drawn from its coalesced samples and reads back from the window; Q quits")
    func sketch() throws {
        let server = try XvfbServer(width: 400, height: 300)
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("Sketch", ["--seconds", "60", "--size", "320x240"], on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        #expect(lines.next(containing: "ready") != nil)
        // A horizontal stroke from (40, 60) to (280, 60) in 4-pixel steps: 61 samples down.
        let raw = UnsafeMutableRawPointer(x.connection)
        swiftgpu_xtest_motion(raw, x.screen.root, 40, 60)
        swiftgpu_xtest_button(raw, 1, 1)
        for step in 1...60 { swiftgpu_xtest_motion(raw, x.screen.root, Int16(40 + 4 * step), 60) }
        swiftgpu_xtest_button(raw, 1, 0)
        let stroke = try #require(lines.next(containing: "stroke 1:"))
        // Every sample of the stroke is drawn (the press, 60 moves, the release), in fewer
        // frames than samples: they were coalesced.
        #expect(stroke.hasPrefix("stroke 1: 62 samples over"), "\(stroke)")
        let frames = try #require(stroke.split(separator: " ").dropLast().last.flatMap { Int($0) })
        #expect(frames >= 1 && frames < 62, "\(stroke)")
        // The ink (white) along the stroke, the background off it.
        for px in stride(from: 50, through: 270, by: 20) {
            #expect(try x.pixel(of: window, width: 320, height: 240, x: px, y: 60) == [255, 255, 255], "ink at \(px), 60")
        }
        #expect(try x.pixel(of: window, width: 320, height: 240, x: 160, y: 150) == [31, 20, 20], "background below")
        Self.press(x, window, "q")
        let summary = try #require(lines.next(containing: "summary:"))
        // And the hover to the stroke's start.
        #expect(summary.contains("1 strokes, 63 samples"), "\(summary)")
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    @Test("WindowedCube --pause-unfocused: waits for focus, draws the cube, keys 1–4 and L switch modes, focus loss pauses, Q quits")
    func windowedCube() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("WindowedCube", ["--seconds", "60", "--stats-interval", "0.2",
                                                                      "--size", "320x240", "--pause-unfocused"], on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        // Mapped but not focused (no window manager): inactive, so paused.
        #expect(lines.next(containing: "lifecycle: willResignActive: active → inactive") != nil)
        #expect(lines.next(containing: "paused: inactive") != nil)

        Self.focus(x, window)
        #expect(lines.next(containing: "lifecycle: didBecomeActive: inactive → active") != nil)
        #expect(lines.next(containing: "resumed") != nil)
        #expect(lines.next(containing: "mode fifo, low latency off") != nil)
        let center = try x.pixel(of: window, width: 320, height: 240, x: 160, y: 120)
        #expect(center != [26, 13, 13], "the cube covers the window's centre, not the clear colour: \(center)")

        for (key, mode): (Character, String) in [("3", "mailbox"), ("4", "immediate"), ("2", "fifoRelaxed"), ("1", "fifo")] {
            Self.press(x, window, key)
            #expect(lines.next(containing: "present mode: \(mode)") != nil)
            #expect(lines.next(containing: "mode \(mode), low latency off") != nil)
        }
        Self.press(x, window, "l")
        #expect(lines.next(containing: "low latency: on") != nil)
        let lowLatency = try #require(lines.next(containing: "low latency on, latency"))
        #expect(!lowLatency.contains("latency 0.00 ms"), "frame latency is measured: \(lowLatency)")

        Self.focus(x, UInt32(XCB_NONE))
        #expect(lines.next(containing: "lifecycle: willResignActive: active → inactive") != nil)
        #expect(lines.next(containing: "paused: inactive") != nil)
        Self.focus(x, window)
        #expect(lines.next(containing: "resumed") != nil)

        Self.press(x, window, "q")
        let summary = try #require(lines.next(containing: "summary:"))
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0, "exits cleanly: \(summary)")
    }

    @Test("WindowedCube --frames, never focused (no window manager): a visible window draws, and the bounded run ends by itself")
    func windowedCubeFrames() throws {
        let output = try Self.run("WindowedCube", ["--frames", "30", "--mode", "mailbox", "--size", "160x120"])
        #expect(output.contains("summary: 30 frames"), "\(output)")
        #expect(!output.contains("paused"), "\(output)")
    }

    @Test("WindowedCube --fps 30 --svg: paced frames, and the frame-time plot written at the end")
    func windowedCubePacedPlot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cube-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try Self.run("WindowedCube", ["--focus", "--frames", "20", "--fps", "30", "--size", "160x120", "--svg", path])
        #expect(output.contains("frame times: 20 presents"), "\(output)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("<polyline"))
        // The median display interval is the paced 33.3 ms (the present call's jitter is small).
        let p50 = output.split(separator: "\n").first { $0.hasPrefix("frame times:") }
            .flatMap { $0.split(separator: " ").drop { $0 != "p50" }.dropFirst().first }.flatMap { Double($0) }
        #expect(p50.map { abs($0 - 1000.0 / 30) < 2 } ?? false, "\(output)")
    }

    @Test("EmbedInGLFW: GLFW owns the window and its Vulkan surface; the triangle reads back, Q quits, the surface goes after the layer",
          arguments: [false, true])
    func embedInGLFW(xlib: Bool) throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("EmbedInGLFW", ["--frames", "12", "--size", "160x120", "--hold"] + (xlib ? ["--xlib"] : []),
                                                     on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        let route = xlib ? "an Xlib surface SwiftGPU made" : "GLFW's Vulkan surface"
        let rendered = try #require(lines.next(containing: "rendered "))
        #expect(rendered.hasPrefix("rendered 12 frames into it through \(route)") && rendered.hasSuffix("; 12 shown"), "\(rendered)")
        #expect(lines.next(containing: "holding") != nil)
        // The clear colour (0.1, 0.1, 0.15) around the triangle.
        try Self.expectTriangle(x, window, clear: [38, 26, 26])
        Self.press(x, window, "q")
        if !xlib { #expect(lines.next(containing: "GLFW's surface destroyed after the layer let go of it") != nil) }
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    @Test("ImGuiTool: Dear ImGui's controls over the scene in one window; an XTest click on the slider scales the triangle; minimised, it commits nothing; Q quits")
    func imGuiTool() throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("ImGuiTool", ["--size", "320x240"], on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        #expect(lines.next(containing: "ready") != nil)
        // ImGui's focused title bar (TitleBgActive 0.16, 0.29, 0.48; BGR read-back) over the scene.
        let title = try x.pixel(of: window, width: 320, height: 240, x: 150, y: 15)
        #expect(zip(title, [122, 74, 41] as [UInt8]).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "title bar (BGR): \(title)")
        // Below the half-size triangle: the clear colour (0.1, 0.1, 0.15).
        #expect(try x.pixel(of: window, width: 320, height: 240, x: 160, y: 200) == [38, 26, 26])
        // Press on the slider's right end (the window is at the root's corner), then release.
        let raw = UnsafeMutableRawPointer(x.connection)
        swiftgpu_xtest_motion(raw, x.screen.root, 148, 46)
        swiftgpu_xtest_button(raw, 1, 1)
        let moved = try #require(lines.next(containing: "scale "))
        swiftgpu_xtest_button(raw, 1, 0)
        let scale = try #require(Float(moved.split(separator: " ").last ?? ""))
        #expect(scale > 0.9, "\(moved)")
        // The frame drawn at that scale, once shown: the triangle at nearly full size covers the point.
        #expect(lines.next(containing: "shown scale \(scale)") != nil)
        let covered = try x.pixel(of: window, width: 320, height: 240, x: 160, y: 200)
        #expect(covered != [38, 26, 26], "the triangle grew over (160, 200): \(covered)")
        // Minimised (GLFW's iconify callback), the app is in the background: the loop's
        // passes commit nothing; restored, drawing resumes.
        try Self.expectNoSubmissionsWhileMinimised(x, window, lines)
        #expect(try x.pixel(of: window, width: 320, height: 240, x: 160, y: 200) == covered)
        Self.press(x, window, "q")
        #expect(lines.next(containing: "drew ")?.hasSuffix("; 0 validation messages") == true)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    @Test("EmbedInQt: a SwiftGPU view inside a Qt Widgets window; an XTest click on a Qt button changes what it draws; minimised, it commits nothing; Q quits")
    func embedInQt() throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("EmbedInQt", ["--size", "320x240"], on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        let view = try #require(lines.next(containing: "view ")).dropFirst(5).split(separator: "x").compactMap { Int($0) }
        let button = try #require(lines.next(containing: "button at ")).dropFirst(10).split(separator: ",").compactMap { Int16($0) }
        try #require(view.count == 2 && button.count == 2)
        #expect(view[0] > 100 && view[0] < 320 && view[1] == 240, "the view beside the panel: \(view)")
        #expect(lines.next(containing: "ready") != nil)
        // Inside the full-size triangle's lower part, below the half-size one: the clear colour (BGR) first.
        let point = (x: view[0] / 2, y: view[1] * 85 / 100)
        #expect(try x.pixel(of: window, width: 320, height: 240, x: 2, y: 2) == [38, 26, 26])
        #expect(try x.pixel(of: window, width: 320, height: 240, x: point.x, y: point.y) == [38, 26, 26])
        // A click on the "Full size" button (the window is at the root's corner).
        let raw = UnsafeMutableRawPointer(x.connection)
        swiftgpu_xtest_motion(raw, x.screen.root, button[0], button[1])
        swiftgpu_xtest_button(raw, 1, 1)
        swiftgpu_xtest_button(raw, 1, 0)
        #expect(lines.next(containing: "shown scale 1.0") != nil)
        let covered = try x.pixel(of: window, width: 320, height: 240, x: point.x, y: point.y)
        #expect(covered != [38, 26, 26], "the full-size triangle covers (\(point.x), \(point.y)): \(covered)")
        // Minimised, the app is in the background: Qt's update requests go on and commit
        // nothing; restored, drawing resumes.
        try Self.expectNoSubmissionsWhileMinimised(x, window, lines)
        #expect(try x.pixel(of: window, width: 320, height: 240, x: point.x, y: point.y) == covered)
        Self.focus(x, window)
        Self.press(x, window, "q")
        #expect(lines.next(containing: "drew ")?.hasSuffix("the view's surface went after the layer let go of it; 0 validation messages") == true)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    @Test("EmbedInQtQuick: Qt Quick's scene graph, on SwiftGPU's device and queue, samples its texture in place; the triangle reads back, C changes the clear colour, a resize replaces the texture, minimised it commits nothing, Q quits; no validation message")
    func embedInQtQuick() throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("EmbedInQtQuick", ["--size", "160x120"], on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        #expect(lines.next(containing: "item ") == "item 160x120")
        #expect(lines.next(containing: "ready") != nil)
        // Clear colour 0 is (0.1, 0.1, 0.3): BGR (77, 26, 26), within 2 per channel as Qt's
        // shader samples and writes it again; the red top vertex upright; the blend inside.
        let corner = try Self.pixelBecomes([77, 26, 26], x, window, at: (2, 2))
        #expect(Self.near(corner, [77, 26, 26]), "the clear colour (BGR): \(corner)")
        let top = try x.pixel(of: window, width: 160, height: 120, x: 80, y: 18)
        #expect(top[2] > 150 && top[1] < 80 && top[0] < 80, "red at the top (BGR): \(top)")
        let middle = try x.pixel(of: window, width: 160, height: 120, x: 80, y: 80)
        #expect(middle[0] > 40 && middle[1] > 40, "blended inside (BGR): \(middle)")
        Self.focus(x, window)
        Self.press(x, window, "c")
        #expect(lines.next(containing: "shown colour 1") != nil)
        let changed = try Self.pixelBecomes([26, 77, 26], x, window, at: (2, 2))
        #expect(Self.near(changed, [26, 77, 26]), "the clear colour (BGR): \(changed)")
        // Resized, the view draws into a texture of the new size, which replaces the old once
        // Qt's frames that sampled the old one are done.
        var size: [UInt32] = [200, 150]
        xcb_configure_window(x.connection, window, UInt16(XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), &size)
        x.sync()
        #expect(lines.next(containing: "shown at ") == "shown at 200x150")
        let resized = try Self.pixelBecomes([26, 77, 26], x, window, at: (197, 147), size: (200, 150))
        #expect(Self.near(resized, [26, 77, 26]), "the clear colour in the new corner (BGR): \(resized)")
        let resizedTop = try x.pixel(of: window, width: 200, height: 150, x: 100, y: 23)
        #expect(resizedTop[2] > 150 && resizedTop[1] < 80 && resizedTop[0] < 80, "red at the top (BGR): \(resizedTop)")
        // Minimised, the app is in the background and Qt renders nothing; restored, the
        // exposure draws the next frame.
        try Self.expectNoSubmissionsWhileMinimised(x, window, lines, countsHiddenFrames: false)
        let restored = try Self.pixelBecomes([26, 77, 26], x, window, at: (197, 147), size: (200, 150))
        #expect(Self.near(restored, [26, 77, 26]), "the clear colour after restoring (BGR): \(restored)")
        Self.press(x, window, "q")
        let drew = try #require(lines.next(containing: "drew "))
        #expect(drew.hasSuffix("; 0 validation messages"), "\(drew)")
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    @Test("EmbedInQtQuick --widgets-window: a Qt Widgets window made after the Qt Quick one finds the QApplication it needs; the run ends cleanly")
    func qtQuickThenWidgets() throws {
        let server = try XvfbServer()
        let (child, lines, _) = try Self.launch("EmbedInQtQuick", ["--size", "160x120", "--frames", "3", "--widgets-window"],
                                                on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        #expect(lines.next(containing: "Qt Widgets made beside it") != nil)
        let drew = try #require(lines.next(containing: "drew "))
        #expect(drew.hasSuffix("; 0 validation messages"), "\(drew)")
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    /// Reads the pixel at `point` of `window` (`size`) until it is near `expected` (BGR): the
    /// X server shows a present after the example heard it returned. The last pixel read:
    /// not near `expected` after 5 s.
    static func pixelBecomes(_ expected: [UInt8], _ x: XcbConnection, _ window: UInt32, at point: (Int, Int),
                             size: (Int, Int) = (160, 120)) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(5)
        var pixel: [UInt8]
        repeat {
            pixel = try x.pixel(of: window, width: size.0, height: size.1, x: point.0, y: point.1)
        } while !near(pixel, expected) && Date() < deadline
        return pixel
    }

    /// Whether `pixel` is within 2 of `expected` in every channel.
    static func near(_ pixel: [UInt8], _ expected: [UInt8]) -> Bool {
        pixel.count == expected.count && zip(pixel, expected).allSatisfy { abs(Int($0) - Int($1)) <= 2 }
    }

    @Test("EmbedInSDL: SDL's window and surface on the app's own instance; the triangle reads back, Q quits, surface and instance go after SwiftGPU")
    func embedInSDL() throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let (child, lines, window) = try Self.launch("EmbedInSDL", ["--frames", "12", "--size", "160x120", "--hold"], on: server)
        defer {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
        }
        let rendered = try #require(lines.next(containing: "rendered "))
        #expect(rendered.hasPrefix("rendered 12 frames through SDL's Vulkan surface") && rendered.hasSuffix("; 12 shown"), "\(rendered)")
        #expect(lines.next(containing: "holding") != nil)
        // The clear colour (0.15, 0.1, 0.1) around the triangle.
        try Self.expectTriangle(x, window, clear: [26, 26, 38])
        Self.press(x, window, "q")
        let teardown = try #require(lines.next(containing: "destroyed"))
        #expect(teardown == "surface and instance destroyed after SwiftGPU let go of them; 0 validation messages")
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0)
    }

    /// Expects the embedding examples' triangle in the 160×120 `window`: `clear` (BGR) in
    /// the corner, the red top vertex near the top, the green and blue corners' mix inside.
    static func expectTriangle(_ x: XcbConnection, _ window: UInt32, clear: [UInt8]) throws {
        #expect(try x.pixel(of: window, width: 160, height: 120, x: 2, y: 2) == clear)
        let top = try x.pixel(of: window, width: 160, height: 120, x: 80, y: 18)
        #expect(top[2] > 150 && top[1] < 80 && top[0] < 80, "red at the top (BGR): \(top)")
        let middle = try x.pixel(of: window, width: 160, height: 120, x: 80, y: 80)
        #expect(middle[0] > 40 && middle[1] > 40, "blended inside (BGR): \(middle)")
    }

    /// Runs example `name` to its end on a fresh Xvfb server, expects a clean exit, and returns
    /// what it printed.
    static func run(_ name: String, _ arguments: [String]) throws -> String {
        let server = try XvfbServer()
        let child = try SpawnedProcess(try ExampleProgram.executable(name).path, arguments, environment: ExampleProgram.environment(server))
        let output = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status == 0, "\(output)")
        return output
    }

    /// Minimises `window` as a window manager does (its `WM_STATE` iconic, then unmapped),
    /// expects the example to say it went to the background after N submissions and, where
    /// it counts its frames while hidden (`countsHiddenFrames`), still had N after ten,
    /// restores it (mapped, `WM_STATE` normal) and expects N again, then the (N + 1)th commit
    /// shown.
    static func expectNoSubmissionsWhileMinimised(_ x: XcbConnection, _ window: UInt32, _ lines: LineReader,
                                                  countsHiddenFrames: Bool = true) throws {
        setWindowState(x, window, iconic: true)
        xcb_unmap_window(x.connection, window)
        x.sync()
        let hidden = try #require(lines.next(containing: "hidden after "))
        #expect(hidden.hasSuffix("submissions; lifecycle background"), "\(hidden)")
        let submitted = try #require(hidden.split(separator: " ").dropFirst(2).first.flatMap { Int($0) })
        #expect(submitted > 0)
        if countsHiddenFrames {
            #expect(lines.next(containing: "hidden for 10 frames") == "hidden for 10 frames: \(submitted) submissions")
        }
        xcb_map_window(x.connection, window)
        setWindowState(x, window, iconic: false)
        x.sync()
        let shown = try #require(lines.next(containing: "shown after "))
        #expect(shown.hasSuffix(": \(submitted) submissions (\(submitted) at hiding)"), "\(shown)")
        #expect(lines.next(containing: "drawing resumed at ") == "drawing resumed at \(submitted + 1)")
    }

    /// Sets ICCCM's `WM_STATE` of `window`: iconic (3) or normal (1).
    static func setWindowState(_ x: XcbConnection, _ window: UInt32, iconic: Bool) {
        let name = "WM_STATE"
        let reply = xcb_intern_atom_reply(x.connection, xcb_intern_atom(x.connection, 0, UInt16(name.utf8.count), name), nil)
        defer { free(reply) }
        guard let atom = reply?.pointee.atom else { return }
        var state: [UInt32] = [iconic ? 3 : 1, 0]
        xcb_change_property(x.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, atom, atom, 32, 2, &state)
        x.sync()
    }

    /// Gives `window` the keyboard focus, as a window manager would.
    static func focus(_ x: XcbConnection, _ window: UInt32) {
        xcb_set_input_focus(x.connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window, UInt32(XCB_CURRENT_TIME))
        x.sync()
    }

    /// Sends `window` a key press of the character `key` (a synthetic event, as xdotool's
    /// window-targeted typing does).
    static func press(_ x: XcbConnection, _ window: UInt32, _ key: Character) {
        var event = xcb_key_press_event_t()
        event.response_type = UInt8(XCB_KEY_PRESS)
        event.detail = keycode(x, for: key)
        event.root = x.screen.root
        event.event = window
        event.same_screen = 1
        withUnsafeBytes(of: &event) { bytes in
            var padded = [UInt8](repeating: 0, count: 32)
            padded.replaceSubrange(0..<bytes.count, with: bytes)
            padded.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    _ = xcb_send_event(x.connection, 0, window, XCB_EVENT_MASK_KEY_PRESS.rawValue, characters.baseAddress)
                }
            }
        }
        x.sync()
    }

    /// The keycode whose first keysym is `key` (Latin-1 keysyms equal their characters).
    static func keycode(_ x: XcbConnection, for key: Character) -> xcb_keycode_t {
        let setup = xcb_get_setup(x.connection).pointee
        let count = UInt8(Int(setup.max_keycode) - Int(setup.min_keycode) + 1)
        let reply = xcb_get_keyboard_mapping_reply(x.connection, xcb_get_keyboard_mapping(x.connection, setup.min_keycode, count), nil)
        defer { free(reply) }
        guard let reply, let keysyms = xcb_get_keyboard_mapping_keysyms(reply) else { return 0 }
        let perKeycode = Int(reply.pointee.keysyms_per_keycode)
        let length = Int(xcb_get_keyboard_mapping_keysyms_length(reply))
        let wanted = key.unicodeScalars.first!.value
        guard let index = stride(from: 0, to: length, by: perKeycode).first(where: { keysyms[$0] == wanted }) else { return 0 }
        return xcb_keycode_t(Int(setup.min_keycode) + index / perKeycode)
    }
}
