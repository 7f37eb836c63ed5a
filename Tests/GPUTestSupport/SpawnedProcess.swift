import Foundation
import Glibc
import SwiftGPUSupport

/// A child process started with posix_spawn, its standard output on a pipe, so that the
/// test itself can wait for it to stop (`WUNTRACED`). It inherits no other descriptor of
/// the test process: libraries there open some without close-on-exec, and a child holding
/// another test's socket or X connection keeps it open past that test's end.
package struct SpawnedProcess {
    package let pid: pid_t
    package let output: FileHandle

    /// `standardError`, when given, is a file the child's standard error goes to (made or
    /// truncated); without it the child writes to the test's own.
    package init(_ path: String, _ arguments: [String], environment: [String: String], standardError: String? = nil) throws {
        guard let fds = closeOnExecPipe() else { throw CocoaError(.fileWriteUnknown) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds.write, 1)
        if let standardError {
            posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        addCloseFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // A clean signal mask and default dispositions, not the test thread's.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(fds.write)
        guard result == 0 else { throw CocoaError(.executableLoad) }
        self.pid = pid
        output = FileHandle(fileDescriptor: fds.read, closeOnDealloc: true)
    }
}

/// Reads a pipe line by line, blocking up to a deadline.
package final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    package init(_ handle: FileHandle) { self.handle = handle }

    /// The next line that contains `text`; nil at end of file, or when no such line came
    /// within `limit` (a child that never prints it fails the test instead of hanging it).
    package func next(containing text: String, within limit: Duration = .seconds(120)) -> String? {
        let deadline = ContinuousClock.now + limit
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.contains(text) { return line }
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1,
                                         Int64(Int32.max)))
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
