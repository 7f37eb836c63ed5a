import Foundation

/// A folder of its own for one test, removed when the value goes away.
final class TemporaryFolder {
    /// The folder.
    let url: URL

    /// A new empty folder whose name starts with `prefix`.
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to the file `name` in the folder.
    func write(_ bytes: some Sequence<UInt8>, to name: String) throws {
        try Data(bytes).write(to: url.appendingPathComponent(name))
    }

    /// The folder's path.
    var path: String { url.path }
}
