import Glibc

/// The bytes of the file at `path`, read with the C library; nil when it is no regular
/// file or cannot be opened or read. SwiftGPU reads its own files (shaders, the pipeline
/// cache, power-supply state) with the C library rather than with Foundation's
/// `Data(contentsOf:)`, whose URL and file handling would otherwise be loaded and stay
/// resident in every process that uses SwiftGPU.
package func fileContents(atPath path: String) -> [UInt8]? {
    try? regularFileContents(atPath: path, limit: .max)
}

/// The bytes of the regular file at `path`, at most `limit` of them. Never blocks on what
/// is not a regular file: the file is opened without waiting (a FIFO with no writer would
/// otherwise block the open), and a FIFO, a device, a socket or a folder is refused before
/// anything is read. Throws the failing call's error, or the reason the file is refused.
package func regularFileContents(atPath path: String, limit: Int) throws(FileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else {
        let code = errno
        // A socket cannot be opened at all (ENXIO): say what is there rather than the errno.
        var status = stat()
        if stat(path, &status) == 0, let refusal = refusal(of: status, path: path) { throw refusal }
        throw FileError(call: "open", path: path, code: code)
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw FileError(call: "fstat", path: path, code: errno) }
    if let refusal = refusal(of: status, path: path) { throw refusal }
    guard Int(status.st_size) <= limit else {
        throw FileError(path: path, reason: "\(status.st_size) bytes, more than the limit of \(limit)")
    }
    // Read in place: the size `fstat` gives (0 for some kernel files), growing as needed
    // to one byte past the limit, which tells a file that grew past it.
    let capacity = limit < .max ? limit + 1 : .max
    var bytes = [UInt8](repeating: 0, count: min(max(Int(status.st_size), 4096), capacity))
    var filled = 0
    while true {
        if filled == bytes.count {
            bytes += repeatElement(0, count: min(bytes.count, capacity - bytes.count))
        }
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileError(call: "read", path: path, code: errno)
        }
        if count == 0 {
            bytes.removeLast(bytes.count - filled)
            return bytes
        }
        filled += count
        if filled > limit { throw FileError(path: path, reason: "grew past the limit of \(limit) bytes") }
    }
}

/// Why the file at `path`, of `status`, is refused: what it is, when it is no regular file.
private func refusal(of status: stat, path: String) -> FileError? {
    let what: String
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFIFO: what = "a FIFO"
    case S_IFCHR: what = "a character device"
    case S_IFBLK: what = "a block device"
    case S_IFSOCK: what = "a socket"
    case S_IFDIR: what = "a folder"
    default: what = "not a regular file"
    }
    return FileError(path: path, reason: "\(what), not a regular file")
}

/// Writes `bytes` to the file at `path` atomically (a temporary file beside it, then
/// renamed over it), making the folders above it first; throws the failing call's error.
package func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws(FileError) {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    try makeFolders(folder)
    let temporary = "\(path).\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError(call: "open", path: temporary, code: errno) }
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        if count < 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            unlink(temporary)
            throw FileError(call: "write", path: temporary, code: code)
        }
        written += count
    }
    guard close(fd) == 0 else {
        let code = errno
        unlink(temporary)
        throw FileError(call: "close", path: temporary, code: code)
    }
    guard rename(temporary, path) == 0 else {
        let code = errno
        unlink(temporary)
        throw FileError(call: "rename", path: path, code: code)
    }
}

/// Makes `folder` and the folders above it that are missing (as `mkdir -p`).
private func makeFolders(_ folder: String) throws(FileError) {
    guard !folder.isEmpty else { return }
    var path = folder.hasPrefix("/") ? "" : "."
    for component in folder.split(separator: "/") {
        path += "/\(component)"
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw FileError(call: "mkdir", path: path, code: errno)
        }
    }
}

/// A failed file operation: the C library call, the path and its `errno`; or a file
/// refused for what it is (not a regular file, too large), with the reason.
package struct FileError: Error, CustomStringConvertible {
    package let call: String
    package let path: String
    package let code: Int32
    /// Why the file was refused, when no call failed.
    package let reason: String?

    /// The C library's `call` failed on `path` with `errno` `code`.
    package init(call: String, path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
        reason = nil
    }

    /// The file at `path` was refused: `reason`.
    package init(path: String, reason: String) {
        call = ""
        self.path = path
        code = 0
        self.reason = reason
    }

    /// Whether the file does not exist.
    package var isMissing: Bool { reason == nil && code == ENOENT }

    package var description: String {
        if let reason { return "\(path): \(reason)" }
        return "\(call) \(path): \(String(cString: strerror(code)))"
    }
}

/// The names of the entries of `folder` (without `.` and `..`), in the order the system
/// lists them; nil when the folder cannot be read.
package func folderEntries(atPath folder: String) -> [String]? {
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != ".", name != ".." { names.append(name) }
    }
    return names
}
