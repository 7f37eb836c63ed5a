import CVulkan.XCB
import CXCBInput
import Foundation
import Glibc
import GPUTestSupport
import Testing

/// EmbedInGTK on Xvfb (GTK 4 with GDK_BACKEND=x11): the SwiftGPU view shows the triangle
/// through each route, a GTK button clicked with XTest changes the picture, and hiding the
/// view stops its submissions until it is shown again.
@Suite("GTK 4 embedding under Xvfb")
struct GTKEmbeddingTests {
    /// The example on `server`, with its announced window, view rectangle and control centres.
    struct Running {
        let child: SpawnedProcess
        let lines: LineReader
        let window: UInt32
        let route: String
        let view: (x: Int, y: Int, width: Int, height: Int)
        let controls: [String: (Int, Int)]
    }

    static func launch(route: String, on server: XvfbServer) throws -> Running {
        var environment = ExampleProgram.environment(server)
        environment["GDK_BACKEND"] = "x11"
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("gtk-runtime-\(getpid())")
        try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = runtime.path
        let child = try SpawnedProcess(try ExampleProgram.executable("EmbedInGTK").path, ["--route", route, "--size", "160x120"],
                                       environment: environment)
        let lines = LineReader(child.output)
        func words(_ prefix: String) -> [Substring] { lines.next(containing: prefix)?.split(separator: " ") ?? [] }
        let announced = words("window ")
        let view = words("view at ").compactMap { Int($0) }
        var controls: [String: (Int, Int)] = [:]
        for name in ["colour", "show", "quit"] {
            let numbers = words("\(name) at ").compactMap { Int($0) }
            if numbers.count == 2 { controls[name] = (numbers[0], numbers[1]) }
        }
        guard announced.count >= 4, let window = UInt32(announced[1]), view.count == 4, controls.count == 3 else {
            kill(child.pid, SIGKILL)
            waitpid(child.pid, nil, 0)
            throw XcbConnection.Failure(description: "EmbedInGTK announced no window, view or controls")
        }
        return Running(child: child, lines: lines, window: window, route: announced[3...].joined(separator: " "),
                       view: (view[0], view[1], view[2], view[3]), controls: controls)
    }

    /// Clicks the window's point (`x`, `y`) with XTest.
    static func click(_ x: XcbConnection, _ window: UInt32, at point: (Int, Int)) {
        let reply = xcb_translate_coordinates_reply(
            x.connection, xcb_translate_coordinates(x.connection, window, x.screen.root, Int16(point.0), Int16(point.1)), nil)
        defer { free(reply) }
        let raw = UnsafeMutableRawPointer(x.connection)
        swiftgpu_xtest_motion(raw, x.screen.root, reply?.pointee.dst_x ?? 0, reply?.pointee.dst_y ?? 0)
        swiftgpu_xtest_button(raw, 1, 1)
        swiftgpu_xtest_button(raw, 1, 0)
    }

    /// The pixel at the window's point (`px`, `py`), BGR.
    static func pixel(_ x: XcbConnection, _ window: UInt32, _ px: Int, _ py: Int) throws -> [UInt8] {
        let geometry = xcb_get_geometry_reply(x.connection, xcb_get_geometry(x.connection, window), nil)
        defer { free(geometry) }
        return try x.pixel(of: window, width: Int(geometry?.pointee.width ?? 0), height: Int(geometry?.pointee.height ?? 0), x: px, y: py)
    }

    /// Reads the view's corner until it is `expected` (BGR, within 2 per channel): GTK paints
    /// the frame after the view has drawn it. False after 5 s.
    static func cornerBecomes(_ expected: [Int], _ x: XcbConnection, _ running: Running) throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            let pixel = try Self.pixel(x, running.window, running.view.x + 3, running.view.y + 3)
            if zip(pixel, expected).allSatisfy({ abs(Int($0) - $1) <= 2 }) { return true }
        } while Date() < deadline
        return false
    }

    @Test("each route shows the triangle; the Colour button changes it; hiding the view stops its submissions",
          arguments: [("import", "imported memory"), ("copy", "memory texture copy")])
    func embedInGTK(route: String, expectedRoute: String) throws {
        let server = try XvfbServer()
        let x = try XcbConnection(display: server.display)
        let running = try Self.launch(route: route, on: server)
        defer {
            kill(running.child.pid, SIGKILL)
            waitpid(running.child.pid, nil, 0)
        }
        #expect(running.route == expectedRoute)
        // Clear colour 0 is (0.1, 0.1, 0.3): BGR (77, 26, 26) in the view's corner; the red top
        // vertex near its top centre.
        #expect(try Self.cornerBecomes([77, 26, 26], x, running))
        let top = try Self.pixel(x, running.window, running.view.x + running.view.width / 2,
                                 running.view.y + running.view.height * 15 / 100)
        #expect(top[2] > 150 && top[1] < 80 && top[0] < 80, "red at the top (BGR): \(top)")
        // The Colour button: the next frame clears to (0.1, 0.3, 0.1).
        Self.click(x, running.window, at: running.controls["colour"]!)
        #expect(running.lines.next(containing: "with colour 1") != nil)
        #expect(try Self.cornerBecomes([26, 77, 26], x, running))
        // Hidden, the view is unmapped: the app goes to the background and nothing is
        // submitted over the window's next frames; shown, it draws again.
        Self.click(x, running.window, at: running.controls["show"]!)
        let hidden = try #require(running.lines.next(containing: "view hidden after"))
        #expect(hidden.hasSuffix("lifecycle background"), "\(hidden)")
        let submitted = try #require(hidden.split(separator: " ").dropFirst(3).first.flatMap { Int($0) })
        let held = try #require(running.lines.next(containing: "hidden for 10 window frames"))
        #expect(held == "hidden for 10 window frames: \(submitted) submissions")
        Self.click(x, running.window, at: running.controls["show"]!)
        let shown = try #require(running.lines.next(containing: "view shown after"))
        #expect(shown.hasSuffix(": \(submitted) submissions (\(submitted) at hiding)"), "\(shown)")
        #expect(running.lines.next(containing: "drawn \(submitted + 1) ") != nil, "drawing resumed")
        #expect(try Self.cornerBecomes([26, 77, 26], x, running))
        Self.click(x, running.window, at: running.controls["quit"]!)
        var status: Int32 = 0
        #expect(waitpid(running.child.pid, &status, 0) == running.child.pid)
        #expect(status == 0)
    }
}
