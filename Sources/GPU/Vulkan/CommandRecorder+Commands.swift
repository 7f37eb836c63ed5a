import CVulkan
import SwiftGPUSPIRV

/// Command recording into a context's `VkCommandBuffer`.
extension CommandRecorder {
    /// Makes every earlier write visible to every later command.
    func memoryBarrier() {
        writeBarrier(before: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                     access: VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)
    }

    /// Ends every command buffer: makes its writes, and every earlier buffer's, visible to
    /// every later command on the queue (in later command buffers too: a barrier's scopes
    /// run in submission order) and to the host once the work completes. One barrier at
    /// each buffer's end orders consecutive buffers, so none is needed at their start.
    func endOfBufferBarrier() {
        writeBarrier(before: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                     access: VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_READ_BIT)
    }

    /// A barrier from every earlier write to `access` at `stage`.
    private func writeBarrier(before stage: VkPipelineStageFlags2, access: VkAccessFlags2) {
        var barrier = VkMemoryBarrier2()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2
        barrier.srcStageMask = VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        barrier.srcAccessMask = VkAccessFlags2(VK_ACCESS_2_MEMORY_WRITE_BIT)
        barrier.dstStageMask = stage
        barrier.dstAccessMask = access
        dependency(barrier)
    }

    /// Records `barrier` alone.
    func dependency(_ barrier: VkMemoryBarrier2) {
        var barrier = barrier
        withUnsafePointer(to: &barrier) { pointer in
            var info = VkDependencyInfo()
            info.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            info.memoryBarrierCount = 1
            info.pMemoryBarriers = pointer
            vkCmdPipelineBarrier2(commandBuffer, &info)
        }
    }

    /// Binds `pipeline` at its bind point.
    func bind(_ pipeline: PipelineObject) {
        vkCmdBindPipeline(commandBuffer, pipeline.bindPoint, pipeline.handle)
    }

    /// Records `size` bytes from `bytes` into `pipeline`'s push constants at `offset`, for `stages`.
    @inline(__always)
    func pushConstants(_ pipeline: PipelineObject, stages: VkShaderStageFlags, offset: UInt32, size: UInt32,
                       bytes: UnsafeRawPointer) {
        vkCmdPushConstants(commandBuffer, pipeline.layout, stages, offset, size, bytes)
    }

    /// Writes the descriptors of `slots` for `pipeline` from `bufferInfos` / `imageInfos`
    /// (filled at the slot's position): pushed when the device offers push descriptors,
    /// else from a set allocated in this context's pool.
    /// The writes themselves depend only on the pipeline, so they are built once per run of
    /// draws or dispatches with the same pipeline, across command buffers too.
    @inline(__always)
    func writeDescriptors(slots: [ResourceSlot], pipeline: PipelineObject) throws(VulkanError) {
        guard !slots.isEmpty else { return }
        if writesPipeline != pipeline.serial {
            buildWrites(slots: slots)
            writesPipeline = pipeline.serial
        }
        if let push = device.pushDescriptorSet {
            push(commandBuffer, pipeline.bindPoint, pipeline.layout, 0, UInt32(slots.count), writes.baseAddress)
        } else {
            try writeDescriptorSet(count: setWriteCount, pipeline: pipeline)
        }
    }

    /// Where push descriptors are not offered: writes `writes` into a set from this
    /// context's pool and binds it.
    private func writeDescriptorSet(count: Int, pipeline: PipelineObject) throws(VulkanError) {
        var set: VkDescriptorSet? = try allocateDescriptorSet(layout: pipeline.setLayout)
        for index in 0..<count { writes[index].dstSet = set }
        vkUpdateDescriptorSets(device.handle, UInt32(count), writes.baseAddress, 0, nil)
        vkCmdBindDescriptorSets(commandBuffer, pipeline.bindPoint, pipeline.layout, 0, 1, &set, 0, nil)
    }

    /// Fills `writes` for `slots`, each pointing at its slot's place in `bufferInfos` or
    /// `imageInfos`, and counts those a descriptor set takes.
    ///
    /// A push writes the constant samplers too: the layout's immutable sampler is what
    /// the shader sees either way, and lavapipe ignores immutable samplers that a push
    /// leaves unwritten.
    ///
    /// The slots are read in place, by index: a copy of a slot retains its constant sampler.
    private func buildWrites(slots: [ResourceSlot]) {
        var setWrites = slots.count
        while setWrites > 0, slots[setWrites - 1].isConstantSampler { setWrites -= 1 }
        setWriteCount = setWrites
        for index in slots.indices {
            var write = VkWriteDescriptorSet()
            write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
            write.dstBinding = slots[index].binding.value
            write.descriptorCount = 1
            write.descriptorType = slots[index].descriptor.vkDescriptorType
            if slots[index].kind == .buffer {
                write.pBufferInfo = UnsafePointer(bufferInfos.baseAddress! + index)
            } else {
                write.pImageInfo = UnsafePointer(imageInfos.baseAddress! + index)
            }
            writes[index] = write
        }
    }

    /// Records a compute dispatch.
    ///
    /// A count over the device's `maxComputeWorkGroupCount` in any dimension is split into
    /// dispatches of at most that many groups, each with its base (`vkCmdDispatchBase`), so
    /// the shader sees the same `gl_WorkGroupID` and `gl_GlobalInvocationID` as one dispatch
    /// would give it. The driver never sees an invalid count.
    @inline(__always)
    func dispatch(_ x: UInt32, _ y: UInt32, _ z: UInt32) {
        let limit = maxGroupCount
        guard x > limit.x || y > limit.y || z > limit.z else {
            vkCmdDispatch(commandBuffer, x, y, z)
            return
        }
        dispatch(base: (0, 0, 0), counts: (x, y, z))
    }

    /// Records `counts` groups starting at group `base` (global ids start at base × local
    /// size), split where a count is over the device's limit.
    func dispatch(base: (x: UInt32, y: UInt32, z: UInt32), counts: (x: UInt32, y: UInt32, z: UInt32)) {
        let limit = maxGroupCount
        for partZ in stride(from: UInt32(0), to: counts.z, by: Int(limit.z)) {
            for partY in stride(from: UInt32(0), to: counts.y, by: Int(limit.y)) {
                for partX in stride(from: UInt32(0), to: counts.x, by: Int(limit.x)) {
                    vkCmdDispatchBase(commandBuffer, base.x + partX, base.y + partY, base.z + partZ,
                                      min(limit.x, counts.x - partX), min(limit.y, counts.y - partY),
                                      min(limit.z, counts.z - partZ))
                }
            }
        }
    }

    /// Records a dispatch whose `VkDispatchIndirectCommand` the GPU reads from `buffer` at
    /// `offset`. Counts there over the device's `maxComputeWorkGroupCount` cannot be split
    /// (the host never sees them): as in Metal, they must be within the limit.
    func dispatchIndirect(_ buffer: VkBuffer, offset: Int) {
        vkCmdDispatchIndirect(commandBuffer, buffer, UInt64(offset))
    }

    /// Records a buffer-to-buffer copy.
    func copy(from source: VkBuffer, offset sourceOffset: Int, to destination: VkBuffer, offset destinationOffset: Int, size: Int) {
        var region = VkBufferCopy(srcOffset: UInt64(sourceOffset), dstOffset: UInt64(destinationOffset), size: UInt64(size))
        vkCmdCopyBuffer(commandBuffer, source, destination, 1, &region)
    }

    /// Records a fill of a 4-byte-aligned range with a repeated 32-bit pattern.
    func fill(_ buffer: VkBuffer, offset: Int, size: Int, pattern: UInt32) {
        vkCmdFillBuffer(commandBuffer, buffer, UInt64(offset), UInt64(size), pattern)
    }
}

extension CommandRecorder {
    /// Records the `setBytes` data of each of a push-constant twin's `slots` from `table`
    /// (checked by the twin's `canDraw(with:)`), for its `pipeline`.
    @inline(__always)
    func pushConstants(_ pipeline: PipelineObject, slots: [PushConstantSlot], from table: UnsafeMutableBufferPointer<BufferBinding>) {
        for slot in slots {
            pushConstants(pipeline, stages: VkShaderStageFlags(slot.stage.vkStage.rawValue), offset: slot.offset, size: slot.size,
                          bytes: table[slot.tableSlot.value].bytes.unsafelyUnwrapped)
        }
    }
}

/// What is wrong with a resource slot's binding when a draw or dispatch resolves it.
enum BindingProblem {
    /// Nothing is bound at the slot's index.
    case missing
    /// A combined image sampler's texture is bound, but no sampler at the same index.
    case missingCombinedSampler
    /// The buffer's offset is not a multiple of the device's minimum alignment for the
    /// slot's descriptor type.
    case misalignedOffset(offset: UInt64, alignment: UInt64)
    /// The shader reads or writes the slot as a storage image (`imageLoad`, Metal's
    /// `access::read`), but the texture bound there cannot be one: it was made without
    /// `.shaderWrite` usage.
    case notStorageImage
    /// The shader reads or writes the slot as a storage image declared without a format
    /// (Metal's `access::write`, GLSL's image without a format qualifier), and the device
    /// cannot do the accesses in `missing` for the bound texture's format.
    case accessWithoutFormat(missing: SPIRVFormatlessAccess, format: PixelFormat)
}

extension CommandRecorder {
    /// Fills `bufferInfos` / `imageInfos` at each slot's position from the binding tables,
    /// for `writeDescriptors`; calls `problem` (which stops) for a slot with nothing bound
    /// or a buffer offset the device cannot bind.
    ///
    /// The slots are read in place, by index: a copy of a slot retains its constant sampler.
    @inline(__always)
    func resolveDescriptors(_ slots: [ResourceSlot], problem: (ResourceSlot, BindingProblem) -> Never) {
        let bufferTable = encoding.bufferTable
        let bufferInfos = bufferInfos
        for position in slots.indices {
            let table = slots[position].tableSlot.value
            switch slots[position].kind {
            case .buffer:
                let binding = bufferTable[table]
                guard binding.isSet else {
                    guard slots[position].mayBeUnbound, device.nullDescriptors else { problem(slots[position], .missing) }
                    bufferInfos[position] = VkDescriptorBufferInfo(buffer: nil, offset: 0, range: VK_WHOLE_SIZE)
                    continue
                }
                var bound = binding.bound
                let isUniform = slots[position].isUniformBuffer
                let mask = isUniform ? uniformOffsetMask : storageOffsetMask
                guard bound.offset & mask == 0 else {
                    problem(slots[position], .misalignedOffset(offset: bound.offset, alignment: mask + 1))
                }
                if isUniform { bound.range = min(bound.range, maxUniformRange) }
                bufferInfos[position] = VkDescriptorBufferInfo(buffer: bound.buffer, offset: bound.offset, range: bound.range)
            case .texture:
                guard let image = encoding.textureTable[table].image?.takeUnretainedValue() else {
                    guard slots[position].mayBeUnbound, device.nullDescriptors else { problem(slots[position], .missing) }
                    imageInfos[position] = VkDescriptorImageInfo(sampler: nil, imageView: nil, imageLayout: VK_IMAGE_LAYOUT_GENERAL)
                    continue
                }
                // A storage image must have storage usage and rest in the general layout, which
                // only `.shaderWrite` textures do.
                if slots[position].descriptor == .storageImage, image.restingLayout != VK_IMAGE_LAYOUT_GENERAL {
                    problem(slots[position], .notStorageImage)
                }
                let withoutFormat = slots[position].accessWithoutFormat
                if !withoutFormat.isEmpty, !image.storageAccessWithoutFormat.isSuperset(of: withoutFormat) {
                    problem(slots[position], .accessWithoutFormat(missing: withoutFormat.subtracting(image.storageAccessWithoutFormat),
                                                                  format: image.descriptor.pixelFormat))
                }
                var sampler: VkSampler?
                if let constant = slots[position].constantSampler {
                    sampler = constant.backend.handle
                } else if slots[position].isCombinedImageSampler {
                    let samplerSlot = MetalIndex(stage: slots[position].stage, kind: .sampler, value: slots[position].index).tableSlot
                    guard let paired = encoding.samplerTable[samplerSlot.value] else {
                        problem(slots[position], .missingCombinedSampler)
                    }
                    sampler = paired
                }
                imageInfos[position] = VkDescriptorImageInfo(sampler: sampler, imageView: image.view, imageLayout: image.restingLayout)
            case .sampler:
                guard let sampler = slots[position].constantSampler?.backend.handle ?? encoding.samplerTable[table] else {
                    problem(slots[position], .missing)
                }
                imageInfos[position] = VkDescriptorImageInfo(sampler: sampler, imageView: nil, imageLayout: VK_IMAGE_LAYOUT_UNDEFINED)
            }
        }
    }
}

extension CommandRecorder {
    /// What a debug label does.
    enum DebugLabel {
        /// Opens a labelled region (`pushDebugGroup`).
        case begin
        /// Closes the innermost region (`popDebugGroup`).
        case end
        /// Marks one point (`insertDebugSignpost`, an encoder's label).
        case insert
    }

    /// Records a `VK_EXT_debug_utils` label, where the device has them (a no-op otherwise).
    func debugLabel(_ kind: DebugLabel, _ name: String) {
        guard let functions = device.debugLabels else { return }
        let commandBuffer = commandBuffer
        name.withCString { cName in
            var label = VkDebugUtilsLabelEXT()
            label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT
            label.pLabelName = cName
            switch kind {
            case .begin: functions.begin(commandBuffer, &label)
            case .end: functions.end(commandBuffer)
            case .insert: functions.insert(commandBuffer, &label)
            }
        }
    }
}
