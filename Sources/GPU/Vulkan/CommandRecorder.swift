import CVulkan

/// Everything one command buffer records into, kept and reused across command buffers:
/// a command pool with its one `VkCommandBuffer`, a two-entry timestamp query pool, an
/// upload ring for small constant data, a descriptor pool where push descriptors are not
/// offered, and the list of objects the recorded work keeps alive until it completes.
///
/// A secondary context (a parallel render pass's sub-encoder records into one) has a
/// secondary-level `VkCommandBuffer` (two, used in turn) and no query pool; its primary
/// keeps it and releases it with itself, and a parallel pass readies it as it takes it
/// (see `CommandRecorder+Secondary.swift`).
///
/// `@unchecked Sendable`: a context is owned by one command buffer at a time. It moves
/// between the queue's free list and a command buffer under the queue's lock, and while
/// owned it is touched only under its command buffer's lock or, after commit, by the one
/// thread that submits or completes that command buffer. A secondary context is touched
/// by its sub-encoder's one thread while that records, then (the parallel encoder's lock
/// orders the two) by its primary's owner.
final class CommandRecorder: @unchecked Sendable {
    let device: DeviceBackend
    /// The command buffer recorded into, and its pool. A secondary context has two of each
    /// and takes turns (see `prepareSecondary(_:)`); a primary has one.
    @exclusivity(unchecked) private(set) var commandBuffer: VkCommandBuffer
    @exclusivity(unchecked) private(set) var pool: VkCommandPool
    /// The host memory of the context's pools: one for both of a secondary context's, so
    /// that the commands a pass records reuse the memory its previous pass's freed.
    let memory = VulkanCommandMemory()
    /// The timestamp queries; nil for a secondary context.
    private let queries: VkQueryPool?
    /// The occlusion queries of visibility results (`CommandRecorder+Visibility.swift`):
    /// made at the first pass with a visibility buffer, used in order through the command
    /// buffer, each pass's unused ones reset before it begins.
    var occlusionQueries: VkQueryPool?
    /// The next occlusion query to use in this command buffer.
    @exclusivity(unchecked) var nextOcclusionQuery: UInt32 = 0
    /// Whether an occlusion query is active in the pass being recorded.
    @exclusivity(unchecked) var occlusionQueryActive = false
    /// The queries of the pass being recorded and the visibility-buffer offsets their
    /// results go to, copied when the pass ends.
    @exclusivity(unchecked) var visibilityCopies: [(query: UInt32, offset: UInt64)] = []
    /// The timestamps render passes take (`CommandRecorder+Counters.swift`): made at the
    /// first, used in order through the command buffer, and the used ones reset when the
    /// next command buffer begins.
    var passTimestamps: VkQueryPool?
    @exclusivity(unchecked) var nextPassTimestamp: UInt32 = 0
    /// The timestamps to copy into counter sample buffers when the command buffer ends.
    @exclusivity(unchecked) var timestampCopies: [TimestampCopy] = []
    /// The secondary contexts parallel render passes recorded into, kept for later ones:
    /// owned like the context itself (a parallel encoder takes the spares while open and
    /// gives them back when it ends). The first `secondariesUsed` hold this command
    /// buffer's passes until it completes. Like the state below, touched by the context's
    /// one owner at a time: no run-time exclusivity checks.
    @exclusivity(unchecked) var secondaries: [CommandRecorder] = []
    @exclusivity(unchecked) var secondariesUsed = 0
    /// A secondary context's other command pool and buffer, once it has been used twice.
    @exclusivity(unchecked) var otherRecording: Recording?
    /// Whether the current command buffer, and the other one, hold commands that were
    /// recorded since their pool was last reset.
    @exclusivity(unchecked) var currentHoldsCommands = false
    @exclusivity(unchecked) var otherHoldsCommands = false
    private var descriptorPool: VkDescriptorPool?
    // Touched by every setBytes and set*Buffer call: the context's owner is one thread at
    // a time (see above), so these skip Swift's run-time exclusivity checks.
    @exclusivity(unchecked) private var uploadChunks: [BufferAllocation] = []
    @exclusivity(unchecked) private var uploadChunk = 0
    @exclusivity(unchecked) private var uploadOffset = 0
    /// The current chunk's mapping and buffer; nil before the first upload since a reset.
    @exclusivity(unchecked) private var uploadTarget: (mapped: UnsafeMutableRawPointer, handle: VkBuffer)?
    /// The front end's record of what the encoders bound and used (see `EncoderState`).
    /// Touched by every set call, by the context's one owner at a time: no run-time
    /// exclusivity checks.
    @exclusivity(unchecked) var encoding = EncoderState()
    /// Timeline waits before, and signals after, the recorded work (shared events and the
    /// queue's own timeline); emptied, keeping their storage, on recycle. Like `encoding`,
    /// used by one owner at a time (the recording thread, then the submitter): no run-time
    /// exclusivity checks.
    @exclusivity(unchecked) var waits = ScratchList<TimelineOperation>(capacity: 2)
    @exclusivity(unchecked) var signals = ScratchList<TimelineOperation>(capacity: 2)
    /// Indirect arguments checked on the GPU (`CommandRecorder+IndirectValidation.swift`);
    /// one owner at a time, as `encoding`.
    @exclusivity(unchecked) var indirect = IndirectValidation()

    /// The recorded work waits for `operation`'s timeline to reach its value.
    func addWait(_ operation: TimelineOperation) { waits.append(operation) }

    /// The recorded work's end signals `operation`'s value on its timeline.
    func addSignal(_ operation: TimelineOperation) { signals.append(operation) }

    /// Present semaphores of the swapchain images this command buffer presents.
    @exclusivity(unchecked) var presentSignals = ScratchList<VkSemaphore>(capacity: 2)
    /// Images this command buffer moved out of their resting layout, and where they are
    /// (one owner at a time, as `encoding`).
    @exclusivity(unchecked) var imageLayouts: [(image: ImageAllocation, layout: VkImageLayout)] = []
    /// Scratch space for descriptor writes, reused by every flush.
    let writes: UnsafeMutableBufferPointer<VkWriteDescriptorSet>
    /// The `serial` of the pipeline `writes` were last built for (0: none). Kept across
    /// command buffers: the writes depend on nothing but the pipeline's slots and this
    /// context's info arrays, so a loop of buffers with one pipeline builds them once.
    @exclusivity(unchecked) var writesPipeline: UInt64 = 0
    /// How many of `writes` go into a descriptor set: all but the trailing constant
    /// samplers, which a set's layout already holds (a push writes them too).
    @exclusivity(unchecked) var setWriteCount = 0
    let bufferInfos: UnsafeMutableBufferPointer<VkDescriptorBufferInfo>
    let imageInfos: UnsafeMutableBufferPointer<VkDescriptorImageInfo>

    /// Where `setBytes` data is placed in the upload ring: the device's larger minimum
    /// offset alignment for uniform and storage buffers, at least 16.
    let bytesAlignment: Int
    /// The device's largest uniform-buffer descriptor range.
    let maxUniformRange: UInt64
    /// The device's minimum offset alignments for uniform and storage buffer descriptors,
    /// less one (both are powers of two): a bound offset must have none of these bits.
    let uniformOffsetMask: UInt64
    let storageOffsetMask: UInt64
    /// The device's `maxComputeWorkGroupCount`.
    let maxGroupCount: (x: UInt32, y: UInt32, z: UInt32)

    static let uploadChunkSize = 64 * 1024
    static let maxDescriptorWrites = 64

    /// A context whose command buffer is primary, or secondary when `secondary`.
    init(device: DeviceBackend, secondary: Bool = false) throws(VulkanError) {
        self.device = device
        let limits = device.physical.limits
        bytesAlignment = Int(max(limits.minUniformBufferOffsetAlignment, limits.minStorageBufferOffsetAlignment, 16))
        maxUniformRange = UInt64(limits.maxUniformBufferRange)
        uniformOffsetMask = UInt64(max(limits.minUniformBufferOffsetAlignment, 1)) - 1
        storageOffsetMask = UInt64(max(limits.minStorageBufferOffsetAlignment, 1)) - 1
        maxGroupCount = (limits.maxComputeWorkGroupCount.0, limits.maxComputeWorkGroupCount.1, limits.maxComputeWorkGroupCount.2)
        let vk = device.handle
        let recording = try Self.makeRecording(device: device, secondary: secondary, memory: memory)
        var queryInfo = VkQueryPoolCreateInfo()
        queryInfo.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP
        queryInfo.queryCount = 2
        var queries: VkQueryPool?
        if !secondary {
            do {
                try vkCall(.createQueryPool, device.unretainedFaults) { vkCreateQueryPool(vk, &queryInfo, nil, &queries) }
            } catch {
                Self.destroy(recording, device: device, memory: memory)
                throw error
            }
        }
        pool = recording.pool
        commandBuffer = recording.commandBuffer
        self.queries = queries
        writes = .allocate(capacity: Self.maxDescriptorWrites)
        bufferInfos = .allocate(capacity: Self.maxDescriptorWrites)
        imageInfos = .allocate(capacity: Self.maxDescriptorWrites)
    }

    deinit {
        let vk = device.handle
        if let queries { vkDestroyQueryPool(vk, queries, nil) }
        if let occlusionQueries { vkDestroyQueryPool(vk, occlusionQueries, nil) }
        if let passTimestamps { vkDestroyQueryPool(vk, passTimestamps, nil) }
        if let descriptorPool { vkDestroyDescriptorPool(vk, descriptorPool, nil) }
        Self.destroy((pool, commandBuffer), device: device, memory: memory)
        if let other = otherRecording { Self.destroy(other, device: device, memory: memory) }
        writes.deallocate()
        bufferInfos.deallocate()
        imageInfos.deallocate()
        encoding.deallocate()
        waits.deallocate()
        signals.deallocate()
        presentSignals.deallocate()
    }

    /// Begins recording: resets the timestamps and writes the start one, where the device
    /// records timestamps.
    func begin() throws(VulkanError) {
        var info = VkCommandBufferBeginInfo()
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        info.flags = VkCommandBufferUsageFlags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue)
        let commandBuffer = commandBuffer
        try vkCall(.beginCommandBuffer, device.unretainedFaults) { vkBeginCommandBuffer(commandBuffer, &info) }
        nextOcclusionQuery = 0
        resetPassTimestamps()
        guard device.recordsTimestamps else { return }
        vkCmdResetQueryPool(commandBuffer, queries, 0, 2)
        vkCmdWriteTimestamp2(commandBuffer, VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT), queries, 0)
    }

    /// `begin()`, its failure returned instead of thrown, for a caller that reaches the
    /// recorder through `_withUnsafeGuaranteedRef`, whose closure cannot throw a typed error.
    func beginReportingFailure() -> VulkanError? {
        do throws(VulkanError) {
            try begin()
            return nil
        } catch {
            return error
        }
    }

    /// Writes the end timestamp (where the device records them) and ends recording.
    func end() throws(VulkanError) {
        let commandBuffer = commandBuffer
        copyTimestamps()
        if device.recordsTimestamps {
            vkCmdWriteTimestamp2(commandBuffer, VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT), queries, 1)
        }
        try vkCall(.endCommandBuffer, device.unretainedFaults) { vkEndCommandBuffer(commandBuffer) }
    }

    /// The GPU start and end of the recorded work in host CLOCK_MONOTONIC nanoseconds, when
    /// the device records timestamps calibrated against the host clock.
    @inline(__always)
    func gpuTimes() -> (start: UInt64, end: UInt64)? {
        // Software devices record none unless asked (`recordsTimestamps`): no call then.
        guard device.recordsTimestamps, device.timestampToHostOffset != nil else { return nil }
        return readGPUTimes()
    }

    /// `gpuTimes()` where the device records calibrated timestamps.
    private func readGPUTimes() -> (start: UInt64, end: UInt64)? {
        var values: (UInt64, UInt64) = (0, 0)
        let flags = VkQueryResultFlags(VK_QUERY_RESULT_64_BIT.rawValue)
        let queries = queries
        let read = withUnsafeMutableBytes(of: &values) { raw in
            try? vkCall(.getQueryPoolResults, device.unretainedFaults) {
                vkGetQueryPoolResults(device.handle, queries, 0, 2, raw.count, raw.baseAddress, 8, flags)
            }
        }
        guard read == VK_SUCCESS else { return nil }
        let start = device.hostNanoseconds(ofTicks: values.0)
        return (start, max(device.hostNanoseconds(ofTicks: values.1), start))
    }

    /// Copies `length` bytes (at most a chunk) into the upload ring at `alignment` and
    /// returns where they are: the buffer and offset, and the host address.
    @inline(__always)
    func upload(_ bytes: UnsafeRawPointer, length: Int, alignment: Int) throws(VulkanError)
        -> (buffer: VkBuffer, offset: Int, host: UnsafeRawPointer) {
        // Offsets stay under the chunk size and lengths under 4 KiB (setBytes' limit), so
        // the arithmetic cannot overflow; alignments are powers of two.
        let offset = (uploadOffset &+ alignment &- 1) & -alignment
        guard let target = uploadTarget, offset &+ length <= Self.uploadChunkSize else {
            return try uploadToNextChunk(bytes, length: length)
        }
        (target.mapped + offset).copyMemory(from: bytes, byteCount: length)
        uploadOffset = offset &+ length
        return (target.handle, offset, UnsafeRawPointer(target.mapped + offset))
    }

    /// `upload`'s slow path: moves to the next chunk of the ring (made on first use) and
    /// places the bytes at its start.
    private func uploadToNextChunk(_ bytes: UnsafeRawPointer, length: Int) throws(VulkanError)
        -> (buffer: VkBuffer, offset: Int, host: UnsafeRawPointer) {
        if uploadTarget != nil { uploadChunk += 1 }
        if uploadChunk == uploadChunks.count {
            uploadChunks.append(try BufferAllocation(device: device, length: Self.uploadChunkSize, hostVisible: true))
        }
        let chunk = uploadChunks[uploadChunk]
        uploadTarget = (chunk.mapped!, chunk.handle)
        chunk.mapped!.copyMemory(from: bytes, byteCount: length)
        uploadOffset = length
        return (chunk.handle, 0, UnsafeRawPointer(chunk.mapped!))
    }

    /// A descriptor set for `layout` from this context's pool, made on first use.
    func allocateDescriptorSet(layout: VkDescriptorSetLayout) throws(VulkanError) -> VkDescriptorSet {
        let vk = device.handle
        if descriptorPool == nil {
            let types = [VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                         VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                         VK_DESCRIPTOR_TYPE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER]
            let sizes = types.map { VkDescriptorPoolSize(type: $0, descriptorCount: 4096) }
            var info = VkDescriptorPoolCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
            info.maxSets = 1024
            info.poolSizeCount = UInt32(sizes.count)
            var pool: VkDescriptorPool?
            try sizes.withUnsafeBufferPointer { (sizes) throws(VulkanError) in
                info.pPoolSizes = sizes.baseAddress
                try vkCall(.createDescriptorPool, device.unretainedFaults) { vkCreateDescriptorPool(vk, &info, nil, &pool) }
            }
            descriptorPool = pool
        }
        var layout: VkDescriptorSetLayout? = layout
        var info = VkDescriptorSetAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        info.descriptorPool = descriptorPool
        info.descriptorSetCount = 1
        var set: VkDescriptorSet?
        try withUnsafePointer(to: &layout) { (layouts) throws(VulkanError) in
            info.pSetLayouts = layouts
            try vkCall(.allocateDescriptorSets, device.unretainedFaults) { vkAllocateDescriptorSets(vk, &info, &set) }
        }
        return set!
    }

    /// Releases the objects the finished commands used and clears the per-buffer state,
    /// without touching Vulkan: done when the command buffer finishes.
    func releaseReferences() {
        encoding.reset()
        // By index: a prefix of the list would retain its storage.
        for index in 0..<secondariesUsed { secondaries[index].releaseReferences() }
        waits.removeAll()
        signals.removeAll()
        presentSignals.removeAll()
        imageLayouts.removeAllKeepingCapacity()
    }

    /// Makes the context ready for the next command buffer: resets the command pool, the
    /// upload ring and the descriptor pool. Done by the thread that takes the context for
    /// its next command buffer, not at completion: the driver frees what the recording
    /// allocated, and freeing it on the thread that allocated it keeps glibc's per-thread
    /// caches warm (freed on the completion thread, every chunk migrated between arenas and
    /// the recording thread kept asking the kernel for fresh memory). Secondary contexts are
    /// made ready one by one as parallel passes take them (`prepareSecondary(_:)`).
    func reset() throws(VulkanError) {
        try resetPool(pool)
        resetIndirectValidation()
        try resetUploadsAndDescriptors()
        secondariesUsed = 0
    }

    /// Makes `other` the current command buffer and pool; returns the ones it replaces.
    func swapRecording(for other: Recording) -> Recording {
        defer { (pool, commandBuffer) = other }
        return (pool, commandBuffer)
    }

    /// Makes `other`, a primary command buffer of the pool, the one commands are recorded
    /// into.
    func replaceCommandBuffer(with other: VkCommandBuffer) { commandBuffer = other }

    /// Frees every command recorded from `pool`.
    func resetPool(_ pool: VkCommandPool) throws(VulkanError) {
        let vk = device.handle
        try vkCall(.resetCommandPool, device.unretainedFaults) { vkResetCommandPool(vk, pool, 0) }
    }

    /// Empties the upload ring and the descriptor pool.
    func resetUploadsAndDescriptors() throws(VulkanError) {
        if let descriptorPool {
            let vk = device.handle
            try vkCall(.resetDescriptorPool, device.unretainedFaults) { vkResetDescriptorPool(vk, descriptorPool, 0) }
        }
        uploadChunk = 0
        uploadOffset = 0
        uploadTarget = nil
    }

    /// A command pool and the one command buffer it holds.
    typealias Recording = (pool: VkCommandPool, commandBuffer: VkCommandBuffer)

    /// A transient command pool whose commands live in `memory`, and one command buffer of
    /// the level asked for.
    static func makeRecording(device: DeviceBackend, secondary: Bool, memory: VulkanCommandMemory) throws(VulkanError)
        -> Recording {
        let vk = device.handle
        var callbacks = memory.callbacks
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VkCommandPoolCreateFlags(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT.rawValue)
        poolInfo.queueFamilyIndex = device.physical.queueFamily
        var pool: VkCommandPool?
        try vkCall(.createCommandPool, device.unretainedFaults) { vkCreateCommandPool(vk, &poolInfo, &callbacks, &pool) }
        var allocateInfo = VkCommandBufferAllocateInfo()
        allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocateInfo.commandPool = pool
        allocateInfo.level = secondary ? VK_COMMAND_BUFFER_LEVEL_SECONDARY : VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocateInfo.commandBufferCount = 1
        var commandBuffer: VkCommandBuffer?
        do {
            try vkCall(.allocateCommandBuffers, device.unretainedFaults) { vkAllocateCommandBuffers(vk, &allocateInfo, &commandBuffer) }
        } catch {
            vkDestroyCommandPool(vk, pool, &callbacks)
            throw error
        }
        return (pool!, commandBuffer!)
    }

    /// Destroys `recording`'s pool with the allocator it was made with (the memory is freed
    /// after, with the context).
    static func destroy(_ recording: Recording, device: DeviceBackend, memory: VulkanCommandMemory) {
        var callbacks = memory.callbacks
        vkDestroyCommandPool(device.handle, recording.pool, &callbacks)
    }
}
