import Glibc

/// The folder of the running executable, read from `/proc/self/exe`: where SwiftPM places
/// the resource bundles of the targets an executable links, and where `Bundle.main`'s path
/// points on Linux.
///
/// Reading it here, rather than through `Bundle.main`, keeps Foundation out of SwiftGPU:
/// on Linux, making the main bundle has CoreFoundation look for an `Info.plist` and the
/// bundle's version in the executable's folder, which took about 29 M instructions at
/// launch (a fifth of a warm start of the benchmark app, ICU's first use among them), for
/// a path.
package enum ExecutableFolder {
    /// The folder's absolute path. Where `/proc` is not mounted it is the folder of the
    /// path the process was started with (`argv[0]`) where that names one, else nil.
    package static let path: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            return folder(of: String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return CommandLine.arguments.first.flatMap { folder(of: $0, relativeTo: currentDirectory()) }
    }()

    /// The running executable's file name (`Sketch` for `.build/debug/Sketch`), or nil
    /// where neither `/proc` nor `argv[0]` says it.
    package static let executableName: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments.first
        return path.flatMap { $0.split(separator: "/").last.map(String.init) }
    }()

    /// The folder holding `executable`: a path relative to `directory` unless it starts with
    /// `/`; nil for a bare name (one found on `PATH`), whose folder the path does not say.
    package static func folder(of executable: String, relativeTo directory: String? = nil) -> String? {
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let folder = slash == executable.startIndex ? "/" : String(executable[..<slash])
        guard !folder.hasPrefix("/") else { return folder }
        guard let directory else { return nil }
        return directory == "/" ? "/" + folder : directory + "/" + folder
    }

    /// The process's working directory, or nil where it cannot be read.
    private static func currentDirectory() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }
}
