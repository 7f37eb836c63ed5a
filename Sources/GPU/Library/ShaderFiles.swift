import SwiftGPUSupport

/// Finds shader files with the C library's directory calls: Foundation's bundle and file
/// manager listings cost several million instructions at launch (CFBundle's resource
/// lookup and the bridging of its arrays), as much as reading and checking the shaders.
enum ShaderFiles {
    /// The largest shader module file read, 64 MiB: far above any real module (the
    /// largest in the repository's corpus is a few hundred KiB), low enough that a file
    /// handed by mistake (a disk image, a log) is refused before it is read.
    static let maximumModuleSize = 64 << 20
    /// The largest build stamp read; a stamp is a line of under 200 bytes.
    static let maximumStampSize = 4096

    /// The paths of the entries of `folder` whose names end in `suffix`, sorted by name;
    /// none when the folder cannot be read.
    static func paths(in folder: String, endingWith suffix: String) -> [String] {
        let names = (folderEntries(atPath: folder) ?? []).filter { $0.hasSuffix(suffix) && $0 != suffix }
        let separator = folder.hasSuffix("/") ? "" : "/"
        return names.sorted().map { folder + separator + $0 }
    }
}
