import Glibc

/// The bytes of the file at `path`, read with the C library; nil when it cannot be opened
/// or read. SwiftGPU reads its own files (shaders, the pipeline cache, power-supply state)
/// with this rather than with Foundation's `Data(contentsOf:)`, whose URL and file
/// handling would otherwise be loaded and stay resident in every process that uses
/// SwiftGPU.
package func fileContents(atPath path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    // Read in place: the size `fstat` gives (0 for some kernel files), growing as needed.
    var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 4096))
    var filled = 0
    while true {
        if filled == bytes.count { bytes += repeatElement(0, count: bytes.count) }
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 {
            bytes.removeLast(bytes.count - filled)
            return bytes
        }
        filled += count
    }
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

/// A failed file operation: the C library call, the path and its `errno`.
package struct FileError: Error, CustomStringConvertible {
    package let call: String
    package let path: String
    package let code: Int32

    package var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
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
