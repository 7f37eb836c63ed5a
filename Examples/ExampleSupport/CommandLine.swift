import Foundation

/// Prints a line and sends it at once: a test reads the lines through a pipe as they come.
public func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// The value after `name` on the command line (`--size 640x480`), if there is one.
public func option(_ name: String) -> String? {
    CommandLine.arguments.firstIndex(of: name).flatMap { $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil }
}

/// Says "error: `message`" and exits with status 1.
public func fail(_ message: String) -> Never {
    say("error: \(message)")
    exit(1)
}
