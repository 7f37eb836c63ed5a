import FramePacing
import SwiftGPUSupport

/// A GPU/CPU synchronisation counter, Metal's `MTLSharedEvent`, on a Vulkan timeline
/// semaphore. Command buffers on any queue of the device wait for and signal values.
///
/// `@unchecked Sendable`: the semaphore handle is immutable and timeline semaphores are
/// thread-safe; the notification state is guarded by its listener's lock.
public final class SharedEvent: @unchecked Sendable {
    /// The device that made the event.
    public let device: Device
    let timeline: QueueSubmitter
    fileprivate let listener: EventListener

    init(device: Device) throws(GPUError) {
        self.device = device
        do {
            timeline = try QueueSubmitter(device: device.backend)
        } catch {
            throw .vulkan(error)
        }
        listener = EventListener(timeline: timeline)
    }

    deinit { listener.stop() }

    /// The counter's value. Setting it signals from the CPU; the new value must be
    /// greater than the current one. Command buffers held for a value it reaches are
    /// submitted on the setting thread, as `commit()` submits on the committing one;
    /// `notify` blocks run on the listener thread.
    public var signaledValue: UInt64 {
        get { (try? timeline.value()) ?? 0 }
        set {
            let current = signaledValue
            guard newValue > current else {
                misuse("signaledValue set to \(newValue), which is not greater than the current \(current)")
            }
            try? timeline.signal(newValue)
            for waiter in listener.valueChanged(reaching: newValue) where !waiter.block(false) {
                // It would have had to wait (another thread is submitting on that queue):
                // the listener thread does it instead, so that this setter never blocks on
                // another thread's scheduled handlers.
                listener.add(value: waiter.value, block: waiter.block)
            }
        }
    }

    /// How many times the event's listener thread has woken (see `EventListener`).
    var listenerWakeups: Int { listener.wakeupCount }

    /// Calls `block` on the event's listener thread once the value reaches `value` (at once,
    /// there, if it already has). The thread sleeps on a condition variable until the value
    /// changes: no polling.
    public func notify(atValue value: UInt64, block: @escaping @Sendable (SharedEvent, UInt64) -> Void) {
        listener.add(value: value) { [self] _ in
            block(self, value)
            return true
        }
    }
}

extension SharedEvent {
    /// Runs `block` once the value reaches `value`: first on the thread that sets
    /// `signaledValue` to it, with `mayWait` false (the block returns false when it could
    /// not do its work without waiting for another thread), else on the listener thread,
    /// with `mayWait` true; and there too when a command buffer signals the value.
    func whenReached(_ value: UInt64, _ block: @escaping @Sendable (_ mayWait: Bool) -> Bool) {
        listener.add(value: value, onSettingThread: true, block: block)
    }

    /// Called when a command buffer that signals this event has completed.
    func gpuSignalled() { listener.valueChanged() }
}

extension Device {
    /// Makes a shared event starting at 0.
    public func makeSharedEvent() throws(GPUError) -> SharedEvent {
        try SharedEvent(device: self)
    }
}

extension CommandBuffer {
    /// Makes the GPU wait, before this buffer's work, until `event` reaches `value`.
    /// SwiftGPU applies waits at the start of the command buffer, and holds the buffer
    /// (`.committed`, with the buffers enqueued after it) until the value is reached, so
    /// that queues sharing one Vulkan queue never deadlock on each other.
    public func encodeWaitForEvent(_ event: SharedEvent, value: UInt64) {
        addEventOperation(event, value: value, call: #function, isWait: true)
    }

    /// Makes the GPU set `event` to `value` after this buffer's work. SwiftGPU applies
    /// signals at the end of the command buffer.
    public func encodeSignalEvent(_ event: SharedEvent, value: UInt64) {
        addEventOperation(event, value: value, call: #function, isWait: false)
    }

    private func addEventOperation(_ event: SharedEvent, value: UInt64, call: String, isWait: Bool) {
        if !isWait {
            // An event's value never goes down, through the GPU either (Vulkan forbids it).
            let current = event.signaledValue
            guard value > current else {
                misuse("\(call) with \(value), which is not greater than the event's current \(current)")
            }
        }
        withEngineLock { record.addEventOperation(event, value: value, isWait: isWait, call: call) }
    }
}

/// The thread behind `SharedEvent.notify`. The event's value changes in two places only,
/// both SwiftGPU's: `signaledValue`'s setter and the completion of a command buffer that
/// signals the event. Each calls `valueChanged()`, which wakes this thread on a condition
/// variable; it reads the value and runs the blocks that are due. No Vulkan wait: a
/// `vkWaitSemaphores` for the value *or* a wake semaphore is, on Mesa drivers without
/// native wait-any, a busy loop of zero-timeout polls.
///
/// `@unchecked Sendable`: mutable state is guarded by `lock`.
private final class EventListener: @unchecked Sendable {
    private let timeline: QueueSubmitter
    private let lock = ConditionLock(rank: .leaf("SharedEvent.lock"))
    /// Blocks due at a value; `onSettingThread` ones run on the thread that sets the value
    /// from the CPU, when it does (no wakeup of this thread in between).
    private var waiters: [Waiter] = []

    /// A block due at a value; it returns false when, run on a setting thread (`mayWait`
    /// false), it could not do its work without waiting.
    struct Waiter {
        var value: UInt64
        var onSettingThread: Bool
        var block: @Sendable (_ mayWait: Bool) -> Bool
    }
    /// Bumped by every change that may make a waiter due.
    private var changes: UInt64 = 0
    private var wakeups = 0
    private var thread: ServiceThread?
    private var isStopping = false

    init(timeline: QueueSubmitter) {
        self.timeline = timeline
    }

    /// How many times the thread has woken to compare the value with the waiters: what the
    /// event's notifications cost in wakeups.
    var wakeupCount: Int { lock.withLock { wakeups } }

    func add(value: UInt64, onSettingThread: Bool = false, block: @escaping @Sendable (_ mayWait: Bool) -> Bool) {
        lock.withLock {
            waiters.append(Waiter(value: value, onSettingThread: onSettingThread, block: block))
            if thread == nil {
                thread = ServiceThread.start(name: "SwiftGPU.event", running: self) { $0.run() }
            }
            changes += 1
            lock.broadcast()
        }
    }

    /// Wakes the thread to compare the event's value with the pending ones.
    func valueChanged() {
        lock.withLock {
            changes += 1
            lock.broadcast()
        }
    }

    /// The CPU set the value to `value`: takes the waiters due then that run on the setting
    /// thread (the caller runs them, with no lock held), and wakes the thread only when
    /// one of its own waiters is due (a signal that releases held command buffers alone
    /// wakes no thread).
    func valueChanged(reaching value: UInt64) -> [Waiter] {
        lock.withLock {
            if waiters.contains(where: { !$0.onSettingThread && $0.value <= value }) {
                changes += 1
                lock.broadcast()
            }
            guard waiters.contains(where: { $0.onSettingThread && $0.value <= value }) else { return [] }
            let due = waiters.filter { $0.onSettingThread && $0.value <= value }
            waiters.removeAll { $0.onSettingThread && $0.value <= value }
            return due
        }
    }

    /// Stops the thread and joins it.
    func stop() {
        let running = lock.withLock { () -> ServiceThread? in
            isStopping = true
            lock.broadcast()
            return thread
        }
        running?.join()
    }

    func run() {
        var seen: UInt64 = 0
        while true {
            let proceed = lock.withLock { () -> Bool in
                lock.wait { isStopping || changes != seen }
                seen = changes
                wakeups += 1
                return !isStopping
            }
            // The value is read inside the burst too: it is a call into the driver.
            guard proceed, ServiceActivity.begin() else { return }
            defer { ServiceActivity.end() }
            guard let current = try? timeline.value() else { return }
            let due = lock.withLock { () -> [@Sendable (Bool) -> Bool] in
                let due = waiters.filter { $0.value <= current }.map(\.block)
                waiters.removeAll { $0.value <= current }
                return due
            }
            for block in due { _ = block(true) }
        }
    }
}
