import Foundation
import GPUTestSupport
import Testing
@testable import GPU

@Suite("Pipeline cache", .validated)
struct PipelineCacheTests {
    static func scratchDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-cache-\(UUID().uuidString)")
    }

    @Test("a pipeline creation saves the cache; the next device loads it")
    func saveAndLoad() throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try TestGPU(cacheDirectory: directory)
        #expect(first.device.pipelineCache.loadOutcome == .noFile)
        _ = try first.pipeline("add.comp")
        let file = URL(fileURLWithPath: try #require(first.device.pipelineCache.filePath))
        #expect(file.lastPathComponent.hasPrefix("pipelines-"))
        let saved = try Data(contentsOf: file)
        #expect(saved.count >= 32, "at least the header (lavapipe stores only the header)")
        #expect(Array(saved.prefix(32)) == PipelineCacheObject.expectedHeader(for: first.device.backend.physical))

        let second = try TestGPU(cacheDirectory: directory)
        #expect(second.device.pipelineCache.loadOutcome == .loaded(bytes: saved.count))
        #expect(try second.pipeline("add.comp").threadsPerThreadgroup == Size(width: 64))
    }

    @Test("garbage, truncated and foreign cache files are ignored with a warning, never a crash",
          arguments: ["garbage", "truncated", "foreign"])
    func badFiles(kind: String) throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = try TestGPU(cacheDirectory: directory)
        _ = try seed.pipeline("add.comp")
        let file = URL(fileURLWithPath: try #require(seed.device.pipelineCache.filePath))
        var bytes = [UInt8](try Data(contentsOf: file))
        switch kind {
        case "garbage": bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        case "truncated": bytes = Array(bytes.prefix(20))
        default: bytes[16] ^= 0xFF   // another device's pipeline-cache UUID
        }
        try Data(bytes).write(to: file)

        let gpu = try TestGPU(cacheDirectory: directory)
        guard case .rejected = gpu.device.pipelineCache.loadOutcome else {
            Issue.record("expected the file to be rejected, got \(gpu.device.pipelineCache.loadOutcome)")
            return
        }
        // Pipelines still work, and the file is replaced by a good one.
        let counter = try gpu.device.makeBuffer(length: 4)
        let cb = try gpu.incrementBuffer(counter)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 1)
        let rewritten = try TestGPU(cacheDirectory: directory)
        guard case .loaded = rewritten.device.pipelineCache.loadOutcome else {
            Issue.record("expected the rewritten file to load, got \(rewritten.device.pipelineCache.loadOutcome)")
            return
        }
    }

    @Test("a cache file that is a FIFO or a folder is refused without blocking; the device keeps no cache from it and runs")
    func unusableFiles() throws {
        for kind in ["fifo", "folder"] {
            let directory = Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let seed = try TestGPU(cacheDirectory: directory)
            let path = try #require(seed.device.pipelineCache.filePath)
            let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            if kind == "fifo" {
                #expect(mkfifo(path, 0o600) == 0)
            } else {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
            // With no writer, opening the FIFO to read would block for ever.
            let gpu = try TestGPU(cacheDirectory: directory)
            let expected = kind == "fifo" ? "a FIFO, not a regular file" : "a folder, not a regular file"
            #expect(gpu.device.pipelineCache.loadOutcome == .rejected(reason: expected))
            let counter = try gpu.device.makeBuffer(length: 4)
            let cb = try gpu.incrementBuffer(counter)
            cb.commit()
            cb.waitUntilCompleted()
            #expect(counter.contents().load(as: UInt32.self) == 1)
        }
    }

    @Test("a FIFO as the cache file is one warning on standard error, naming the file and why, and the device runs without it")
    func unusableFileLogsOnce() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = PipelineCacheTests.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = try #require(try TestGPU(cacheDirectory: directory).device.pipelineCache.filePath)
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                    withIntermediateDirectories: true)
            #expect(mkfifo(path, 0o600) == 0)
            let gpu = try TestGPU(cacheDirectory: directory)
            let counter = try gpu.device.makeBuffer(length: 4)
            let cb = try gpu.incrementBuffer(counter)
            cb.commit()
            cb.waitUntilCompleted()
            guard counter.contents().load(as: UInt32.self) == 1 else { exit(2) }
            // The path, for the parent to find in the warning.
            FileHandle.standardError.write(Data("cache file: \(path)\n".utf8))
        }
        let output = stderr(result)
        let path = output.split(separator: "\n").first { $0.hasPrefix("cache file: ") }?.dropFirst("cache file: ".count)
        let warnings = output.split(separator: "\n").filter { $0.contains("ignoring pipeline cache") }
        #expect(path != nil)
        #expect(warnings.count == 1, "\(output)")
        #expect(warnings.first?.hasSuffix("ignoring pipeline cache \(path ?? ""): a FIFO, not a regular file") == true, "\(output)")
    }
}
