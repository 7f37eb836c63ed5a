import CFutex

/// Where a lock stands in SwiftGPU's lock order (docs/ARCHITECTURE.md, "Lock order"): a
/// thread may take a lock only while every lock it holds has a lower level. Leaves have the
/// highest level, so a thread holding one takes no other lock.
///
/// Debug builds check the order at every acquisition (before the thread can block on the
/// lock) and stop with both locks' names when it is broken; release builds store no rank and
/// check nothing.
public struct LockRank: Sendable {
    /// The position in the order: lower levels are taken first.
    public let level: UInt32
    /// The lock's name in messages, e.g. `QueueEngine.lock`.
    public let name: StaticString

    /// A rank at `level` named `name`, for a lock outside the list below (a test's).
    package init(level: UInt32, name: StaticString) {
        self.level = level
        self.name = name
    }

    /// The lock that makes devices one at a time (the validation layer's device map is not
    /// thread-safe); held while a device is made.
    package static let deviceCreation = LockRank(level: 5, name: "Device.creationLock")
    /// The lock around the process's one Vulkan instance, held while it is made (which
    /// registers the exit guard, `ServiceActivity`'s leaf).
    package static let vulkanInstance = LockRank(level: 7, name: "BackendInstance.lock")
    /// `Device`'s lock for making the device's own queue: taken by a drawable's own
    /// `present()`, which may run in a scheduled handler (an app queue's submit lock held);
    /// making the queue takes the gate's lock.
    package static let deviceInternalQueue = LockRank(level: 45, name: "Device.internalQueueLock")
    /// A queue's submission lock (recursive; held while scheduled handlers run).
    package static let queueSubmit = LockRank(level: 20, name: "QueueEngine.submitLock")
    /// The device's own queue's submission lock: after app queues', whose scheduled
    /// handlers may present a drawable through the device's queue.
    package static let deviceQueueSubmit = LockRank(level: 25, name: "QueueEngine.submitLock (device's queue)")
    /// A window layer's acquisition and swapchain recreation lock.
    package static let windowAcquire = LockRank(level: 30, name: "WindowPresenter.acquireLock")
    /// A layer's lock, shared by its drawable source.
    package static let layer = LockRank(level: 40, name: "Layer.lock")
    /// A queue engine's state lock.
    package static let queueEngine = LockRank(level: 50, name: "QueueEngine.lock")
    /// The lifecycle gate's lock.
    package static let lifecycleGate = LockRank(level: 60, name: "LifecycleGate.lock")
    /// A display link's state lock.
    package static let displayLink = LockRank(level: 70, name: "DisplayLink.state")

    /// The GPU capture manager's lock, held around RenderDoc's start and end of a capture;
    /// RenderDoc's own Vulkan calls then may report to the debug messenger (a leaf).
    package static let captureManager = LockRank(level: 80, name: "CaptureManager.lock")

    /// An image's lock around its view cache, held while a missing view is made through the
    /// Vulkan funnel (whose fault injector's lock is a leaf).
    package static let imageViews = LockRank(level: 90, name: "ImageAllocation.viewLock")

    /// A leaf: held only around its own state, calling nothing that takes a lock.
    package static func leaf(_ name: StaticString) -> LockRank { LockRank(level: leafLevel, name: name) }

    private static let leafLevel: UInt32 = 100

    /// Notes that this thread is about to take `lock`, stopping the program when it holds a
    /// lock at or above this rank (other than `lock` itself, re-entered).
    @usableFromInline @inline(never)
    func noteTaking(_ lock: AnyObject) {
        var heldName: UnsafePointer<CChar>?
        var heldLevel: UInt32 = 0
        let object = UnsafeRawPointer(Unmanaged.passUnretained(lock).toOpaque())
        if swiftgpu_lock_order_push(object, level, cName, &heldName, &heldLevel) == 0 {
            let held = heldName.map { String(cString: $0) } ?? "?"
            fatalError("SwiftGPU lock order: took \(name) (level \(level)) while holding \(held) (level \(heldLevel)); a lock may be taken only while every lock held is of a lower level")
        }
    }

    /// Notes that this thread took `lock` without waiting (a try that succeeded).
    @usableFromInline @inline(never)
    func noteTook(_ lock: AnyObject) {
        swiftgpu_lock_order_push_unchecked(UnsafeRawPointer(Unmanaged.passUnretained(lock).toOpaque()), level, cName)
    }

    /// Notes that this thread let go of `lock`.
    @usableFromInline @inline(never)
    static func noteReleased(_ lock: AnyObject) {
        swiftgpu_lock_order_pop(UnsafeRawPointer(Unmanaged.passUnretained(lock).toOpaque()))
    }

    private var cName: UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
