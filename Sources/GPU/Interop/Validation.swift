import Glibc
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
    private nonisolated(unsafe) static var exitCheckInstalled = false
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

    /// With `GPU_VALIDATION_EXIT_STATUS` set to a status other than 0, a process that
    /// received any validation message exits with that status when it exits (through
    /// `exit`, or by returning from `main`), saying so on standard error: a test that runs a program as a child process fails on any message
    /// by checking the exit status alone. Installed once, as the first instance with the
    /// layer is made: `atexit` handlers run in reverse order, so it runs after SwiftGPU's
    /// own exit handlers, whose messages it counts too.
    static func installExitCheck() {
        guard let text = environment("GPU_VALIDATION_EXIT_STATUS"), let status = Int32(text), status != 0 else { return }
        let isNew = lock.withLock { () -> Bool in
            guard !exitCheckInstalled else { return false }
            exitCheckInstalled = true
            exitStatus = status
            return true
        }
        guard isNew else { return }
        atexit { Validation.exitIfReported() }
    }

    /// The status `installExitCheck()` read (under `lock`).
    private nonisolated(unsafe) static var exitStatus: Int32 = 0

    /// Ends the process with `exitStatus` when any message came.
    private static func exitIfReported() {
        let (received, status) = lock.withLock { (count, exitStatus) }
        guard received > 0 else { return }
        fflush(nil)
        let line = "SwiftGPU: \(received) validation message(s) in this process; exiting with status \(status) "
            + "(GPU_VALIDATION_EXIT_STATUS)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        _exit(status)
    }

    static func record(_ message: ValidationMessage, isError: Bool) {
        lock.withLock {
            count += 1
            if stored.count < 100 { stored.append(message) }
        }
        if isError { logger.error("\(message)") } else { logger.warning("\(message)") }
    }
}

