import FoundationEssentials

/// Why `CaptureManager.startCapture(with:)` refused, with Metal's `MTLCaptureError` codes.
public struct CaptureError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// Metal's error codes (same raw values).
    public enum Code: Int, Sendable, Hashable {
        /// No capture tool can take this capture: RenderDoc is not in the process, or it
        /// does not hook the device's Vulkan instance.
        case notSupported = 1
        /// A capture is already in progress (or armed on a scope).
        case alreadyCapturing = 2
        /// The descriptor's capture object, destination or output URL is not usable.
        case invalidDescriptor = 3
    }

    /// The code.
    public let code: Code
    /// A readable explanation.
    public let message: String
    /// `"notSupported: GPU capture needs RenderDoc ..."`.
    public var description: String { "\(code): \(message)" }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }

    init(_ code: Code, _ message: String) {
        (self.code, self.message) = (code, message)
    }
}
