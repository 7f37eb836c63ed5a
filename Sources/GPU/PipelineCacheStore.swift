import FramePacing
import Logging
import SwiftGPUSupport

/// The device's pipeline cache and the file it lives in between runs:
/// `<cache directory>/SwiftGPU/pipelines-<pipeline-cache UUID>-<driver version>.vkcache`,
/// where the cache directory is `GPU_PIPELINE_CACHE_DIR`, else `$XDG_CACHE_HOME`, else
/// `~/.cache`. A file that is truncated, garbage or for another device or driver, or that
/// is no regular file (a FIFO, a device: never opened so as to block) or is over 256 MiB,
/// is ignored with one logged warning; it never reaches the driver. The file is rewritten (atomically)
/// after each pipeline creation that grew the cache. (Lavapipe keeps only the 32-byte
/// header: it caches no pipeline binaries, so there the file saves nothing.)
///
/// `@unchecked Sendable`: `savedSize` is guarded by `lock`; the rest is immutable.
final class PipelineCacheStore: @unchecked Sendable {
    /// What happened to the file when the device opened.
    enum LoadOutcome: Equatable {
        case noFile
        case loaded(bytes: Int)
        case rejected(reason: String)
        case disabled
    }

    let cache: PipelineCacheObject
    /// The cache's file, or nil when the device keeps no file.
    let filePath: String?
    let loadOutcome: LoadOutcome
    private let lock = ConditionLock(rank: .leaf("PipelineCacheStore.lock"))
    private var savedSize: Int
    private static let logger = Logger(label: "SwiftGPU.pipelineCache")
    /// The largest cache file read: drivers' caches of a large app's pipelines run to tens
    /// of MiB.
    static let maximumFileSize = 256 << 20

    /// `GPU_PIPELINE_CACHE_DIR`, `$XDG_CACHE_HOME/SwiftGPU` or `~/.cache/SwiftGPU`.
    static var defaultDirectory: String? {
        if let explicit = environment("GPU_PIPELINE_CACHE_DIR") { return explicit }
        let base = environment("XDG_CACHE_HOME") ?? environment("HOME").map { "\($0)/.cache" }
        return base.map { "\($0)/SwiftGPU" }
    }

    init(device: DeviceBackend, directory: String?) throws(VulkanError) {
        let physical = device.physical
        // Two lowercase hex digits a byte, without String(format:), whose C varargs bridging
        // costs more than the rest of opening the cache at launch.
        let digits = Array("0123456789abcdef")
        let uuid = String(physical.pipelineCacheUUID.flatMap { byte -> [Character] in
            [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        })
        filePath = directory.map { "\($0)/pipelines-\(uuid)-\(physical.driverVersion).vkcache" }
        var initial: [UInt8] = []
        var outcome = LoadOutcome.disabled
        if let filePath {
            var contents: [UInt8]?
            do {
                contents = try regularFileContents(atPath: filePath, limit: Self.maximumFileSize)
            } catch where !error.isMissing {
                outcome = .rejected(reason: error.reason ?? "\(error)")
            } catch {}
            if let data = contents {
                let expected = PipelineCacheObject.expectedHeader(for: physical)
                if data.count < expected.count {
                    outcome = .rejected(reason: "file of \(data.count) bytes is too short to hold a pipeline cache")
                } else if Array(data.prefix(expected.count)) != expected {
                    outcome = .rejected(reason: "header does not match this device and driver")
                } else {
                    initial = data
                    outcome = .loaded(bytes: data.count)
                }
                if case .rejected(let reason) = outcome {
                    Self.logger.warning("ignoring pipeline cache \(filePath): \(reason)")
                }
            } else if case .rejected(let reason) = outcome {
                Self.logger.warning("ignoring pipeline cache \(filePath): \(reason)")
            } else {
                outcome = .noFile
            }
        }
        loadOutcome = outcome
        savedSize = initial.count
        cache = try PipelineCacheObject(device: device, initialData: initial)
    }

    /// Writes the cache to its file if it grew since the last write. Failures to write are
    /// logged, never thrown: the cache only saves time.
    func saveIfGrown() {
        guard let filePath, let data = try? cache.data() else { return }
        let grew = lock.withLock { () -> Bool in
            guard data.count > savedSize else { return false }
            savedSize = data.count
            return true
        }
        guard grew else { return }
        do {
            try writeFileAtomically(data, toPath: filePath)
        } catch {
            Self.logger.warning("could not save pipeline cache: \(error)")
        }
    }
}
