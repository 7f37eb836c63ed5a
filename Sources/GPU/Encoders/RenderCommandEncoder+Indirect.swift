/// Draws whose counts the GPU reads from a buffer, as Metal's indirect draws: a compute
/// pass earlier in the command buffer may write them (the pass waits for every earlier
/// command, so the arguments are visible: Vulkan's indirect-command read at the
/// draw-indirect stage).
///
/// Unless the command buffer was made without
/// ``CommandBufferDescriptor/validatesIndirectArguments``, the GPU checks the arguments
/// before the pass begins: a vertex range past what the bound per-vertex buffers hold, an
/// instance range past the per-instance buffers, an index range past the index buffer, or
/// more than ``RenderCommandEncoder/maxValidatedIndirectVertices`` vertices × instances make
/// the draw draw nothing and the command buffer end in `.error`
/// (``CommandBufferError/invalidIndirectArguments``). The ranges are those of the buffers
/// bound when the draw is encoded.
extension RenderCommandEncoder {
    /// Draws with the ``DrawPrimitivesIndirectArguments`` at `indirectBufferOffset` in
    /// `indirectBuffer`, a multiple of 4.
    public func drawPrimitives(type: PrimitiveType, indirectBuffer: Buffer, indirectBufferOffset: Int) {
        let call: StaticString = #function
        let size = MemoryLayout<DrawPrimitivesIndirectArguments>.size
        checkIndirectArguments(indirectBuffer, offset: indirectBufferOffset, size: size, call: call)
        guard prepareDraw(type, call: call) else { return }
        let memory = noteIndirectRead(indirectBuffer, call: call)
        guard validatesIndirectArguments else {
            context.drawIndirect(memory, offset: indirectBufferOffset)
            return
        }
        guard let slot = validatedSlot(for: indirectBuffer, memory: memory, offset: indirectBufferOffset, size: size, kind: .draw,
                                       indices: nil, call: call)
        else { return }
        context.drawIndirect(slot.buffer, offset: slot.offset)
    }

    /// Draws indices of `indexBuffer` from `indexBufferOffset` (a multiple of the index
    /// size) with the ``DrawIndexedPrimitivesIndirectArguments`` at `indirectBufferOffset`
    /// in `indirectBuffer`, a multiple of 4. The arguments' `indexStart` counts from
    /// `indexBufferOffset`.
    public func drawIndexedPrimitives(type: PrimitiveType, indexType: IndexType, indexBuffer: Buffer, indexBufferOffset: Int,
                                      indirectBuffer: Buffer, indirectBufferOffset: Int) {
        let call: StaticString = #function
        guard indexBufferOffset >= 0, indexBufferOffset % indexType.size == 0, indexBufferOffset < indexBuffer.length else {
            misuse("\(call): indexBufferOffset \(indexBufferOffset) is not a multiple of the \(indexType.size)-byte index size "
                + "inside the buffer's \(indexBuffer.length) bytes")
        }
        let size = MemoryLayout<DrawIndexedPrimitivesIndirectArguments>.size
        checkIndirectArguments(indirectBuffer, offset: indirectBufferOffset, size: size, call: call)
        guard prepareDraw(type, call: call) else { return }
        let indices = binder.retainMemory(of: indexBuffer, call: call)
        var arguments = (buffer: noteIndirectRead(indirectBuffer, call: call), offset: indirectBufferOffset)
        if validatesIndirectArguments {
            guard let slot = validatedSlot(for: indirectBuffer, memory: arguments.buffer, offset: indirectBufferOffset, size: size,
                                           kind: .drawIndexed, indices: (indexBuffer.length - indexBufferOffset) / indexType.size,
                                           call: call)
            else { return }
            arguments = slot
        }
        context.drawIndexedIndirect(indexBuffer: indices, indexOffset: indexBufferOffset, type: indexType,
                                    buffer: arguments.buffer, offset: arguments.offset)
    }

    /// Keeps `buffer` and its memory alive with the command buffer and records the read, so
    /// that a later command in the buffer that writes the arguments waits for this pass;
    /// returns the memory's handle.
    @inline(__always)
    private func noteIndirectRead(_ buffer: Buffer, call: StaticString) -> OpaquePointer {
        if let id = buffer.hazardID { context.encoding.hazards.recordRead(id) }
        return binder.retainMemory(of: buffer, call: call)
    }

    /// The slot a draw reads its `size` bytes of arguments at `offset` in `buffer` (memory
    /// `memory`) from once the GPU checked them before the pass, against the ranges the
    /// bound buffers hold (and `indices` from the index buffer's offset, for an indexed
    /// draw). Nil when a resource failure was recorded on the command buffer instead.
    @inline(never)
    private func validatedSlot(for buffer: Buffer, memory: OpaquePointer, offset: Int, size: Int, kind: CommandRecorder.IndirectKind,
                               indices: Int?, call: StaticString) -> (buffer: OpaquePointer, offset: Int)? {
        do {
            return try context.validatedArguments(in: buffer, memory: memory, offset: offset, size: size, kind: kind,
                                                  limits: vertexLimits(indices: indices), call: call, device: commandBuffer.device)
        } catch {
            fail(error)
            return nil
        }
    }

    /// The ends of the vertex (or, for an indexed draw, index) range and of the instance
    /// range the bound buffers hold: `indices` from the index buffer's offset, else the
    /// elements the pipeline's per-vertex buffers hold from their offsets; the elements its
    /// per-instance buffers hold. `UInt32.max` where nothing bounds a range.
    private func vertexLimits(indices: Int?) -> (UInt32, UInt32) {
        var vertices = UInt64(UInt32.max)
        var instances = UInt64(UInt32.max)
        let table = context.encoding.bufferTable
        pipeline?._withUnsafeGuaranteedRef { pipeline in
            for fetch in pipeline.vertexFetches {
                let elements = fetch.elements(in: table[fetch.bufferIndex].bound.range)
                if fetch.perInstance { instances = min(instances, elements) } else { vertices = min(vertices, elements) }
            }
        }
        if let indices { vertices = min(UInt64(indices), UInt64(UInt32.max)) }
        return (UInt32(vertices), UInt32(instances))
    }
}

extension CommandBuffer {
    /// As a render pass ends in `context`: records the check of its indirect draws'
    /// arguments, and those of the parallel pass's `secondaries`, before the pass, when the
    /// buffer validates them; a failure is recorded on the buffer.
    func validateIndirectArguments(ofPassIn context: CommandRecorder, secondaries: [CommandRecorder] = []) {
        guard options.validatesIndirectArguments else { return }
        do {
            try context.validateRenderPassSlots(secondaries: secondaries, maxVertices: CommandRecorder.maxValidatedVertices)
        } catch {
            recordFailure(CommandBufferError(error))
        }
    }
}
