import CVulkan

/// Metal's counter sampling as Vulkan queries: timestamps written with
/// `vkCmdWriteTimestamp2`, statistics counted by pipeline statistics queries of the sample
/// buffer's `CounterQueryPool`.
///
/// A query is reset before it is written, and no reset may be recorded inside a render pass:
/// outside one, a timestamp is written to the sample buffer's own query, reset just before;
/// inside one, to the next of the command buffer's pass timestamps, all of which are reset
/// when the command buffer begins (and from the host when made). Either is copied into the
/// sample buffer's memory when the command buffer ends, the last written for each sample.
extension CommandRecorder {
    /// The timestamps one command buffer's render passes may take, in all.
    static let passTimestampCapacity: UInt32 = 1024

    /// A timestamp to copy into a sample buffer when the command buffer ends.
    struct TimestampCopy {
        let source: VkQueryPool
        let query: UInt32
        let target: CounterQueryPool
        let sample: Int
    }

    /// Where in the pipeline a timestamp is taken.
    enum TimestampPoint {
        /// As the command is reached, without waiting for earlier work.
        case immediately
        /// Once earlier commands' vertex shading is done.
        case afterVertexWork
        /// Once earlier commands are done.
        case afterAllWork

        var stage: VkPipelineStageFlags2 {
            switch self {
            case .immediately: VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT)
            case .afterVertexWork: VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT)
            case .afterAllWork: VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
            }
        }
    }

    /// Writes the timestamp of `sample`, outside a render pass.
    func writeTimestamp(_ pool: CounterQueryPool, sample: Int, at point: TimestampPoint) {
        vkCmdResetQueryPool(commandBuffer, pool.handle, UInt32(sample), 1)
        vkCmdWriteTimestamp2(commandBuffer, point.stage, pool.handle, UInt32(sample))
        timestampCopies.append(TimestampCopy(source: pool.handle, query: UInt32(sample), target: pool, sample: sample))
    }

    /// Whether a render pass of this command buffer may take another timestamp.
    var hasPassTimestampLeft: Bool { nextPassTimestamp < Self.passTimestampCapacity }

    /// Writes the timestamp of `sample` inside a render pass, into the next of the command
    /// buffer's pass timestamps (made, and reset from the host, at the first).
    func writePassTimestamp(_ pool: CounterQueryPool, sample: Int, at point: TimestampPoint) throws(VulkanError) {
        if passTimestamps == nil {
            let made = try device.makeQueryPool(VK_QUERY_TYPE_TIMESTAMP, count: Self.passTimestampCapacity)
            vkResetQueryPool(device.handle, made, 0, Self.passTimestampCapacity)
            passTimestamps = made
        }
        let query = nextPassTimestamp
        nextPassTimestamp += 1
        vkCmdWriteTimestamp2(commandBuffer, point.stage, passTimestamps, query)
        timestampCopies.append(TimestampCopy(source: passTimestamps!, query: query, target: pool, sample: sample))
    }

    /// As the command buffer begins: resets the pass timestamps the previous one used (and
    /// forgets copies a command buffer recorded but never ended).
    func resetPassTimestamps() {
        if !timestampCopies.isEmpty { timestampCopies.removeAll(keepingCapacity: true) }
        guard nextPassTimestamp > 0 else { return }
        vkCmdResetQueryPool(commandBuffer, passTimestamps, 0, nextPassTimestamp)
        nextPassTimestamp = 0
    }

    /// As the command buffer ends: copies each sample's last timestamp, with its
    /// availability, into its sample buffer's memory.
    func copyTimestamps() {
        guard !timestampCopies.isEmpty else { return }
        copyLastTimestamps { _ in true }
    }

    /// Copies the last timestamp of each sample among the pending copies `included`
    /// selects, and forgets those copies.
    private func copyLastTimestamps(_ included: (TimestampCopy) -> Bool) {
        var last: [SampleKey: Int] = [:]
        for (index, copy) in timestampCopies.enumerated() where included(copy) {
            last[SampleKey(target: ObjectIdentifier(copy.target), sample: copy.sample)] = index
        }
        let flags = VkQueryResultFlags(VK_QUERY_RESULT_64_BIT.rawValue | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT.rawValue
            | VK_QUERY_RESULT_WAIT_BIT.rawValue)
        for index in last.values.sorted() {
            let copy = timestampCopies[index]
            vkCmdCopyQueryPoolResults(commandBuffer, copy.source, copy.query, 1, copy.target.timestamps!.handle,
                                      VkDeviceSize(copy.sample * 16), 16, flags)
        }
        timestampCopies.removeAll(where: included)
    }

    /// Resolves the timestamps of `range` of `pool` on the GPU into `destination` from
    /// byte `offset`, a `UInt64` a sample: host nanoseconds as the CPU's resolve gives them,
    /// `UInt64.max` (Metal's `MTLCounterErrorValue`) for a sample not written. The
    /// timestamps this command buffer took for those samples so far are copied into the
    /// pool's memory first; `pipeline` (the resolve kernel, push constants only) reads
    /// that memory after a barrier, which also orders it after other command buffers'
    /// copies, and writes `destination` through its address.
    func resolveTimestamps(_ pool: CounterQueryPool, range: Range<Int>, into destination: BufferAllocation, offset: Int,
                           pipeline: PipelineObject) {
        if !timestampCopies.isEmpty { copyLastTimestamps { $0.target === pool && range.contains($0.sample) } }
        memoryBarrier()
        let scale = device.timestampScale
        let hostOffset = UInt64(bitPattern: device.timestampToHostOffset ?? 0)
        var constants = ResolveConstants(
            source: pool.timestamps!.deviceAddress + UInt64(range.lowerBound * 16),
            destination: destination.deviceAddress + UInt64(offset), offset: hostOffset,
            count: UInt32(range.count), multiplier: scale.multiplier, shift: UInt32(scale.shift))
        bind(pipeline)
        withUnsafeBytes(of: &constants) { bytes in
            pushConstants(pipeline, stages: VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT.rawValue), offset: 0,
                          size: Self.resolveConstantsSize, bytes: bytes.baseAddress!)
        }
        dispatch(UInt32((range.count + 63) / 64), 1, 1)
    }

    /// The size of the resolve kernel's push constants: `ResolveConstants` without its
    /// padding.
    static let resolveConstantsSize: UInt32 = 36

    /// The resolve kernel's push constants, as its block lays them out.
    private struct ResolveConstants {
        var source: UInt64
        var destination: UInt64
        var offset: UInt64
        var count: UInt32
        var multiplier: UInt32
        var shift: UInt32
    }

    private struct SampleKey: Hashable {
        let target: ObjectIdentifier
        let sample: Int
    }

    /// Resets `sample` and begins counting statistics into it.
    func beginStatistics(_ pool: CounterQueryPool, sample: Int) {
        vkCmdResetQueryPool(commandBuffer, pool.handle, UInt32(sample), 1)
        vkCmdBeginQuery(commandBuffer, pool.handle, UInt32(sample), 0)
    }

    /// Ends the statistics counted into `sample`.
    func endStatistics(_ pool: CounterQueryPool, sample: Int) {
        vkCmdEndQuery(commandBuffer, pool.handle, UInt32(sample))
    }
}
