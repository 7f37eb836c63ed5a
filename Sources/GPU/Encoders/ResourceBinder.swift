/// The buffer bindings an encoder records with `setBuffer` and `setBytes`, and their
/// resolution against a pipeline's slots at each dispatch or draw: missing bindings stop
/// with a message, hazards get a barrier, descriptors are written.
struct ResourceBinder {
    let context: VulkanCommandContext
    /// Where this stage's buffer indices start in the context's table.
    let tableBase: Int

    init(context: VulkanCommandContext, tableBase: Int) {
        self.context = context
        self.tableBase = tableBase
        for index in 0...BindingConvention.maxBufferIndex { context.bufferTable[tableBase + index] = BufferBinding() }
    }

    /// Records `buffer` at `index`.
    func setBuffer(_ buffer: Buffer, offset: Int, index: Int, call: String) {
        checkIndex(index, call: call)
        guard offset >= 0, offset < buffer.length else {
            misuse("\(call): offset \(offset) is outside the buffer's \(buffer.length) bytes")
        }
        context.retained.append(buffer)
        context.bufferTable[tableBase + index] = BufferBinding(
            isSet: true,
            bound: BoundBuffer(buffer: buffer.backing.handle, offset: UInt64(offset), range: UInt64(buffer.length - offset)),
            owner: ObjectIdentifier(buffer))
    }

    /// Copies up to 4 KB into the command buffer's upload ring and records it at `index`.
    func setBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int, call: String) throws(GPUError) {
        checkIndex(index, call: call)
        guard length > 0, length <= 4096 else {
            misuse("\(call): length \(length) is outside 1...4096 bytes; use a buffer for larger data")
        }
        let limits = context.device.physical.limits
        let alignment = Int(max(limits.minUniformBufferOffsetAlignment, limits.minStorageBufferOffsetAlignment, 16))
        let placed: (buffer: VulkanBuffer, offset: Int)
        do {
            placed = try context.upload(bytes, length: length, alignment: alignment)
        } catch {
            throw .vulkan(error)
        }
        context.bufferTable[tableBase + index] = BufferBinding(
            isSet: true,
            bound: BoundBuffer(buffer: placed.buffer.handle, offset: UInt64(placed.offset), range: UInt64(length)),
            owner: nil)
    }

    /// Resolves `slots` of the pipeline `function` for a command named `call`: stops if a
    /// slot is unbound, emits a barrier on a hazard, and writes the descriptors.
    func flush(slots: [ResourceSlot], pipeline: VulkanPipeline, function: String, call: String) throws(GPUError) {
        let maxUniformRange = UInt64(context.device.physical.limits.maxUniformBufferRange)
        for (position, slot) in slots.enumerated() {
            let binding = context.bufferTable[tableBase + slot.index]
            guard binding.isSet else {
                misuse("\(call): '\(function)' uses buffer index \(slot.index), but no buffer or bytes are set there")
            }
            var bound = binding.bound
            if slot.descriptor == .uniformBuffer { bound.range = min(bound.range, maxUniformRange) }
            context.resolved[position] = bound
        }
        let table = context.bufferTable
        let base = tableBase
        let reads = slots.lazy.compactMap { table[base + $0.index].owner }
        let writes = slots.lazy.filter { !$0.isReadOnly }.compactMap { table[base + $0.index].owner }
        if context.hazards.needsBarrier(reading: reads, writing: writes) { context.memoryBarrier() }
        do {
            try context.bindBuffers(UnsafeBufferPointer(context.resolved), slots: slots, pipeline: pipeline)
        } catch {
            throw .vulkan(error)
        }
    }

    private func checkIndex(_ index: Int, call: String) {
        guard (0...BindingConvention.maxBufferIndex).contains(index) else {
            misuse("\(call): buffer index \(index) is outside 0...\(BindingConvention.maxBufferIndex)")
        }
    }
}
