import Glibc

/// Finds shader files with the C library's directory calls: Foundation's bundle and file
/// manager listings cost several million instructions at launch (CFBundle's resource
/// lookup and the bridging of its arrays), as much as reading and checking the shaders.
enum ShaderFiles {
    /// The paths of the entries of `folder` whose names end in `suffix`, sorted by name;
    /// none when the folder cannot be read.
    static func paths(in folder: String, endingWith suffix: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix), name != suffix { names.append(name) }
        }
        let separator = folder.hasSuffix("/") ? "" : "/"
        return names.sorted().map { folder + separator + $0 }
    }
}
