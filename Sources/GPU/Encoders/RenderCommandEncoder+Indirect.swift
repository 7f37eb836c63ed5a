/// Draws whose counts the GPU reads from a buffer, as Metal's indirect draws: a compute
/// pass earlier in the command buffer may write them (the pass waits for every earlier
/// command, so the arguments are visible: Vulkan's indirect-command read at the
/// draw-indirect stage).
extension RenderCommandEncoder {
    /// Draws with the ``DrawPrimitivesIndirectArguments`` at `indirectBufferOffset` in
    /// `indirectBuffer`, a multiple of 4.
    public func drawPrimitives(type: PrimitiveType, indirectBuffer: Buffer, indirectBufferOffset: Int) {
        let call: StaticString = #function
        checkIndirectArguments(indirectBuffer, offset: indirectBufferOffset, size: MemoryLayout<DrawPrimitivesIndirectArguments>.size,
                               call: call)
        guard prepareDraw(type, call: call) else { return }
        context.drawIndirect(noteIndirectRead(indirectBuffer, call: call), offset: indirectBufferOffset)
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
        checkIndirectArguments(indirectBuffer, offset: indirectBufferOffset,
                               size: MemoryLayout<DrawIndexedPrimitivesIndirectArguments>.size, call: call)
        guard prepareDraw(type, call: call) else { return }
        let indices = binder.retainMemory(of: indexBuffer, call: call)
        context.drawIndexedIndirect(indexBuffer: indices, indexOffset: indexBufferOffset, type: indexType,
                                    buffer: noteIndirectRead(indirectBuffer, call: call), offset: indirectBufferOffset)
    }

    /// Keeps `buffer` and its memory alive with the command buffer and records the read, so
    /// that a later command in the buffer that writes the arguments waits for this pass;
    /// returns the memory's handle.
    private func noteIndirectRead(_ buffer: Buffer, call: StaticString) -> OpaquePointer {
        if let id = buffer.hazardID { context.encoding.hazards.recordRead(id) }
        return binder.retainMemory(of: buffer, call: call)
    }
}
