/// Where a command buffer is in its life, Metal's `MTLCommandBufferStatus`.
public enum CommandBufferStatus: Int, Sendable, Comparable, CustomStringConvertible {
    /// Made, not yet enqueued: encoders may be made.
    case notEnqueued = 0
    /// Has a place in its queue's order; not yet committed.
    case enqueued = 1
    /// Committed; waits for the buffers enqueued before it to be scheduled.
    case committed = 2
    /// Handed to the GPU (`vkQueueSubmit2` returned success).
    case scheduled = 3
    /// The GPU finished it.
    case completed = 4
    /// It ended in an error; `error` says why.
    case error = 5

    /// Orders statuses along a buffer's life.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True for `.completed` and `.error`.
    public var isTerminal: Bool { self >= .completed }

    /// The status's name.
    public var description: String {
        switch self {
        case .notEnqueued: "notEnqueued"
        case .enqueued: "enqueued"
        case .committed: "committed"
        case .scheduled: "scheduled"
        case .completed: "completed"
        case .error: "error"
        }
    }
}

/// Options for a new command buffer, Metal's `MTLCommandBufferDescriptor` plus the
/// lifecycle flag.
///
/// A class, as in Metal (`let descriptor = CommandBufferDescriptor();
/// descriptor.criticalForDeactivation = true`); `makeCommandBuffer(descriptor:)` copies it.
public final class CommandBufferDescriptor {
    /// Whether the buffer may still commit after the app resigns active (a frame that must
    /// finish during a transition). Buffers made while inactive are otherwise refused.
    public var criticalForDeactivation: Bool
    /// Whether the GPU checks the arguments of the buffer's indirect draws and dispatches
    /// before it uses them (on by default). Counts out of range (group counts over the
    /// device's `maxComputeWorkGroupCount`, vertex or instance ranges past the bound
    /// buffers, more than ``RenderCommandEncoder/maxValidatedIndirectVertices`` vertices
    /// × instances) are replaced by zero, so the command does nothing, and the buffer ends
    /// in `.error` with ``CommandBufferError/invalidIndirectArguments`` naming the first.
    /// Off, the arguments go to the driver as they are, as in Metal: for an app that
    /// guarantees them, which saves a copy and a check per command (see BENCHMARKS.md, B6)
    /// and the split of each render pass into a command buffer of its own.
    public var validatesIndirectArguments: Bool

    /// Makes a descriptor.
    public init(criticalForDeactivation: Bool = false, validatesIndirectArguments: Bool = true) {
        self.criticalForDeactivation = criticalForDeactivation
        self.validatesIndirectArguments = validatesIndirectArguments
    }

    /// The options as they are now.
    var options: CommandBufferOptions {
        CommandBufferOptions(criticalForDeactivation: criticalForDeactivation, validatesIndirectArguments: validatesIndirectArguments)
    }
}

/// The options a command buffer was made with: a descriptor's values, or SwiftGPU's own.
struct CommandBufferOptions: Sendable, Hashable {
    /// See `CommandBufferDescriptor.criticalForDeactivation`.
    var criticalForDeactivation = false
    /// See `CommandBufferDescriptor.validatesIndirectArguments`.
    var validatesIndirectArguments = true
    /// SwiftGPU's own uploads, which the lifecycle gate lets through.
    var isInternal = false
}
