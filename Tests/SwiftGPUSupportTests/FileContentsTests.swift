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

    @Test("what is no regular file is refused without blocking or reading: a FIFO without a writer, a device, a folder")
    func refusesWhatIsNoRegularFile() throws {
        try withScratchFolder { folder in
            let fifo = "\(folder)/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(throws: FileError.self) { try regularFileContents(atPath: fifo, limit: 1 << 20) }
            #expect(fileContents(atPath: fifo) == nil)
            for (path, reason) in [(fifo, "a FIFO, not a regular file"), ("/dev/zero", "a character device, not a regular file"),
                                   (folder, "a folder, not a regular file")] {
                do throws(FileError) {
                    _ = try regularFileContents(atPath: path, limit: 1 << 20)
                    Issue.record("\(path) was read")
                } catch {
                    #expect(error.reason == reason)
                    #expect("\(error)" == "\(path): \(reason)")
                }
            }
            do throws(FileError) {
                _ = try regularFileContents(atPath: "\(folder)/missing", limit: 1)
                Issue.record("a missing file was read")
            } catch {
                #expect(error.isMissing)
            }
        }
    }

    @Test("a file over the limit is refused before it is read, and a kernel file that grows past it while read")
    func limits() throws {
        try withScratchFolder { folder in
            let path = "\(folder)/big"
            try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: path))
            #expect(try regularFileContents(atPath: path, limit: 10_000).count == 10_000)
            do throws(FileError) {
                _ = try regularFileContents(atPath: path, limit: 9_999)
                Issue.record("a file over the limit was read")
            } catch {
                #expect(error.reason == "10000 bytes, more than the limit of 9999")
            }
            // /proc/self/maps reports size 0 and holds more than 16 bytes.
            do throws(FileError) {
                _ = try regularFileContents(atPath: "/proc/self/maps", limit: 16)
                Issue.record("a kernel file past the limit was read")
            } catch {
                #expect(error.reason == "grew past the limit of 16 bytes")
            }
        }
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
