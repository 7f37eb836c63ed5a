import Logging
import SwiftGPUSupport

/// One message from the Khronos validation layer.
public struct ValidationMessage: Sendable, CustomStringConvertible {
    /// `error` or `warning`.
    public var severity: String
    /// The layer's message id name, e.g. `VUID-vkCmdDispatch-None-02697`.
    public var id: String
    /// The full message.
    public var text: String
    /// `"[error] VUID-...: text"`.
    public var description: String { "[\(severity)] \(id): \(text)" }
}

/// What the validation layer has reported in this process. Tests fail on any message.
public enum Validation {
    private static let lock = ConditionLock(rank: .leaf("VulkanDebugMessenger.lock"))
    private nonisolated(unsafe) static var stored: [ValidationMessage] = []
    private nonisolated(unsafe) static var count = 0
    private static let logger = Logger(label: "SwiftGPU.validation")

    /// Whether `GPU_VALIDATION` asks for the validation layer (`1`, `true` or `sync`; `sync`
    /// adds synchronization validation). Read when the process's Vulkan instance is made.
    public static var isRequested: Bool { mode != .off }

    /// Whether the running instance was made with the validation layer on.
    public static var isEnabled: Bool { validationLayerIsEnabled() }

    /// How many validation errors and warnings this process has received.
    public static var messageCount: Int { lock.withLock { count } }

    /// The messages received so far (at most the first 100 are kept).
    public static var messages: [ValidationMessage] { lock.withLock { stored } }

    enum Mode { case off, standard, synchronization }

    static var mode: Mode {
        switch environment("GPU_VALIDATION")?.lowercased() {
        case "1", "true", "yes", "on": .standard
        case "sync", "synchronization": .synchronization
        default: .off
        }
    }

    static func record(_ message: ValidationMessage, isError: Bool) {
        lock.withLock {
            count += 1
            if stored.count < 100 { stored.append(message) }
        }
        if isError { logger.error("\(message)") } else { logger.warning("\(message)") }
    }
}

