import FoundationEssentials

/// What a ``CounterSampleBuffer`` samples and how many samples it holds, Metal's
/// `MTLCounterSampleBufferDescriptor`.
public final class CounterSampleBufferDescriptor {
    /// The set sampled: one of ``Device/counterSets``.
    public var counterSet: CounterSet?
    /// A name for debugging.
    public var label = ""
    /// How many samples the buffer holds.
    public var sampleCount = 0
    /// Where the results live. Only `.shared` is offered: SwiftGPU resolves samples on the
    /// CPU, with ``CounterSampleBuffer/resolveCounterRange(_:)``.
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
/// command buffer completed, with ``resolveCounterRange(_:)``. Each sample is a Vulkan
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
