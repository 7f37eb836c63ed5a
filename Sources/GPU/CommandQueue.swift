import Foundation

/// A queue of command buffers, Metal's `MTLCommandQueue`. Buffers are scheduled in the
/// order they were enqueued, and complete in that order.
///
/// `@unchecked Sendable`: stored properties are immutable; the shared state lives in the
/// engine, behind its locks.
public final class CommandQueue: @unchecked Sendable {
    /// The device that made the queue.
    public let device: Device
    /// The queue's label.
    public let label: String?
    /// How many command buffers may be alive and not completed at once.
    public let maxCommandBufferCount: Int
    let engine: QueueEngine

    init(device: Device, maxCommandBufferCount: Int, label: String?, qos: QualityOfService) throws(GPUError) {
        self.device = device
        self.label = label
        self.maxCommandBufferCount = maxCommandBufferCount
        do {
            engine = try QueueEngine(device: device, maxCommandBufferCount: maxCommandBufferCount,
                                     label: label ?? "SwiftGPU.queue", qos: qos)
        } catch {
            throw .vulkan(error)
        }
    }

    deinit { engine.shutdown() }

    /// Makes a command buffer, blocking while `maxCommandBufferCount` buffers are alive and
    /// not completed.
    public func makeCommandBuffer(descriptor: CommandBufferDescriptor = CommandBufferDescriptor()) throws(GPUError) -> CommandBuffer {
        let acquired: (context: VulkanCommandContext, spare: CommandBuffer?)
        do {
            acquired = try engine.acquire()
        } catch {
            throw .vulkan(error)
        }
        if let spare = acquired.spare {
            spare.reuse(queue: self, context: acquired.context, descriptor: descriptor)
            return spare
        }
        return CommandBuffer(queue: self, context: acquired.context, descriptor: descriptor)
    }
}
