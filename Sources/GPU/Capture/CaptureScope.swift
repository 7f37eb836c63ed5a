import SwiftGPUSupport

/// Custom boundaries of a GPU capture, as Metal's `MTLCaptureScope`: a capture started
/// with a scope as its object runs from the scope's next `begin()` to its `end()`. Made by
/// `CaptureManager.makeCaptureScope(device:)` or `makeCaptureScope(commandQueue:)`.
/// Outside such a capture, `begin()` and `end()` do nothing, so they may stay in the
/// app's code.
///
/// `@unchecked Sendable`: `device` and `commandQueue` are immutable, the label is behind
/// its lock.
public final class CaptureScope: @unchecked Sendable {
    /// The device the scope was made for.
    public let device: Device
    /// The queue the scope was made for, if it was made for one. RenderDoc captures every
    /// queue of the device, so it does not narrow what is captured.
    public let commandQueue: CommandQueue?
    private let manager: CaptureManager
    private let storedLabel = LockedValue<String?>(nil, rank: .leaf("CaptureScope.label"))

    init(device: Device, commandQueue: CommandQueue?, manager: CaptureManager) {
        self.device = device
        self.commandQueue = commandQueue
        self.manager = manager
    }

    /// A name for the scope.
    public var label: String? {
        get { storedLabel.withLock { $0 } }
        set { storedLabel.withLock { $0 = newValue } }
    }

    /// Starts the capture armed on this scope, if there is one; otherwise does nothing.
    public func begin() {
        manager.scopeBegan(self, "CaptureScope.\(#function)")
    }

    /// Ends the capture this scope's `begin()` started, writing it; otherwise does nothing.
    public func end() {
        manager.scopeEnded(self, "CaptureScope.\(#function)")
    }
}
