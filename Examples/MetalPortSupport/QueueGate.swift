import GPU
import Metal

/// Holds a queue's GPU work, as a busy GPU would: the command buffers committed to the
/// queue after the gate wait (committed, not completed) until it opens. A port uses it to
/// keep its sample's frames in flight and see how many the sample lets be.
public final class QueueGate {
    /// The event the gate's command buffer waits for.
    private let event: SharedEvent

    /// Closes `queue` (a SwiftGPU queue): a command buffer that waits for an event is
    /// committed to it, and the buffers committed after it wait with it.
    public init(holding queue: any MTLCommandQueue) throws {
        guard let queue = queue as? CommandQueue else { fatalError("QueueGate: \(type(of: queue)) is not a SwiftGPU queue") }
        event = try queue.device.makeSharedEvent()
        let gate: CommandBuffer = try queue.makeCommandBuffer()
        gate.encodeWaitForEvent(event, value: 1)
        gate.commit()
    }

    /// Lets the held work go.
    public func open() {
        event.signaledValue = 1
    }
}
