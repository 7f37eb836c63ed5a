import Glibc

/// A one-way channel for a spawned child's output: a close-on-exec socket pair, `[read,
/// write]`, or nil when none can be made. Close-on-exec, so that no child spawned meanwhile
/// by a concurrent test inherits an end (an inherited write end holds the channel open past
/// the child's exit), and so that the child needs no close of the read end: when that end
/// was fd 3, closing it after the dup2 onto 3 took Xvfb's `-displayfd` away. Glibc's module
/// has no pipe2.
func closeOnExecPipe() -> [Int32]? {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
    return fds
}
