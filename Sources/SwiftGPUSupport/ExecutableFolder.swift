import Glibc

/// The folder of the running executable, read from `/proc/self/exe`: where SwiftPM places
/// the resource bundles of the targets an executable links, and where `Bundle.main`'s path
/// points on Linux.
///
/// Reading it here, rather than through `Bundle.main`, keeps Foundation's main bundle
/// unmade: on Linux, making it has CoreFoundation look for an `Info.plist` and the bundle's
/// version in the executable's folder, which took about 29 M instructions at launch (a
/// fifth of a warm start of the benchmark app, ICU's first use among them), for a path.
package enum ExecutableFolder {
    /// The folder's absolute path, or nil where `/proc` is not mounted.
    package static let path: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return slash == executable.startIndex ? "/" : String(executable[..<slash])
    }()
}
