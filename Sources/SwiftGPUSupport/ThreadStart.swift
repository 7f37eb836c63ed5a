import Glibc

/// Starts a detached thread that runs `body`, with pthreads directly. Foundation's
/// `Thread` starts through Foundation's and CoreFoundation's thread bookkeeping (the
/// thread's dictionary, its thread-specific data, the main thread's object), code that
/// would otherwise be loaded and stay resident in every process that uses SwiftGPU.
/// Stops with a message if the system refuses the thread (no memory, or the process's
/// thread limit reached).
package func startThread(_ body: @escaping @Sendable () -> Void) {
    let start = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let result = pthread_create(&thread, &attributes, { start in
        Unmanaged<ThreadBody>.fromOpaque(start!).takeRetainedValue().run()
        return nil
    }, start)
    if result != 0 {
        Unmanaged<ThreadBody>.fromOpaque(start).release()
        fatalError("SwiftGPU could not start a thread: \(String(cString: strerror(result)))")
    }
}

/// What a thread started by `startThread` runs, handed to it through a retained pointer.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
