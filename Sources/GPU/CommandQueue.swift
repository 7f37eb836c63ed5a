import SwiftGPUSupport
import Dispatch

/// A queue of command buffers, Metal's `MTLCommandQueue`. Buffers are scheduled in the
/// order they were enqueued, and complete in that order.
///
/// `@unchecked Sendable`: stored properties are immutable; the shared state lives in the
/// engine, behind its locks.
public final class CommandQueue: @unchecked Sendable {
    /// The device that made the queue.
    public var device: Device {
        switch owner {
        case .app(let device): device
        case .device(let device): device.value
        }
    }
    /// How the queue holds its device: strongly, or unowned for the device's own queue
    /// (which the device holds).
    private let owner: Owner
    /// The queue's label.
    public let label: String?
    /// How many command buffers may be alive and not completed at once.
    public let maxCommandBufferCount: Int
    let engine: QueueEngine

    enum Owner {
        case app(Device)
        case device(UnownedDevice)
    }

    /// An unowned reference to a device.
    struct UnownedDevice {
        unowned let value: Device
    }

    init(device: Device, maxCommandBufferCount: Int, label: String?, qos: DispatchQoS.QoSClass,
         ownedByDevice: Bool = false, candidateClock: any DisplayClock = Recycler.candidateClock) throws(GPUError) {
        owner = ownedByDevice ? .device(UnownedDevice(value: device)) : .app(device)
        self.label = label
        self.maxCommandBufferCount = maxCommandBufferCount
        do {
            // The device's own queue is committed to from app queues' scheduled handlers (a
            // drawable's own present()), so its submit lock ranks after theirs.
            engine = try QueueEngine(device: device, maxCommandBufferCount: maxCommandBufferCount,
                                     label: label ?? "SwiftGPU.queue", qos: qos,
                                     submitRank: ownedByDevice ? .deviceQueueSubmit : .queueSubmit, candidateClock: candidateClock)
        } catch {
            throw .vulkan(error)
        }
    }

    deinit { engine.shutdown() }

    /// Makes a command buffer, blocking while `maxCommandBufferCount` buffers are alive and
    /// not completed.
    public func makeCommandBuffer() throws(GPUError) -> CommandBuffer {
        try makeCommandBuffer(options: CommandBufferOptions())
    }

    /// Makes a command buffer with the options in `descriptor` (copied), blocking while
    /// `maxCommandBufferCount` buffers are alive and not completed.
    public func makeCommandBuffer(descriptor: CommandBufferDescriptor) throws(GPUError) -> CommandBuffer {
        try makeCommandBuffer(options: descriptor.options)
    }

    /// Makes a command buffer with `options`.
    func makeCommandBuffer(options: CommandBufferOptions) throws(GPUError) -> CommandBuffer {
        let context: CommandRecorder
        var spare: CommandBuffer?
        do {
            (context, spare) = try engine.acquire()
        } catch {
            throw .vulkan(error)
        }
        // Moved out, so that the call below uses this function's reference, not a copy.
        if let spare = spare.take() {
            // The context moves into the record.
            spare.reuse(queue: self, context: consume context, options: options)
            return spare
        }
        return CommandBuffer(queue: self, context: context, options: options)
    }
}
