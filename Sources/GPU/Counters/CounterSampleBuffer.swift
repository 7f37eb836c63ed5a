import FoundationEssentials
import SwiftGPUSupport

/// What a ``CounterSampleBuffer`` samples and how many samples it holds, Metal's
/// `MTLCounterSampleBufferDescriptor`.
public final class CounterSampleBufferDescriptor {
    /// The set sampled: one of ``Device/counterSets``.
    public var counterSet: CounterSet?
    /// A name for debugging.
    public var label = ""
    /// How many samples the buffer holds.
    public var sampleCount = 0
    /// Where the results live. Only `.shared` is offered: the timestamps are kept in host
    /// memory, which ``CounterSampleBuffer/resolveCounterRange(_:)`` reads on the CPU and a
    /// blit encoder's `resolveCounters(_:range:destinationBuffer:destinationOffset:)` on the
    /// GPU.
    public var storageMode = StorageMode.shared
    /// A descriptor with Metal's defaults.
    public init() {}
}

/// Why a counter sample buffer could not be made, Metal's `MTLCounterSampleBufferError`.
public enum CounterSampleBufferError: Error, Sendable, CustomStringConvertible {
    /// The device could not allocate its queries.
    case outOfMemory
    /// The descriptor asks for what the device does not offer; the message says what.
    case invalid(String)
    /// A Vulkan call failed for another reason.
    case `internal`(VulkanError)

    /// A readable message.
    public var description: String {
        switch self {
        case .outOfMemory: "the device could not allocate the counter sample buffer's queries"
        case .invalid(let message): message
        case .internal(let error): "\(error)"
        }
    }
}

/// Counter samples the GPU writes, Metal's `MTLCounterSampleBuffer`: encoders write them
/// with `sampleCounters(sampleBuffer:sampleIndex:barrier:)` or at the start and end of a
/// pass (a pass descriptor's `sampleBufferAttachments`), and the CPU reads them once the
/// command buffer completed, with ``resolveCounterRange(_:)``, or a blit encoder resolves
/// them into a buffer on the GPU. Each sample is a Vulkan
/// query of the buffer's own query pool; timestamps are copied into its host memory when
/// the command buffer that writes them ends.
public final class CounterSampleBuffer: Sendable {
    /// The device that made it.
    public let device: Device
    /// The descriptor's label.
    public let label: String
    /// How many samples it holds.
    public let sampleCount: Int
    /// The set it samples.
    let counterSet: CounterSet
    /// Its queries.
    let queries: CounterQueryPool
    /// The kernel that resolves its timestamps on the GPU, made at the first
    /// `resolveCounters` (the first made is kept when two threads make it at once).
    private let resolvePipeline = LockedValue<PipelineObject?>(nil, rank: .leaf("CounterSampleBuffer.resolvePipeline"))

    init(device: Device, label: String, counterSet: CounterSet, queries: CounterQueryPool) {
        self.device = device
        self.label = label
        sampleCount = queries.count
        self.counterSet = counterSet
        self.queries = queries
    }

    /// Whether it samples statistics, where timestamps are taken at single points.
    var samplesStatistics: Bool { counterSet.common == .statistic }

    /// The samples of `range` as Metal lays them out: a ``CounterResultTimestamp`` each
    /// for the timestamp set, a ``CounterResultStatistic`` each for the statistic set.
    /// Timestamps are nanoseconds on the host's monotonic clock, the clock of
    /// `CommandBuffer.gpuStartTime` and `gpuEndTime` (which give it in seconds). A sample
    /// the GPU has not written (yet) holds ``counterErrorValue`` in every field; nil when
    /// the results cannot be read (the device was lost). Read them after the command
    /// buffer that writes them completed. Stops with a misuse message for a range outside
    /// the buffer's samples.
    public func resolveCounterRange(_ range: Range<Int>) -> Data? {
        guard range.lowerBound >= 0, range.upperBound <= sampleCount else {
            misuse("\(#function): range \(range) is outside the sample buffer '\(label)''s 0..<\(sampleCount)")
        }
        guard let samples = queries.results(range) else { return nil }
        var values: [UInt64] = []
        values.reserveCapacity(range.count * (samplesStatistics ? 8 : 1))
        for sample in samples {
            guard samplesStatistics else {
                values.append(sample?[0] ?? counterErrorValue)
                continue
            }
            guard let counts = sample else {
                values += repeatElement(counterErrorValue, count: 8)
                continue
            }
            // Vulkan's order: vertex, clipping invocations, clipping primitives, fragment, compute.
            values += [0, counts[0], 0, counts[1], counts[2], counts[3], counterErrorValue, counts[4]]
        }
        return values.withUnsafeBytes { Data($0) }
    }
}

extension CounterSampleBuffer {
    /// Checks a GPU resolve of `range` into `destination` from `offset` by `call`: stops
    /// with a misuse message for a statistic buffer, a range outside the samples, an offset
    /// that is not a multiple of 8, or a destination without room for a `UInt64` a sample.
    func checkResolve(_ range: Range<Int>, into destination: Buffer, offset: Int, device: Device, call: StaticString) {
        guard self.device === device, destination.device === device else {
            misuse("\(call): the sample buffer '\(label)' and the \(destination.misuseDescription) must belong to the command "
                + "buffer's device")
        }
        guard !samplesStatistics else {
            misuse("\(call): the sample buffer '\(label)' samples statistics, which are resolved on the CPU only, by "
                + "the sample buffer's resolveCounterRange")
        }
        guard range.lowerBound >= 0, range.upperBound <= sampleCount else {
            misuse("\(call): range \(range) is outside the sample buffer '\(label)''s 0..<\(sampleCount)")
        }
        guard offset >= 0, offset.isMultiple(of: 8) else {
            misuse("\(call): destinationOffset \(offset) is not a non-negative multiple of 8")
        }
        guard offset <= destination.length, range.count * 8 <= destination.length - offset else {
            misuse("\(call): \(range.count) samples take \(range.count * 8) bytes from destinationOffset \(offset), beyond the "
                + "\(destination.misuseDescription)")
        }
    }

    /// The kernel that resolves the timestamps on the GPU, made on first use. It reaches the
    /// buffers through their addresses: a device without them (a layer hid them) cannot run
    /// it, and the command buffer ends in that error.
    func resolveKernel() throws(VulkanError) -> PipelineObject {
        guard device.supportsGPUAddresses else {
            throw VulkanError(code: .featureNotPresent, callSite: "resolveCounters: this device offers no buffer device addresses")
        }
        if let made = resolvePipeline.withLock({ $0 }) { return made }
        let made = try CounterResolveKernel.makePipeline(on: device)
        return resolvePipeline.withLock { stored in
            if stored == nil { stored = made }
            return stored!
        }
    }
}

