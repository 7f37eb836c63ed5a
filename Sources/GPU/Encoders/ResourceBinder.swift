import SwiftGPUSPIRV

/// A pipeline state whose resource slots an encoder resolves at each dispatch or draw.
protocol BoundPipeline: AnyObject {
    /// The shader's resource slots, in descriptor-write order.
    var slots: [ResourceSlot] { get }
    /// The Vulkan pipeline.
    var backend: PipelineObject { get }
    /// The shader function names, for messages.
    var functionLabel: String { get }
}

extension ComputePipelineState: BoundPipeline {
    var functionLabel: String { functionName }
}

extension RenderPipelineState: BoundPipeline {
    var functionLabel: String { functionNames }
}

/// The resources an encoder records with `set*` calls, and their resolution against a
/// pipeline's slots at each dispatch or draw: missing bindings stop with a message,
/// hazards get a barrier, descriptors are written.
struct ResourceBinder {
    let context: CommandRecorder

    init(context: CommandRecorder) {
        self.context = context
        context.encoding.clearTables()
    }

    /// Records `buffer` at `index` of `stage`.
    @inline(__always)
    func setBuffer(_ buffer: Buffer, offset: Int, index: Int, stage: ShaderStage, call: StaticString) {
        // The context, which the encoder holds while it records, is read in place: no
        // count for the call's lock and list updates.
        Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef {
            Self.setBuffer(buffer, offset: offset, index: index, stage: stage, in: $0, call: call)
        }
    }

    /// `setBuffer(_:offset:index:stage:call:)` into `context`'s encoding state, for an
    /// encoder that reads its context in place (a binder loaded from the encoder is a copy,
    /// whose context reference is counted).
    @inline(__always)
    static func setBuffer(_ buffer: Buffer, offset: Int, index: Int, stage: ShaderStage, in context: CommandRecorder,
                          call: StaticString) {
        Self.check(index, limit: BindingConvention.maxBufferIndex, call: call, what: "buffer")
        guard offset >= 0, offset < buffer.length else {
            misuse("\(call): offset \(offset) is outside the buffer's \(buffer.length) bytes")
        }
        let handle = retainMemory(of: buffer, in: context, call: call)
        context.encoding.setBuffer(BufferBinding(
            isSet: true,
            bound: BoundBuffer(buffer: handle, offset: UInt64(offset), range: UInt64(buffer.length - offset)),
            owner: buffer.hazardID), at: MetalIndex(stage: stage, kind: .buffer, value: index).tableSlot.value)
    }

    /// The Vulkan handle of `buffer`'s memory, the buffer and its memory kept until the
    /// command buffer completes (the memory outlives a discard until the GPU is done).
    /// Stops when the contents are discarded.
    @inline(__always)
    func retainMemory(of buffer: Buffer, call: StaticString) -> OpaquePointer {
        Self.retainMemory(of: buffer, in: context, call: call)
    }

    /// `retainMemory(of:call:)` into `context`'s encoding state.
    @inline(__always)
    private static func retainMemory(of buffer: Buffer, in context: CommandRecorder, call: StaticString) -> OpaquePointer {
        if let last = context.encoding.lastBound, last.buffer == ObjectIdentifier(buffer) {
            // The buffer used last (rebound at a new offset per draw, or the same argument
            // buffer): the memory it had then, already retained, read without the buffer's
            // lock. Both stay in `retained` until the command buffer completes, so the
            // identifier cannot name another buffer.
            return last.backing._withUnsafeGuaranteedRef { $0.handle }
        }
        // The memory's reference is taken under the buffer's lock and handed to the list.
        let backing = buffer.retainedBacking(call)
        context.encoding.retained.append(buffer)
        context.encoding.retained.append(retained: backing)
        context.encoding.lastBound = (ObjectIdentifier(buffer), backing)
        return backing._withUnsafeGuaranteedRef { $0.handle }
    }

    /// Moves the buffer bound at `index` of `stage` to `offset` in it, keeping the buffer:
    /// Metal's `set*BufferOffset`.
    @inline(__always)
    func setBufferOffset(_ offset: Int, index: Int, stage: ShaderStage, call: StaticString) {
        Self.check(index, limit: BindingConvention.maxBufferIndex, call: call, what: "buffer")
        let slot = MetalIndex(stage: stage, kind: .buffer, value: index).tableSlot.value
        var binding = context.encoding.bufferTable[slot]
        guard binding.isSet, binding.bytes == nil else {
            misuse("\(call): no buffer is set at \(stage) buffer index \(index) (setBytes data has no offset to move)")
        }
        let end = binding.bound.offset + binding.bound.range   // the buffer's length
        guard offset >= 0, UInt64(offset) < end else {
            misuse("\(call): offset \(offset) is outside the buffer's \(end) bytes")
        }
        binding.bound.offset = UInt64(offset)
        binding.bound.range = end - UInt64(offset)
        context.encoding.setBuffer(binding, at: slot)
    }

    /// Copies up to 4 KB into the command buffer's upload ring and records it at `index`.
    /// Returns the table slot, and whether the bytes replace `setBytes` data of no more
    /// bytes (so that whatever the old data could feed, the new can).
    @inline(__always)
    func setBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int, stage: ShaderStage,
                  call: StaticString) throws(VulkanError) -> (slot: Int, replacesBytes: Bool) {
        Self.check(index, limit: BindingConvention.maxBufferIndex, call: call, what: "buffer")
        guard length > 0, length <= 4096 else {
            misuse("\(call): length \(length) is outside 1...4096 bytes; use a buffer for larger data")
        }
        let slot = MetalIndex(stage: stage, kind: .buffer, value: index).tableSlot.value
        let previous = context.encoding.bufferTable[slot]
        let placed = try context.upload(bytes, length: length, alignment: context.bytesAlignment)
        context.encoding.setBuffer(BufferBinding(
            isSet: true,
            bound: BoundBuffer(buffer: placed.buffer, offset: UInt64(placed.offset), range: UInt64(length)),
            owner: nil, bytes: placed.host), at: slot)
        return (slot, previous.bytes != nil && UInt64(length) >= previous.bound.range)
    }

    /// Where the `setBytes` data at table slot `slot` sits, for a caller that knows nothing
    /// refers to that memory and will copy `length` new bytes over it; nil unless that data
    /// is `length` bytes long.
    @inline(__always)
    func overwritableBytes(length: Int, slot: Int) -> UnsafeMutableRawPointer? {
        let binding = context.encoding.bufferTable[slot]
        guard binding.bound.range == UInt64(truncatingIfNeeded: length), let target = binding.bytes else { return nil }
        return UnsafeMutableRawPointer(mutating: target)
    }

    /// Records `texture` at `index` of `stage`.
    func setTexture(_ texture: Texture, index: Int, stage: ShaderStage, call: StaticString) {
        Self.check(index, limit: BindingConvention.maxTextureIndex, call: call, what: "texture")
        // The texture and its image now (which outlives a discard until the GPU is done).
        let image = texture.retainBacking(in: context, call: call)
        context.encoding.setTexture(TextureBinding(image: Unmanaged.passUnretained(image), owner: texture.hazardID),
                                    at: MetalIndex(stage: stage, kind: .texture, value: index).tableSlot.value)
    }

    /// Records `sampler` at `index` of `stage`.
    func setSamplerState(_ sampler: SamplerState, index: Int, stage: ShaderStage, call: StaticString) {
        Self.check(index, limit: BindingConvention.maxSamplerIndex, call: call, what: "sampler")
        context.encoding.retained.append(sampler)
        context.encoding.setSampler(sampler.backend.handle, at: MetalIndex(stage: stage, kind: .sampler, value: index).tableSlot.value)
    }

    /// Resolves `slots` for a command named `call`: stops if a slot is unbound, emits a
    /// barrier on a buffer hazard (outside render passes), and writes the descriptors.
    /// `indirect` is a buffer the command reads its arguments from: a hazard like a bound
    /// buffer's (the barrier's reads include Vulkan's indirect-command read at the
    /// draw-indirect stage).
    func flush<Pipeline: BoundPipeline>(_ state: Pipeline, call: StaticString, trackHazards: Bool = true,
                                        indirect: ObjectIdentifier? = nil) throws(VulkanError) {
        try Self.flush(state, call: call, trackHazards: trackHazards, indirect: indirect, in: context)
    }

    /// `flush(_:call:trackHazards:indirect:)` into `context`'s encoding state, for an encoder
    /// that reads its context in place (a binder loaded from the encoder is a copy, whose
    /// context reference is counted).
    static func flush<Pipeline: BoundPipeline>(_ state: Pipeline, call: StaticString, trackHazards: Bool,
                                               indirect: ObjectIdentifier?, in context: CommandRecorder) throws(VulkanError) {
        // Read through `state` (borrowed for the call) so that no per-draw reference counting
        // is needed for the slots, the Vulkan pipeline or the names.
        let slots = state.slots
        context.resolveDescriptors(slots) { slot, problem in
            switch problem {
            case .missing:
                misuse("\(call): '\(state.functionLabel)' uses \(slot.stage) \(slot.kind) index \(slot.index), but no "
                    + (slot.kind == .buffer ? "buffer or bytes are" : "\(slot.kind) is") + " set there")
            case .missingCombinedSampler:
                misuse("\(call): '\(state.functionLabel)' samples \(slot.stage) texture index \(slot.index) with a combined sampler, "
                    + "but no sampler is set at sampler index \(slot.index)")
            case .misalignedOffset(let offset, let alignment):
                misuse("\(call): \(slot.stage) buffer index \(slot.index) is bound at offset \(offset), which is not a multiple of "
                    + "this device's \(alignment)-byte alignment for \(slot.descriptor == .uniformBuffer ? "uniform" : "storage") buffers")
            case .notStorageImage:
                misuse("\(call): '\(state.functionLabel)' uses \(slot.stage) texture index \(slot.index) as a storage image "
                    + "(imageLoad/imageStore, Metal's access::read or access::write), which needs a texture made with .shaderWrite "
                    + "usage; the texture bound there has none (add .shaderWrite to its usage, or sample it)")
            case .accessWithoutFormat(let missing, let format):
                let access = missing == [.read, .write] ? "read or write" : missing.contains(.read) ? "read" : "write"
                misuse("\(call): '\(state.functionLabel)' uses \(slot.stage) texture index \(slot.index) as a storage image "
                    + "declared without a format (Metal's access::write and access::read_write, GLSL's image without a format "
                    + "qualifier), and this device cannot \(access) a .\(format) texture that way (Vulkan's "
                    + "STORAGE_\(missing.contains(.read) ? "READ" : "WRITE")_WITHOUT_FORMAT format feature); bind a texture of "
                    + "another format, or declare the format in the shader")
            }
        }
        if trackHazards {
            // Two passes over the slots with no closures: this runs for every dispatch and
            // must not allocate.
            // By index, not `for slot in slots`: the iterator copies each slot out (a retain
            // and a release of its constant sampler).
            var hazard = indirect.map { context.encoding.hazards.conflicts($0, writing: false) } ?? false
            for index in slots.indices {
                if let id = owner(of: slots[index], in: context), context.encoding.hazards.conflicts(id, writing: slots[index].isWritten) {
                    hazard = true
                }
            }
            if !context.encoding.declaredUses.isEmpty, declaredUsesConflict(in: context) { hazard = true }
            if hazard {
                context.encoding.hazards.barrier()
                context.memoryBarrier()
            }
            for index in slots.indices {
                if let id = owner(of: slots[index], in: context) { context.encoding.hazards.record(id, writing: slots[index].isWritten) }
            }
            if let indirect { context.encoding.hazards.record(indirect, writing: false) }
            if !context.encoding.declaredUses.isEmpty { recordDeclaredUses(in: context) }
        }
        try context.writeDescriptors(slots: slots, pipeline: state.backend)
    }

    /// Records that commands the host records itself in `commandBuffer`, and the encoder's
    /// later dispatches, use `resource` with `usage`: it stays alive until the command
    /// buffer completes, the hazard record learns the access (again at each dispatch), and
    /// a texture written makes `getBytes` wait for the command buffer. With `barrier`
    /// (outside render passes) a conflict with earlier commands gets a barrier first, as a
    /// dispatch's would.
    ///
    /// Stops for a resource of another device or of a type SwiftGPU did not make (it could
    /// track neither). Declaring a resource again costs no memory: it is retained once per
    /// command buffer, and recorded in the hazard record again only for an access it lacks.
    func declareHostUse(_ resource: any Resource, usage: ResourceUsage, barrier: Bool, commandBuffer: CommandBuffer,
                        call: StaticString) {
        let writing = usage.contains(.write)
        let backing: AnyObject
        let id: ObjectIdentifier?
        switch resource {
        case let buffer as Buffer:
            if buffer.device !== commandBuffer.device {
                misuse("\(call): the \(buffer.misuseDescription) belongs to another device than the command buffer's")
            }
            backing = buffer.backing(call)
            id = buffer.hazardID
        case let texture as Texture:
            if texture.device !== commandBuffer.device {
                misuse("\(call): the \(texture.misuseDescription) belongs to another device than the command buffer's")
            }
            backing = texture.backing(call)
            id = texture.hazardID
        default:
            misuse("\(call): \(type(of: resource)) is not a Buffer or a Texture; SwiftGPU can track only the resources it made")
        }
        // The resource and its memory now (which outlives a discard until the GPU is done
        // with it), once per command buffer and memory.
        if context.encoding.hostResources.insert(ObjectIdentifier(backing)).inserted {
            context.encoding.retained.append(resource)
            context.encoding.retained.append(backing)
        }
        if writing, let texture = resource as? Texture { commandBuffer.noteWrite(to: texture) }
        if let id { declareAccess(id, writing: writing, barrier: barrier) }
    }

    /// Records that commands read `id` (and write it, when `writing`); with `barrier`
    /// (outside render passes) a conflict with earlier commands gets a barrier first.
    private func declareAccess(_ id: ObjectIdentifier, writing: Bool, barrier: Bool) {
        if barrier, context.encoding.hazards.conflicts(id, writing: writing) {
            context.encoding.hazards.barrier()
            context.memoryBarrier()
        }
        context.encoding.hazards.recordOnce(id, writing: writing)
        if let index = context.encoding.declaredUses.firstIndex(where: { $0.id == id }) {
            context.encoding.declaredUses[index].writing = context.encoding.declaredUses[index].writing || writing
            context.encoding.declaredUses[index].sinceDispatch = true
        } else {
            context.encoding.declaredUses.append(DeclaredUse(id: id, writing: writing, sinceDispatch: true))
        }
    }

    /// Whether a dispatch that uses what the encoder declared must wait for earlier
    /// commands: a declaration made since the last dispatch already waited for them.
    private static func declaredUsesConflict(in context: CommandRecorder) -> Bool {
        context.encoding.declaredUses.contains { use in
            !use.sinceDispatch && context.encoding.hazards.conflicts(use.id, writing: use.writing)
        }
    }

    /// Records that a dispatch used what the encoder declared.
    private static func recordDeclaredUses(in context: CommandRecorder) {
        for index in context.encoding.declaredUses.indices {
            let use = context.encoding.declaredUses[index]
            context.encoding.hazards.recordOnce(use.id, writing: use.writing)
            context.encoding.declaredUses[index].sinceDispatch = false
        }
    }

    /// Records that the encoder's commands read resources of `heap` that no binding names
    /// (Metal's `useHeap(_:)`): the heap's memory stays alive until the command buffer
    /// completes, and for a tracked heap the read is in the hazard record, as a bound
    /// resource's (with `barrier`, outside render passes, after earlier writes).
    func declareHeapUse(_ heap: Heap, barrier: Bool, commandBuffer: CommandBuffer, call: StaticString) {
        if heap.device !== commandBuffer.device {
            misuse("\(call): the \(heap.misuseDescription) belongs to another device than the command buffer's")
        }
        let memory = heap.currentBacking(call)
        if context.encoding.hostResources.insert(ObjectIdentifier(memory)).inserted {
            context.encoding.retained.append(heap)
            context.encoding.retained.append(memory)
        }
        if heap.hazardTrackingMode == .tracked { declareAccess(ObjectIdentifier(heap), writing: false, barrier: barrier) }
    }

    /// Waits, before the encoder's next commands, for every command recorded before them:
    /// what a fence an earlier encoder updated orders (Metal's `waitForFence(_:)`), as a
    /// barrier from all earlier writes, which also restarts the hazard record.
    func waitForEarlierCommands() {
        context.encoding.hazards.barrier()
        context.memoryBarrier()
    }

    /// The recording command buffer, for a host's own commands.
    var vulkanCommandBuffer: OpaquePointer { context.commandBuffer }

    /// What the hazard record names the object bound to `slot` by: a tracked buffer's or
    /// texture's identity (nil for untracked resources, bytes and samplers).
    @inline(__always)
    private static func owner(of slot: borrowing ResourceSlot, in context: CommandRecorder) -> ObjectIdentifier? {
        switch slot.kind {
        case .buffer: context.encoding.bufferTable[slot.tableSlot.value].owner
        case .texture: context.encoding.textureTable[slot.tableSlot.value].owner
        case .sampler: nil
        }
    }

    private static func check(_ index: Int, limit: Int, call: StaticString, what: String) {
        guard (0...limit).contains(index) else { misuse("\(call): \(what) index \(index) is outside 0...\(limit)") }
    }
}
