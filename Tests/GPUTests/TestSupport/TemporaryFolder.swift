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

    /// Binds a Unix socket at `name` in the folder (left bound, never listened on).
    func makeSocket(_ name: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array((path + "/" + name).utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// Makes `name` a sparse file of `size` bytes (ftruncate: no data blocks written).
    func makeSparseFile(_ name: String, size: Int) throws {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }
}
