import Glibc

/// Names the calling thread for the system (`/proc/self/task/*/comm`, debuggers, `top -H`):
/// its first 15 bytes, Linux's limit. Foundation's `Thread.name` does not reach the system
/// on Linux, and Glibc's module has no `pthread_setname_np`; the thread's `comm` file is
/// what that function writes.
package func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
