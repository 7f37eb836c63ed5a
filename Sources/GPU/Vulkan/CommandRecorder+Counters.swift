import CVulkan

/// Metal's counter sampling as Vulkan queries of a sample buffer's `CounterQueryPool`:
/// timestamps written with `vkCmdWriteTimestamp2`, statistics counted by pipeline
/// statistics queries. Every query is reset in the command buffer before it is written, and
/// a reset may not be recorded inside a render pass: render passes sample only outside their
/// dynamic rendering.
extension CommandRecorder {
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

    /// Resets and writes the timestamp of `sample`.
    func writeTimestamp(_ pool: CounterQueryPool, sample: Int, at point: TimestampPoint) {
        vkCmdResetQueryPool(commandBuffer, pool.handle, UInt32(sample), 1)
        vkCmdWriteTimestamp2(commandBuffer, point.stage, pool.handle, UInt32(sample))
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
