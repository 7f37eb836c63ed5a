import CVulkan
import SwiftGPUSupport

/// The Vulkan queries of one counter sample buffer, one query a sample: timestamps, or
/// pipeline statistics. Commands reset each query before writing it (so a sample may be
/// written again in a later command buffer). Statistics are read from the queries when the
/// app resolves them. Each timestamp is copied, with its availability, into `timestamps`,
/// host memory the app's resolve reads: a render pass takes its timestamps in its command
/// buffer's own queries (a query may not be reset inside a pass) and copies them there
/// after the pass.
///
/// `@unchecked Sendable`: its handles and facts are immutable after `init`, and
/// `vkGetQueryPoolResults` needs no external synchronisation.
final class CounterQueryPool: @unchecked Sendable {
    /// What the queries count.
    enum Kind {
        /// A timestamp a sample.
        case timestamp
        /// The pipeline statistics of `statisticFlags` a sample, in that order.
        case statistics
    }

    /// The statistics a statistics pool counts, in the order Vulkan writes them: vertex
    /// shader invocations, clipping invocations, clipping primitives, fragment shader
    /// invocations, compute shader invocations.
    static let statisticFlags = VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT.rawValue
        | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT.rawValue
        | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT.rawValue
        | VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT.rawValue
        | VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT.rawValue
    /// How many values a statistics query writes.
    static let statisticCount = 5

    let device: DeviceBackend
    let handle: VkQueryPool
    let kind: Kind
    let count: Int
    /// For timestamps: each sample's ticks and availability, two `UInt64`s, zero until
    /// written.
    let timestamps: BufferAllocation?

    /// A pool of `count` queries of `kind`, reset from the host where the device offers
    /// host query resets, so that a sample never written resolves as unavailable.
    init(device: DeviceBackend, kind: Kind, count: Int) throws(VulkanError) {
        let pool = kind == .timestamp
            ? try device.makeQueryPool(VK_QUERY_TYPE_TIMESTAMP, count: UInt32(count))
            : try device.makeQueryPool(VK_QUERY_TYPE_PIPELINE_STATISTICS, count: UInt32(count), statistics: Self.statisticFlags)
        let vk = device.handle
        if device.hostQueryReset { vkResetQueryPool(vk, pool, 0, UInt32(count)) }
        do {
            timestamps = kind == .timestamp ? try BufferAllocation(device: device, length: count * 16, hostVisible: true) : nil
        } catch {
            vkDestroyQueryPool(vk, pool, nil)
            throw error
        }
        timestamps?.mapped?.initializeMemory(as: UInt8.self, repeating: 0, count: count * 16)
        self.device = device
        handle = pool
        self.kind = kind
        self.count = count
    }

    deinit { vkDestroyQueryPool(device.handle, handle, nil) }

    /// How many values each sample has.
    var valuesPerSample: Int { kind == .timestamp ? 1 : Self.statisticCount }

    /// The results of the samples in `range`, `valuesPerSample` each, nil for a sample
    /// whose query has no result (never written, or its command buffer has not completed):
    /// timestamps in host CLOCK_MONOTONIC nanoseconds where the device calibrates its
    /// timestamps, else in the device's own nanoseconds. Nil when the results cannot be read
    /// (the device was lost).
    func results(_ range: Range<Int>) -> [[UInt64]?]? {
        guard !range.isEmpty else { return [] }
        if let timestamps {
            let written = UnsafeRawPointer(timestamps.mapped!).bindMemory(to: UInt64.self, capacity: count * 2)
            return range.map { sample in
                written[sample * 2 + 1] == 0 ? nil : [device.hostNanoseconds(ofTicks: written[sample * 2])]
            }
        }
        let stride = valuesPerSample + 1   // the values, then availability
        var raw = [UInt64](repeating: 0, count: range.count * stride)
        let flags = VkQueryResultFlags(VK_QUERY_RESULT_64_BIT.rawValue | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT.rawValue)
        let vk = device.handle, pool = handle
        let read = raw.withUnsafeMutableBytes { bytes in
            try? vkCall(.getQueryPoolResults, device.unretainedFaults) {
                vkGetQueryPoolResults(vk, pool, UInt32(range.lowerBound), UInt32(range.count), bytes.count,
                                      bytes.baseAddress, VkDeviceSize(stride * 8), flags)
            }
        }
        guard read == VK_SUCCESS || read == VK_NOT_READY else { return nil }
        return (0..<range.count).map { sample -> [UInt64]? in
            let values = raw[sample * stride ..< sample * stride + stride]
            return values.last == 0 ? nil : Array(values.dropLast())
        }
    }
}

extension DeviceBackend {
    /// A query pool of `count` queries of `type` (counting `statistics` for pipeline
    /// statistics queries).
    func makeQueryPool(_ type: VkQueryType, count: UInt32, statistics: UInt32 = 0) throws(VulkanError) -> VkQueryPool {
        var info = VkQueryPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        info.queryType = type
        info.queryCount = count
        info.pipelineStatistics = VkQueryPipelineStatisticFlags(statistics)
        var pool: VkQueryPool?
        let vk = handle
        try vkCall(.createQueryPool, unretainedFaults) { vkCreateQueryPool(vk, &info, nil, &pool) }
        return pool!
    }

    /// Whether the device's queue writes timestamps in graphics and compute work: Metal's
    /// timestamp counter set.
    var writesTimestamps: Bool { physical.limits.timestampComputeAndGraphics != 0 }

    /// Device timestamp ticks in host CLOCK_MONOTONIC nanoseconds, where the device
    /// calibrates its timestamps; else in the device's own nanoseconds (ticks × period).
    /// The same integer steps as the GPU's resolve (`resolveTimestamps`), so both give the
    /// same values: the ticks times the period's fixed-point scale, shifted, plus the offset,
    /// 0 when that is negative.
    func hostNanoseconds(ofTicks ticks: UInt64) -> UInt64 {
        let nanoseconds = Int64(bitPattern: deviceNanoseconds(ofTicks: ticks))
        let host = nanoseconds &+ (timestampToHostOffset ?? 0)
        return UInt64(max(host, 0))
    }

    /// Device timestamp ticks in the device's nanoseconds: ⌊ticks × multiplier / 2^shift⌋
    /// in 64 bits, with `timestampScale`.
    func deviceNanoseconds(ofTicks ticks: UInt64) -> UInt64 { Self.nanoseconds(ofTicks: ticks, scale: timestampScale) }

    /// The device's timestamp period as an integer multiplier and a right shift.
    var timestampScale: (multiplier: UInt32, shift: UInt64) { Self.timestampScale(of: physical.limits.timestampPeriod) }

    /// ⌊ticks × multiplier / 2^shift⌋, the low 64 bits.
    static func nanoseconds(ofTicks ticks: UInt64, scale: (multiplier: UInt32, shift: UInt64)) -> UInt64 {
        let product = ticks.multipliedFullWidth(by: UInt64(scale.multiplier))
        guard scale.shift > 0 else { return product.low }
        return product.low >> scale.shift | product.high << (64 - scale.shift)
    }

    /// A timestamp period (nanoseconds a tick, a `Float`) as an integer multiplier and a
    /// right shift: the `Float`'s 24-bit significand and its exponent, exactly (for periods
    /// from 2^-40 to 2^23 ns; outside them, the nearest the 32-bit multiplier and a shift
    /// of 0...63 hold).
    static func timestampScale(of period: Float) -> (multiplier: UInt32, shift: UInt64) {
        guard period.isNormal, period > 0 else { return (0, 0) }
        let significand = UInt64(period.significandBitPattern) | 1 << 23
        var shift = 23 - Int(period.exponent)
        var multiplier = significand
        if shift < 0 {
            multiplier = min(significand << UInt64(min(-shift, 40)), UInt64(UInt32.max))
            shift = 0
        } else if shift > 63 {
            multiplier = significand >> UInt64(min(shift - 63, 63))
            shift = 63
        }
        return (UInt32(multiplier), UInt64(shift))
    }

    /// A CPU and a GPU timestamp taken together, both in host CLOCK_MONOTONIC nanoseconds:
    /// read with `VK_EXT_calibrated_timestamps` where the device offers it, else the host's
    /// time for both.
    func sampleTimestamps() -> (cpu: UInt64, gpu: UInt64) {
        guard let read = calibratedTimestamps() else {
            let now = HostClock.nanoseconds()
            return (now, now)
        }
        return (read.host, hostNanoseconds(ofTicks: read.device))
    }
}
