import Foundation
import Testing
import SwiftGPUSupport

@Suite struct FileContentsTests {
    /// A new empty folder under the temporary directory, removed by `body`'s end.
    private func withScratchFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-contents-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    @Test("reads every byte of a file, whatever its size or its reported size; nil for a missing path or a folder")
    func readsFiles() throws {
        try withScratchFolder { folder in
            for size in [0, 1, 4096, 10_007] {
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                let path = "\(folder)/file-\(size)"
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                #expect(fileContents(atPath: path) == bytes, "\(size) bytes")
            }
            // A kernel file reports size 0 and holds more.
            let status = try #require(fileContents(atPath: "/proc/self/status"))
            #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
            #expect(fileContents(atPath: "\(folder)/missing") == nil)
            #expect(fileContents(atPath: folder) == nil)
        }
    }

    @Test("an atomic write makes the folders above the file and replaces what was there, leaving nothing else")
    func writesAtomically() throws {
        try withScratchFolder { folder in
            let path = "\(folder)/a/b/cache.bin"
            try writeFileAtomically([1, 2, 3], toPath: path)
            #expect(fileContents(atPath: path) == [1, 2, 3])
            try writeFileAtomically([9], toPath: path)
            #expect(fileContents(atPath: path) == [9])
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/a/b") == ["cache.bin"])
        }
    }

    @Test("a write that cannot make its folder throws the call, the path and the system's reason")
    func failedWriteSaysWhy() throws {
        try withScratchFolder { folder in
            try writeFileAtomically([1], toPath: "\(folder)/plain")
            do throws(FileError) {
                try writeFileAtomically([2], toPath: "\(folder)/plain/under/file")
                Issue.record("a folder under a regular file was made")
            } catch {
                #expect(error.call == "mkdir")
                #expect(error.path == "\(folder)/plain/under")
                #expect(error.description == "mkdir \(folder)/plain/under: Not a directory")
            }
            #expect(fileContents(atPath: "\(folder)/plain") == [1])
        }
    }

    @Test("lists a folder's entries without . and ..; nil for a missing folder")
    func listsFolders() throws {
        try withScratchFolder { folder in
            #expect(folderEntries(atPath: folder) == [])
            try writeFileAtomically([1], toPath: "\(folder)/one")
            try writeFileAtomically([2], toPath: "\(folder)/sub/two")
            #expect(folderEntries(atPath: folder)?.sorted() == ["one", "sub"])
            #expect(folderEntries(atPath: "\(folder)/missing") == nil)
        }
    }
}
