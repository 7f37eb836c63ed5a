import Dispatch
import Glibc

/// A named thread that runs `body(object)` for a queue's completions or an event's
/// notifications, scheduled as its quality of service says (`ThreadScheduling`), and that
/// its owner joins when it goes away.
///
/// The thread releases `object` before it reports itself finished, so once `join()`
/// returns, every Vulkan object the thread touched is released on the joining thread:
/// never during thread-local teardown (where Vulkan layers must not run) and never while
/// the process is exiting.
///
/// `@unchecked Sendable`: `finished` and `thread` are guarded by `lock`.
package final class ServiceThread: @unchecked Sendable {
    private let lock = ConditionLock(rank: .leaf("ServiceThread.lock"))
    private var finished = false
    private var thread: pthread_t?

    /// Starts the thread.
    package static func start<Object: AnyObject & Sendable>(
        name: String, qos: DispatchQoS.QoSClass = .default, running object: Object,
        _ body: @escaping @Sendable (Object) -> Void
    ) -> ServiceThread {
        let service = ServiceThread()
        let handoff = Unmanaged.passRetained(object)
        startThread {
            nameCurrentThread(name)
            service.lock.withLock { service.thread = pthread_self() }
            ThreadScheduling.apply(qos)
            var object: Object? = handoff.takeRetainedValue()
            body(object!)
            // The release may tear down Vulkan objects: never while the process exits.
            if ServiceActivity.begin() {
                object = nil
                ServiceActivity.end()
            } else if let object {
                _ = Unmanaged.passRetained(object)
            }
            service.lock.withLock {
                service.finished = true
                service.lock.broadcast()
            }
        }
        return service
    }

    /// Waits until the thread has finished, unless called on that thread itself.
    package func join() {
        lock.withLock {
            if let thread, pthread_equal(thread, pthread_self()) != 0 { return }
            lock.wait { finished }
        }
    }
}
