/// Why a PNG could not be read or written.
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, when there is one.
    public var path: String?
    /// libpng's message.
    public var message: String

    /// Makes an error.
    public init(path: String?, message: String) {
        self.path = path
        self.message = message
    }

    /// `"<path>: <message>"`.
    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
