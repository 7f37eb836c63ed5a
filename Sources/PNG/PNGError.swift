/// Why a PNG could not be read, decoded, encoded or written.
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file involved, or nil when the PNG was in memory.
    public var path: String?
    /// What went wrong, usually libpng's own message (`png_image.message`), such as
    /// "Not a PNG file" or "No such file or directory".
    public var message: String

    /// Makes an error about `path` (nil for data in memory).
    public init(path: String?, message: String) {
        self.path = path
        self.message = message
    }

    /// `"<path>: <message>"`, or just the message when there is no path.
    public var description: String {
        guard let path else { return message }
        return "\(path): \(message)"
    }
}
