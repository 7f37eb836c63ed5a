import SwiftGPUSupport

/// Orders encoders that use untracked resources, Metal's `MTLFence`: an encoder's
/// `waitForFence` makes its later commands wait for the commands of the encoders that
/// called `updateFence` before it, in the same command buffer or an earlier one on the
/// queue.
///
/// A fence is no Vulkan object: the wait is a pipeline barrier from every earlier write
/// (inside a command buffer), which a render pass's own opening barrier already is, and
/// every command buffer ends with such a barrier, which orders later ones on the queue.
///
/// `@unchecked Sendable`: the label is in a `LockedValue`; the device is immutable.
public final class Fence: @unchecked Sendable {
    /// The device that made the fence.
    public let device: Device

    init(device: Device) { self.device = device }

    /// A name for debugging, Metal's `label`: misuse messages name the fence by it.
    public var label: String? {
        get { labelStorage.withLock { $0 } }
        set { labelStorage.withLock { $0 = newValue } }
    }
    private let labelStorage = LockedValue<String?>(nil, rank: .leaf("Fence.label"))

    /// Keeps the fence with `context`'s command buffer until it completes. Stops, naming
    /// `call`, for a fence of another device than `commandBuffer`'s.
    func use(in context: CommandRecorder, by commandBuffer: CommandBuffer, call: StaticString) {
        if device !== commandBuffer.device {
            misuse("\(call): the fence\(label.map { " '\($0)'" } ?? "") belongs to another device than the command buffer's")
        }
        context.encoding.retained.append(self)
    }
}

/// The stages of a render pass's draws, Metal's `MTLRenderStages`: where a render encoder's
/// fence update or wait applies.
public struct RenderStages: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: UInt
    /// Wraps raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The vertex stage.
    public static let vertex = RenderStages(rawValue: 1 << 0)
    /// The fragment stage.
    public static let fragment = RenderStages(rawValue: 1 << 1)
}

extension Device {
    /// Makes a fence, Metal's `makeFence()`.
    public func makeFence() -> Fence { Fence(device: self) }
}
