import CVulkan

/// Metal's visibility results as Vulkan occlusion queries: each span of draws between two
/// `setVisibilityResultMode` calls is one query, whose result the end of the pass copies to
/// its offset of the visibility buffer.
extension CommandRecorder {
    /// The occlusion queries one command buffer's passes may use, in all.
    static let occlusionQueryCapacity: UInt32 = 4096

    /// Readies queries for a pass with a visibility buffer, before it begins (a reset may
    /// not be recorded inside a pass): makes the pool at the first such pass, and resets
    /// the queries this command buffer has not used yet.
    func prepareOcclusionQueries() throws(VulkanError) {
        if occlusionQueries == nil {
            occlusionQueries = try device.makeQueryPool(VK_QUERY_TYPE_OCCLUSION, count: Self.occlusionQueryCapacity)
        }
        let first = nextOcclusionQuery
        guard first < Self.occlusionQueryCapacity else { return }
        vkCmdResetQueryPool(commandBuffer, occlusionQueries, first, Self.occlusionQueryCapacity - first)
        visibilityCopies.removeAll(keepingCapacity: true)
    }

    /// Whether another query may begin in this command buffer.
    var hasOcclusionQueryLeft: Bool { nextOcclusionQuery < Self.occlusionQueryCapacity }

    /// Ends the active query, if any, and, unless `offset` is nil, begins the next, whose
    /// result goes to `offset` of the visibility buffer: a sample count when `counting`
    /// (exact where the device offers it), else zero or not.
    func switchOcclusionQuery(to offset: UInt64?, counting: Bool) {
        if occlusionQueryActive {
            vkCmdEndQuery(commandBuffer, occlusionQueries, nextOcclusionQuery - 1)
            occlusionQueryActive = false
        }
        guard let offset else { return }
        let query = nextOcclusionQuery
        let flags = counting && device.preciseOcclusion ? VkQueryControlFlags(VK_QUERY_CONTROL_PRECISE_BIT.rawValue) : 0
        vkCmdBeginQuery(commandBuffer, occlusionQueries, query, flags)
        nextOcclusionQuery += 1
        occlusionQueryActive = true
        visibilityCopies.append((query, offset))
    }

    /// After the pass: copies each query's result, a 64-bit count, to its offset of
    /// `buffer`.
    func copyVisibilityResults(to buffer: VkBuffer) {
        let flags = VkQueryResultFlags(VK_QUERY_RESULT_64_BIT.rawValue | VK_QUERY_RESULT_WAIT_BIT.rawValue)
        for (query, offset) in visibilityCopies {
            vkCmdCopyQueryPoolResults(commandBuffer, occlusionQueries, query, 1, buffer, offset, 8, flags)
        }
        visibilityCopies.removeAll(keepingCapacity: true)
    }
}
