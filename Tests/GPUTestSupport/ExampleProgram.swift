import Foundation

/// The package's example programs, run by tests as a user would.
package enum ExampleProgram {
    /// The example's executable, built beside the test bundle by `swift build`/`swift test`.
    package static func executable(_ name: String) throws -> URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url
    }

    /// The release build of the executable product `name`, beside the tests' debug build
    /// (`swift build -c release --product NAME`; `scripts/test.sh` makes it before the
    /// real-clock tests): for measurements of what an app ships.
    package static func releaseExecutable(_ name: String) throws -> URL {
        let debug = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = debug.deletingLastPathComponent().appendingPathComponent("release").appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [
                NSFilePathErrorKey: url.path,
                NSLocalizedDescriptionKey: "no release build of \(name) at \(url.path): run `swift build -c release --product \(name)`",
            ])
        }
        return url
    }

    /// The environment an example runs in: the test's own, with the Vulkan driver and the
    /// validation layer the tests use, and any validation message turned into exit status
    /// 70, so that every test that expects a clean exit fails on one.
    package static func environment() -> [String: String] {
        TestEnvironment.prepare()
        var environment = ProcessInfo.processInfo.environment
        environment["GPU_VALIDATION_EXIT_STATUS"] = String(validationExitStatus)
        return environment
    }

    /// The exit status of an example that received a validation message.
    package static let validationExitStatus: Int32 = 70

    /// The environment a windowed example runs in on `server`.
    package static func environment(_ server: XvfbServer) -> [String: String] {
        var environment = Self.environment()
        environment["DISPLAY"] = server.display
        environment["QT_QPA_PLATFORM"] = "xcb"   // Qt examples: X11, not Wayland or offscreen
        return environment
    }
}
