import Foundation
import Synchronization

/// A thread a test starts, known to a fault-injector pause so the pause holds this thread
/// alone (`pause(at:when: thread.isCurrent)`, armed before `start`): a service thread that
/// makes the same Vulkan call at the same moment passes the pause.
struct NamedThread: Sendable {
    private let name: String
    private let done = DispatchSemaphore(value: 0)
    /// The thread's `pthread_self()` as an integer, 0 until it starts.
    private let identity = SharedIdentity()

    private final class SharedIdentity: Sendable {
        let value = Atomic<UInt>(0)
    }

    /// A thread named `name`, not yet started.
    init(_ name: String) { self.name = name }

    /// Whether the calling thread is this one.
    var isCurrent: @Sendable () -> Bool {
        { [identity] in identity.value.load(ordering: .acquiring) == UInt(pthread_self()) }
    }

    /// Runs `body` on the new thread.
    func start(_ body: @escaping @Sendable () -> Void) {
        let (done, identity) = (done, identity)
        let thread = Thread {
            identity.value.store(UInt(pthread_self()), ordering: .releasing)
            body()
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Blocks until the body has returned.
    func join() { done.wait() }
}
