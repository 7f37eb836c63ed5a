import Foundation
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
    private let lock = ConditionLock()
    private var finished = false
    private var thread: pthread_t?

    /// Starts the thread.
    package static func start<Object: AnyObject & Sendable>(
        name: String, qos: QualityOfService = .default, running object: Object,
        _ body: @escaping @Sendable (Object) -> Void
    ) -> ServiceThread {
        let service = ServiceThread()
        let handoff = Unmanaged.passRetained(object)
        let thread = Thread {
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
        thread.name = name
        thread.start()
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

/// Keeps service threads out of Vulkan while the process exits. A thread brackets each
/// burst of work (finishing buffers, running notifications) with `begin()`/`end()`; an
/// `atexit` handler, registered once the driver is loaded so that it runs before the
/// driver's own destructors, waits for bursts in progress and refuses new ones.
package enum ServiceActivity {
    private static let lock = ConditionLock()
    private nonisolated(unsafe) static var busy = 0
    private nonisolated(unsafe) static var exiting = false

    /// Starts a burst of work; false once the process is exiting (the caller stops).
    package static func begin() -> Bool {
        lock.withLock {
            if exiting { return false }
            busy += 1
            return true
        }
    }

    /// Ends a burst of work.
    package static func end() {
        lock.withLock {
            busy -= 1
            lock.broadcast()
        }
    }

    /// Installs the exit handler; call after the Vulkan driver is loaded.
    package static func installExitHandler() {
        atexit {
            ServiceActivity.lock.withLock {
                ServiceActivity.exiting = true
                ServiceActivity.lock.wait { ServiceActivity.busy == 0 }
            }
        }
    }
}
