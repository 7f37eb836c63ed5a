import CVulkan
import SwiftGPUSPIRV

/// Indirect arguments checked on the GPU before the GPU uses them.
///
/// Each indirect draw or dispatch of a command buffer that validates them gets a slot in a
/// host-visible chunk of this context's: the app's arguments are copied there
/// (`vkCmdCopyBuffer`), the validation kernel checks them against the limits the host wrote
/// beside them and zeroes the counts of arguments out of range, and the draw or dispatch
/// reads the slot instead of the app's buffer. The kernel notes the first failed slot in
/// the chunk's header, which the completion reads (`indirectFailure()`).
///
/// A dispatch's arguments are checked just before it, in the compute pass: a dispatch
/// earlier in the pass may have written them. A render pass's are checked before the pass
/// begins (no dispatch may be recorded inside one, and nothing inside a pass may write
/// arguments its draws read): the pass starts a `VkCommandBuffer` of its own, and when it
/// ends a prologue command buffer holding the copies and the kernel is placed before it in
/// the submission. A pass that starts the command buffer needs no split: its prologue goes
/// first.
///
/// Chunk layout, in 32-bit words: a header of `slotWords` words (word 0: the first failed
/// slot, `UInt32.max` when none), then slots of `slotWords` words: the arguments (0–4), the
/// kind (5), two limits (6, 7), the failure's code (8) and the first three argument words as
/// they were (9–11). The kernel's source (`IndirectValidationKernel`) reads the same layout.
extension CommandRecorder {
    /// The words of a chunk's header and of each slot.
    static let indirectSlotWords = 12
    /// The slots of one chunk.
    static let indirectSlotsPerChunk = 1024
    /// The size of the validation kernel's push constants (`ValidationConstants`).
    static let indirectConstantsSize: UInt32 = 24

    /// What an indirect command's slot holds: which command reads it.
    enum IndirectKind: UInt32 {
        case dispatch = 0
        case draw = 1
        case drawIndexed = 2
    }

    /// A failure the kernel noted: the slot's place among the command buffer's slots, in
    /// recording order, its code (`IndirectValidationKernel` lists them), the first three
    /// argument words as they were and the last two (which the kernel leaves).
    struct IndirectFailure {
        let slot: Int
        let code: UInt32
        let arguments: (UInt32, UInt32, UInt32)
        let laterArguments: (UInt32, UInt32)
    }

    /// The context's validation state: its chunks, and the copies and command buffers of
    /// the command buffer being recorded. Owned like the context (one owner at a time).
    struct IndirectValidation {
        /// The chunks, kept across command buffers; the first `usedChunks` hold this one's slots.
        var chunks: [BufferAllocation] = []
        var usedChunks = 0
        /// The next free slot of the last used chunk.
        var nextSlot = CommandRecorder.indirectSlotsPerChunk
        /// The last used chunk's mapping and buffer (the chunk is in `chunks`).
        var current: (mapped: UnsafeMutableRawPointer, handle: VkBuffer)?
        /// Slots given out in this command buffer.
        var slotCount = 0
        /// Copies into slots not yet validated, and the first such slot.
        var copies: [(source: VkBuffer, chunk: Int, region: VkBufferCopy)] = []
        var pendingFirstSlot = 0
        /// Command buffers recorded before the current one, in submission order.
        var segments: [VkCommandBuffer] = []
        /// The context's first command buffer, while another is current.
        var main: VkCommandBuffer?
        /// Command buffers of the pool besides the first, for segments and prologues: the
        /// first `usedSpares` are taken in this command buffer.
        var spares: [VkCommandBuffer] = []
        var usedSpares = 0
        /// Where the open render pass's prologue goes in `segments`.
        var prologueIndex = 0
        /// The validation kernel's pipeline (the device's), taken at the first indirect
        /// command that needs it.
        var pipeline: PipelineObject?
    }

    /// The validation kernel's push constants, as its block lays them out.
    private struct ValidationConstants {
        var maxGroups: (UInt32, UInt32, UInt32)
        var first: UInt32
        var count: UInt32
        var maxVertices: UInt32
    }

    /// Gives the next indirect command a slot: the `size` bytes of arguments at `offset` in
    /// `source` are copied there, and checked, with `limits` for a draw, before the command
    /// runs. Returns where the command reads its arguments.
    func indirectSlot(copying size: Int, from source: VkBuffer, offset: Int, kind: IndirectKind,
                      limits: (UInt32, UInt32)) throws(VulkanError) -> (buffer: VkBuffer, offset: Int) {
        if indirect.nextSlot == Self.indirectSlotsPerChunk { try takeIndirectChunk() }
        let chunkIndex = indirect.usedChunks - 1
        let chunk = indirect.current.unsafelyUnwrapped
        let slot = indirect.nextSlot
        indirect.nextSlot += 1
        if indirect.copies.isEmpty { indirect.pendingFirstSlot = indirect.slotCount }
        indirect.slotCount += 1
        let slotOffset = (slot + 1) * Self.indirectSlotWords * 4
        let words = (chunk.mapped + slotOffset).assumingMemoryBound(to: UInt32.self)
        words[5] = kind.rawValue
        words[6] = limits.0
        words[7] = limits.1
        words[8] = 0
        indirect.copies.append((source, chunkIndex,
                                VkBufferCopy(srcOffset: UInt64(offset), dstOffset: UInt64(slotOffset), size: UInt64(size))))
        return (chunk.handle, slotOffset)
    }

    /// Moves to the next chunk (made on first use) and clears its header.
    private func takeIndirectChunk() throws(VulkanError) {
        if indirect.usedChunks == indirect.chunks.count {
            let length = (Self.indirectSlotsPerChunk + 1) * Self.indirectSlotWords * 4
            indirect.chunks.append(try BufferAllocation(device: device, length: length, hostVisible: true))
        }
        let chunk = indirect.chunks[indirect.usedChunks]
        chunk.mapped!.storeBytes(of: UInt32.max, as: UInt32.self)
        indirect.current = (chunk.mapped!, chunk.handle)
        indirect.usedChunks += 1
        indirect.nextSlot = 0
    }

    /// Records the copies and the check of the slots `owner` (this context, or a parallel
    /// pass's secondary context) gave out since its last check, into the current command
    /// buffer: after every earlier command's writes, before any later command reads the
    /// slots as arguments. Binds the kernel's pipeline: the caller binds its own again.
    func validateIndirectSlots(of owner: CommandRecorder? = nil, with pipeline: PipelineObject,
                               maxVertices: UInt32) throws(VulkanError) {
        let owner = owner ?? self
        guard !owner.indirect.copies.isEmpty else { return }
        barrier(from: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                to: VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT)
        let chunks = owner.indirect.chunks
        // One copy command for each run of slots with the same source buffer and chunk (the
        // list is read in place: a copy of it would make the emptying below reallocate).
        var start = 0
        let count = owner.indirect.copies.count
        while start < count {
            let first = owner.indirect.copies[start]
            var end = start + 1
            while end < count, owner.indirect.copies[end].source == first.source, owner.indirect.copies[end].chunk == first.chunk {
                end += 1
            }
            withUnsafeTemporaryAllocation(of: VkBufferCopy.self, capacity: end - start) { regions in
                for index in start..<end { regions[index - start] = owner.indirect.copies[index].region }
                vkCmdCopyBuffer(commandBuffer, first.source, chunks[first.chunk].handle, UInt32(regions.count), regions.baseAddress)
            }
            start = end
        }
        barrier(from: VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                to: VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT)
        bind(pipeline)
        // The slots of each chunk in one dispatch: chunk k holds the command buffer's slots
        // k × indirectSlotsPerChunk ..< (k + 1) × indirectSlotsPerChunk.
        var slot = owner.indirect.pendingFirstSlot
        let lastSlot = owner.indirect.slotCount
        while slot < lastSlot {
            let firstInChunk = slot % Self.indirectSlotsPerChunk
            let count = min(Self.indirectSlotsPerChunk - firstInChunk, lastSlot - slot)
            try bindIndirectChunk(chunks[slot / Self.indirectSlotsPerChunk], pipeline: pipeline)
            var constants = ValidationConstants(maxGroups: maxGroupCount, first: UInt32(firstInChunk), count: UInt32(count),
                                                maxVertices: maxVertices)
            withUnsafeBytes(of: &constants) { bytes in
                pushConstants(pipeline, stages: VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT.rawValue), offset: 0,
                              size: Self.indirectConstantsSize, bytes: bytes.baseAddress!)
            }
            vkCmdDispatch(commandBuffer, UInt32((count + 63) / 64), 1, 1)
            slot += count
        }
        barrier(from: VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                to: VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT)
        owner.indirect.copies.removeAll(keepingCapacity: true)
    }

    /// Binds `chunk` as the kernel's storage buffer at binding 0.
    private func bindIndirectChunk(_ chunk: BufferAllocation, pipeline: PipelineObject) throws(VulkanError) {
        var info = VkDescriptorBufferInfo(buffer: chunk.handle, offset: 0, range: VkDeviceSize(VK_WHOLE_SIZE))
        try withUnsafePointer(to: &info) { (info) throws(VulkanError) in
            var write = VkWriteDescriptorSet()
            write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
            write.dstBinding = 0
            write.descriptorCount = 1
            write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
            write.pBufferInfo = info
            if let push = device.pushDescriptorSet {
                push(commandBuffer, pipeline.bindPoint, pipeline.layout, 0, 1, &write)
            } else {
                var set: VkDescriptorSet? = try allocateDescriptorSet(layout: pipeline.setLayout)
                write.dstSet = set
                vkUpdateDescriptorSets(device.handle, 1, &write, 0, nil)
                vkCmdBindDescriptorSets(commandBuffer, pipeline.bindPoint, pipeline.layout, 0, 1, &set, 0, nil)
            }
        }
    }

    /// A barrier from `source` stage's `sourceAccess` to `destination`'s `destinationAccess`.
    private func barrier(from source: VkPipelineStageFlagBits2, _ sourceAccess: VkAccessFlagBits2,
                         to destination: VkPipelineStageFlagBits2, _ destinationAccess: VkAccessFlagBits2) {
        var barrier = VkMemoryBarrier2()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2
        barrier.srcStageMask = VkPipelineStageFlags2(source)
        barrier.srcAccessMask = VkAccessFlags2(sourceAccess)
        barrier.dstStageMask = VkPipelineStageFlags2(destination)
        barrier.dstAccessMask = VkAccessFlags2(destinationAccess)
        dependency(barrier)
    }

    // MARK: Render passes

    /// As a render pass that validates its indirect draws begins: unless it starts the
    /// command buffer (`startsBuffer`), the commands so far end in a command buffer of
    /// their own, so that the pass's prologue can go between them and the pass.
    func separateRenderPass(startsBuffer: Bool) throws(VulkanError) {
        guard !startsBuffer else {
            indirect.prologueIndex = 0
            return
        }
        let finished = commandBuffer
        try vkCall(.endCommandBuffer, device.unretainedFaults) { vkEndCommandBuffer(finished) }
        let next = try takeSpareCommandBuffer()
        if indirect.main == nil { indirect.main = finished }
        indirect.segments.append(finished)
        indirect.prologueIndex = indirect.segments.count
        replaceCommandBuffer(with: next)
    }

    /// As a render pass that validates its indirect draws ends: records the prologue that
    /// checks the slots its draws took, in this context and in `secondaries` (a parallel
    /// pass's), if any, into a command buffer placed before the pass.
    func validateRenderPassSlots(secondaries: [CommandRecorder] = [], maxVertices: UInt32) throws(VulkanError) {
        let owners = secondaries.filter { !$0.indirect.copies.isEmpty } + (indirect.copies.isEmpty ? [] : [self])
        guard let pipeline = owners.first?.indirect.pipeline else { return }
        let prologue = try takeSpareCommandBuffer()
        let current = commandBuffer
        replaceCommandBuffer(with: prologue)
        defer { replaceCommandBuffer(with: current) }
        for owner in owners { try validateIndirectSlots(of: owner, with: pipeline, maxVertices: maxVertices) }
        try vkCall(.endCommandBuffer, device.unretainedFaults) { vkEndCommandBuffer(prologue) }
        indirect.segments.insert(prologue, at: indirect.prologueIndex)
    }

    /// A primary command buffer of the context's pool, begun: one kept from an earlier
    /// command buffer, or a new one.
    private func takeSpareCommandBuffer() throws(VulkanError) -> VkCommandBuffer {
        if indirect.usedSpares == indirect.spares.count {
            var info = VkCommandBufferAllocateInfo()
            info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
            info.commandPool = pool
            info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
            info.commandBufferCount = 1
            var made: VkCommandBuffer?
            let vk = device.handle
            try vkCall(.allocateCommandBuffers, device.unretainedFaults) { vkAllocateCommandBuffers(vk, &info, &made) }
            indirect.spares.append(made!)
        }
        let spare = indirect.spares[indirect.usedSpares]
        indirect.usedSpares += 1
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VkCommandBufferUsageFlags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue)
        try vkCall(.beginCommandBuffer, device.unretainedFaults) { vkBeginCommandBuffer(spare, &begin) }
        return spare
    }

    // MARK: Submission and completion

    /// How many `VkCommandBuffer`s the recorded work is submitted as.
    var submittedCommandBufferCount: Int { indirect.segments.count + 1 }

    /// The `index`th of the command buffers the recorded work is submitted as, in order.
    func submittedCommandBuffer(at index: Int) -> VkCommandBuffer {
        index < indirect.segments.count ? indirect.segments[index] : commandBuffer
    }

    /// Whether this command buffer copied indirect arguments into slots for the kernel.
    var checkedIndirectArguments: Bool { indirect.usedChunks > 0 }

    /// The first failure the kernel noted in this command buffer's slots, once it completed.
    func indirectFailure() -> IndirectFailure? {
        for index in 0..<indirect.usedChunks {
            let words = indirect.chunks[index].mapped!.assumingMemoryBound(to: UInt32.self)
            let failed = Int(words[0])
            guard failed != Int(UInt32.max) else { continue }
            let slot = words + (failed + 1) * Self.indirectSlotWords
            return IndirectFailure(slot: index * Self.indirectSlotsPerChunk + failed, code: slot[8], arguments: (slot[9], slot[10], slot[11]),
                                  laterArguments: (slot[3], slot[4]))
        }
        return nil
    }

    /// Makes the validation state ready for the next command buffer: the first command
    /// buffer current again, every chunk and spare free (the pool was reset).
    func resetIndirectValidation() {
        if let main = indirect.main {
            replaceCommandBuffer(with: main)
            indirect.main = nil
        }
        // Emptied only when they hold something: emptying an empty array still checks its
        // storage's uniqueness and releases it.
        if !indirect.segments.isEmpty { indirect.segments.removeAll(keepingCapacity: true) }
        if !indirect.copies.isEmpty { indirect.copies.removeAll(keepingCapacity: true) }
        indirect.usedSpares = 0
        indirect.usedChunks = 0
        indirect.slotCount = 0
        indirect.nextSlot = Self.indirectSlotsPerChunk
    }
}

extension PipelineObject {
    /// A compute pipeline of `words` (entry point `main`) that reads one storage buffer at
    /// binding 0 and `constantsSize` bytes of push constants: SwiftGPU's own kernels.
    convenience init(storageBufferKernel words: [UInt32], constantsSize: UInt32, device: DeviceBackend,
                     cache: PipelineCacheObject) throws(VulkanError) {
        let buffer = LayoutBinding(binding: 0, type: VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   stages: VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT.rawValue))
        try self.init(computeWith: device, words: words, entryPoint: "main", bindings: [buffer],
                      pushConstantRanges: [PushConstantRange(stage: .compute, offset: 0, size: constantsSize)], cache: cache)
    }
}
