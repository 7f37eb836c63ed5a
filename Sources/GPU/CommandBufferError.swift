import FoundationEssentials

/// Why a command buffer ended in `.error`, with Metal's `MTLCommandBufferError` codes.
public struct CommandBufferError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// Metal's error codes (same raw values).
    public enum Code: Int, Sendable, Hashable {
        /// An internal error.
        case `internal` = 1
        /// The work did not finish in time.
        case timeout = 2
        /// The app may not use the GPU now (background).
        case notPermitted = 7
        /// Memory ran out.
        case outOfMemory = 8
        /// A resource the work uses is invalid.
        case invalidResource = 9
        /// The device was lost.
        case deviceRemoved = 11
    }

    /// The code.
    public var code: Code
    /// A readable explanation.
    public var message: String
    /// For a buffer whose indirect draw or dispatch had arguments out of range (code
    /// `.invalidResource`): which command, argument and limit; nil otherwise. See
    /// ``CommandBufferDescriptor/validatesIndirectArguments``.
    public var invalidIndirectArguments: InvalidIndirectArguments? {
        get { indirectDetails?.arguments }
        set { indirectDetails = newValue.map(IndirectDetails.init) }
    }
    /// `invalidIndirectArguments`, boxed: the error stays a code, a string and a pointer,
    /// which every command buffer's completion copies cheaply (the details inline made each
    /// copy and destruction an outlined walk over four more strings).
    private var indirectDetails: IndirectDetails?

    /// The box of `invalidIndirectArguments`, immutable once made.
    private final class IndirectDetails: Sendable {
        let arguments: InvalidIndirectArguments
        init(_ arguments: InvalidIndirectArguments) { self.arguments = arguments }
    }

    /// Makes an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The error of a buffer whose indirect command had arguments out of range.
    init(_ arguments: InvalidIndirectArguments) {
        self.init(.invalidResource, arguments.description)
        invalidIndirectArguments = arguments
    }

    /// Equal when code, message and indirect-argument details are.
    public static func == (lhs: CommandBufferError, rhs: CommandBufferError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.invalidIndirectArguments == rhs.invalidIndirectArguments
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(invalidIndirectArguments)
    }

    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
    /// `"notPermitted: Insufficient permission ..."`.
    public var description: String { "\(code): \(message)" }

    /// The background refusal, with Metal's wording.
    static let notPermittedInBackground = CommandBufferError(
        .notPermitted, "Insufficient permission (to submit GPU work from background)")

    /// The error a failed Vulkan call leaves on a command buffer.
    init(_ error: VulkanError) {
        switch error.code {
        case .deviceLost: self.init(.deviceRemoved, "The GPU device was lost (\(error))")
        case .outOfDeviceMemory, .outOfHostMemory, .outOfPoolMemory:
            self.init(.outOfMemory, "Out of memory (\(error))")
        default: self.init(.internal, "Internal error (\(error))")
        }
    }
}
