/// Records copies and fills, Metal's `MTLBlitCommandEncoder`.
public final class BlitCommandEncoder {
    /// The command buffer it records into.
    public let commandBuffer: CommandBuffer
    private let context: VulkanCommandContext
    private var isEnded = false

    init(commandBuffer: CommandBuffer) throws(GPUError) {
        self.commandBuffer = commandBuffer
        context = try commandBuffer.beginEncoder("blit", call: "makeBlitCommandEncoder()")
    }

    /// Copies `size` bytes between buffers.
    public func copy(from source: Buffer, sourceOffset: Int, to destination: Buffer, destinationOffset: Int, size: Int) {
        let call = "copy(from:sourceOffset:to:destinationOffset:size:)"
        checkOpen(call)
        checkRange(source, sourceOffset..<(sourceOffset + size), call: call, role: "source")
        checkRange(destination, destinationOffset..<(destinationOffset + size), call: call, role: "destination")
        guard size > 0 else { return }
        track(reading: source, writing: destination)
        context.copy(from: source.backing.handle, offset: sourceOffset, to: destination.backing.handle,
                     offset: destinationOffset, size: size)
    }

    /// Sets every byte of `range` in `buffer` to `value`.
    public func fill(buffer: Buffer, range: Range<Int>, value: UInt8) {
        let call = "fill(buffer:range:value:)"
        checkOpen(call)
        checkRange(buffer, range, call: call, role: "buffer")
        guard !range.isEmpty else { return }
        track(reading: nil, writing: buffer)
        // vkCmdFillBuffer needs 4-byte alignment; unaligned edges are copied from the ring.
        let alignedStart = min((range.lowerBound + 3) & ~3, range.upperBound)
        let alignedEnd = max(range.upperBound & ~3, alignedStart)
        if alignedEnd > alignedStart {
            context.fill(buffer.backing.handle, offset: alignedStart, size: alignedEnd - alignedStart,
                         pattern: UInt32(value) * 0x0101_0101)
        }
        for edge in [range.lowerBound..<alignedStart, alignedEnd..<range.upperBound] where !edge.isEmpty {
            var bytes: (UInt8, UInt8, UInt8) = (value, value, value)
            guard let placed = withUnsafeBytes(of: &bytes, { try? context.upload($0.baseAddress!, length: edge.count, alignment: 4) })
            else { misuse("\(call): the upload ring could not be grown") }
            context.copy(from: placed.buffer.handle, offset: placed.offset, to: buffer.backing.handle,
                         offset: edge.lowerBound, size: edge.count)
        }
    }

    /// Ends encoding; the encoder may not be used again.
    public func endEncoding() {
        checkOpen("endEncoding()")
        isEnded = true
        commandBuffer.endEncoder()
    }

    private func track(reading source: Buffer?, writing destination: Buffer) {
        context.retained.append(destination)
        if let source { context.retained.append(source) }
        if context.hazards.needsBarrier(reading: CollectionOfOne(source.map(ObjectIdentifier.init)).lazy.compactMap { $0 },
                                        writing: CollectionOfOne(ObjectIdentifier(destination))) {
            context.memoryBarrier()
        }
    }

    private func checkRange(_ buffer: Buffer, _ range: Range<Int>, call: String, role: String) {
        guard range.lowerBound >= 0, range.upperBound <= buffer.length else {
            misuse("\(call): \(role) range \(range) is outside the buffer's \(buffer.length) bytes")
        }
    }

    private func checkOpen(_ call: String) {
        if isEnded { misuse("\(call) called on a blit command encoder after endEncoding()") }
    }
}

extension CommandBuffer {
    /// Makes a blit encoder. Stops if another encoder is open or the buffer is committed.
    public func makeBlitCommandEncoder() throws(GPUError) -> BlitCommandEncoder {
        try BlitCommandEncoder(commandBuffer: self)
    }
}
