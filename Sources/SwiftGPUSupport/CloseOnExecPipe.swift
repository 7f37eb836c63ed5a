import Glibc

/// A one-way channel, `(read, write)`, that no child process inherits: a close-on-exec
/// socket pair (Glibc's module has no pipe2), or nil when none can be made. The self-pipes
/// of the signal adapter and the power monitor use it, and so do the tests for a spawned
/// child's output: a child that should have an end gets it by `dup2`, which clears the flag
/// there (also onto the same number), so the child needs no close of the other end.
package func closeOnExecPipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
    return (fds[0], fds[1])
}
