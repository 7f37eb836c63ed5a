import Glibc
import SwiftGPUSupport

/// `#include` for run-time GLSL: each `#include "name"` (or `<name>`) line is replaced by
/// the header's text, read only from the folders `CompileOptions.includeFolders` names.
/// A name that is absolute or climbs out with `..`, a file that resolves (through links)
/// outside the folders, one that is no regular file or larger than 1 MiB, a header found
/// nowhere, and nesting deeper than 16 are errors with the line; with no folders named,
/// any `#include` is. `#line` directives keep the compiler's line numbers those of each
/// file. (glslang's C interface, as Debian 12 ships it, takes no include callback: left to
/// it, an include was read as empty.)
enum GLSLIncludes {
    /// The largest header read.
    static let maximumHeaderSize = 1 << 20
    /// The deepest nesting of includes.
    static let maximumDepth = 16

    /// Why an include was refused, naming the file and line.
    enum Problem: Error {
        /// A header that is missing, outside the folders, unreadable or nested too deeply.
        case refused(String)
        /// The source grew past its length limit with its headers.
        case tooLarge(String)
    }

    /// A header's text, or why it was not read.
    enum Header {
        /// The header's text.
        case text(String)
        /// Why it was not read.
        case refused(String)
    }

    /// `source` with its includes expanded, at most `limit` bytes of it, or the problem,
    /// naming the line.
    static func expand(_ source: String, folders: [String], limit: Int) -> Result<String, Problem> {
        var length = source.utf8.count
        guard length <= limit else {
            return .failure(.tooLarge("the source is \(length) bytes, over CompileOptions.maximumSourceLength (\(limit))"))
        }
        let roots = folders.map { folder in realPath(folder) ?? folder }
        return expand(source, roots: roots, depth: 0, file: "the source", length: &length, limit: limit)
    }

    /// `length` counts the bytes of the whole expansion so far, so that a header included
    /// many times is refused as soon as the total passes `limit`, before it is built.
    private static func expand(_ source: String, roots: [String], depth: Int, file: String, length: inout Int,
                               limit: Int) -> Result<String, Problem> {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        for index in lines.indices.reversed() {
            guard let name = includedName(in: lines[index]) else { continue }
            let line = index + 1
            let problem: String
            switch read(name, roots: roots) {
            case .text(let header):
                guard depth < maximumDepth else {
                    return .failure(.refused("\(file), line \(line): #include \"\(name)\" nests deeper than \(maximumDepth) headers"))
                }
                length += header.utf8.count
                guard length <= limit else {
                    return .failure(.tooLarge("\(file), line \(line): with #include \"\(name)\" the source passes "
                        + "CompileOptions.maximumSourceLength (\(limit) bytes)"))
                }
                switch expand(header, roots: roots, depth: depth + 1, file: "\"\(name)\"", length: &length, limit: limit) {
                case .success(let text):
                    lines[index] = Substring("#line 1\n\(text)\n#line \(line + 1)")
                    continue
                case .failure(let nested): return .failure(nested)
                }
            case .refused(let reason): problem = reason
            }
            return .failure(.refused("\(file), line \(line): #include \"\(name)\": \(problem)"))
        }
        return .success(lines.joined(separator: "\n"))
    }

    /// The header name of an `#include` line, or nil for any other line.
    static func includedName(in line: Substring) -> String? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        guard rest.first == "#" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix("include") else { return nil }
        rest = rest.dropFirst("include".count).drop { $0 == " " || $0 == "\t" }
        guard let open = rest.first, open == "\"" || open == "<" else { return nil }
        let close: Character = open == "\"" ? "\"" : ">"
        let name = rest.dropFirst().prefix { $0 != close }
        return String(name)
    }

    /// The header `name` from the first of `roots` that has it.
    static func read(_ name: String, roots: [String]) -> Header {
        guard !roots.isEmpty else {
            return .refused("run-time GLSL reads headers only from CompileOptions.includeFolders, and it names none")
        }
        let components = name.split(separator: "/")
        guard !name.hasPrefix("/"), !components.contains("..") else {
            return .refused("a header name may not be absolute or climb out of the include folders with ..")
        }
        for root in roots {
            let path = root + "/" + name
            guard let resolved = realPath(path) else { continue }
            guard resolved.hasPrefix(root + "/") else {
                return .refused("\(path) resolves outside the include folders, to \(resolved)")
            }
            do {
                let bytes = try regularFileContents(atPath: resolved, limit: maximumHeaderSize)
                return .text(String(decoding: bytes, as: UTF8.self))
            } catch {
                return .refused(error.reason ?? "\(error)")
            }
        }
        return .refused("in none of the include folders (\(roots.joined(separator: ", ")))")
    }

    /// `path` with its links and `.` resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
