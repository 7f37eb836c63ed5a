extension Device {
    /// The counter sets this device samples, Metal's `counterSets`: ``CommonCounterSet/timestamp``
    /// where its queue writes timestamps, and ``CommonCounterSet/statistic`` where it
    /// offers pipeline statistics queries (Mesa's lavapipe offers both). Vulkan counts no
    /// stage cycles, so ``CommonCounterSet/stageUtilization`` is never among them.
    public var counterSets: [CounterSet] {
        var sets: [CounterSet] = []
        if backend.writesTimestamps {
            sets.append(CounterSet(.timestamp, counters: [.timestamp]))
        }
        if backend.pipelineStatistics {
            sets.append(CounterSet(.statistic, counters: [.tessellationInputPatches, .vertexInvocations,
                                                          .postTessellationVertexInvocations, .clipperInvocations,
                                                          .clipperPrimitivesOut, .fragmentInvocations,
                                                          .computeKernelInvocations]))
        }
        return sets
    }

    /// Whether this device samples counters at `point`, Metal's
    /// `supportsCounterSampling(_:)`: at stage boundaries (a pass's start and end), between
    /// dispatches and between blits; between draws where the device resets queries from
    /// the host (`hostQueryReset`, which lavapipe offers), since a query written inside a
    /// render pass must have been reset before it. Never at tile dispatches, which Vulkan
    /// lacks.
    public func supportsCounterSampling(_ point: CounterSamplingPoint) -> Bool {
        switch point {
        case .atStageBoundary, .atDispatchBoundary, .atBlitBoundary: true
        case .atDrawBoundary: backend.hostQueryReset
        case .atTileDispatchBoundary: false
        }
    }

    /// The most samples one ``CounterSampleBuffer`` holds: one Vulkan query each, in one
    /// query pool.
    public static let maxCounterSampleCount = 32_768

    /// Makes a buffer of `descriptor.sampleCount` samples of `descriptor.counterSet`,
    /// Metal's `makeCounterSampleBuffer(descriptor:)`: a Vulkan query pool of timestamp or
    /// pipeline statistics queries. Throws ``CounterSampleBufferError/invalid(_:)`` for a
    /// set this device does not offer (see ``counterSets``), a sample count outside
    /// 1...``maxCounterSampleCount``, or a storage mode other than `.shared`.
    public func makeCounterSampleBuffer(descriptor: CounterSampleBufferDescriptor) throws(CounterSampleBufferError)
        -> CounterSampleBuffer {
        guard let set = descriptor.counterSet else {
            throw .invalid("the descriptor has no counterSet; take one of the device's counterSets")
        }
        guard let offered = counterSets.first(where: { $0.name == set.name }) else {
            throw .invalid("this device does not sample the counter set '\(set.name)'; it samples "
                + "\(counterSets.map { "'\($0.name)'" }.joined(separator: ", "))")
        }
        guard (1...Self.maxCounterSampleCount).contains(descriptor.sampleCount) else {
            throw .invalid("sampleCount \(descriptor.sampleCount) is outside 1...\(Self.maxCounterSampleCount)")
        }
        guard descriptor.storageMode == .shared else {
            throw .invalid("storageMode \(descriptor.storageMode) is not offered: SwiftGPU resolves counter samples on the CPU, "
                + "from a .shared sample buffer")
        }
        do {
            let queries = try CounterQueryPool(device: backend, kind: offered.common == .statistic ? .statistics : .timestamp,
                                               count: descriptor.sampleCount)
            return CounterSampleBuffer(device: self, label: descriptor.label, counterSet: offered, queries: queries)
        } catch {
            throw error.code == .outOfHostMemory || error.code == .outOfDeviceMemory ? .outOfMemory : .internal(error)
        }
    }

    /// Reads the CPU's and the GPU's clocks at one moment, Metal's
    /// `sampleTimestamps(_:gpuTimestamp:)`, both in nanoseconds on the host's monotonic
    /// clock: resolved timestamp samples compare with them directly. The two are read
    /// together with `VK_EXT_calibrated_timestamps` (which lavapipe offers); a device
    /// without it cannot relate its clock to the host's, and both are the host's time.
    public func sampleTimestamps(_ cpuTimestamp: inout Timestamp, gpuTimestamp: inout Timestamp) {
        (cpuTimestamp, gpuTimestamp) = backend.sampleTimestamps()
    }
}
