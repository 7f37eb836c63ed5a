/// Records copies and fills, Metal's `MTLBlitCommandEncoder`.
public final class BlitCommandEncoder {
    /// The command buffer it records into.
    let commandBuffer: CommandBuffer
    private let context: CommandRecorder
    private var lifecycle = EncoderLifecycle(.blit)
    /// The counter samples its pass descriptor asks for at its end.
    private let passSamples: PassCounterSamples

    init(commandBuffer: CommandBuffer, samples: PassCounterSamples = PassCounterSamples(), call: String) throws(GPUError) {
        self.commandBuffer = commandBuffer
        context = try commandBuffer.beginEncoder(.blit, call: call).context
        passSamples = samples
        samples.recordStart(in: context)
    }

    /// Takes a counter sample between blits, Metal's
    /// `sampleCounters(sampleBuffer:sampleIndex:barrier:)`: a timestamp written into
    /// `sampleIndex` as the GPU reaches this point or, with `barrier`, once the blits
    /// before it are done. Stops with a misuse message for an index outside the buffer and
    /// for a statistic buffer (statistics are sampled at a pass's start and end, through
    /// ``BlitPassDescriptor/sampleBufferAttachments``).
    public func sampleCounters(sampleBuffer: CounterSampleBuffer, sampleIndex: Int, barrier: Bool) {
        checkOpen(#function)
        sampleBuffer.sample(at: sampleIndex, barrier: barrier, point: .atBlitBoundary, in: context, call: #function)
    }

    /// Resolves the timestamps of `range` of `sampleBuffer` into `destinationBuffer` from
    /// `destinationOffset`, Metal's `resolveCounters(_:range:destinationBuffer:destinationOffset:)`:
    /// a ``CounterResultTimestamp`` a sample, the values ``CounterSampleBuffer/resolveCounterRange(_:)``
    /// gives (host nanoseconds; ``counterErrorValue`` for a sample not written), including
    /// samples this command buffer took before this command. Stops with a misuse message
    /// for a range outside the buffer's samples, an offset that is not a multiple of 8, a
    /// destination too small, and a statistic sample buffer (resolved on the CPU only).
    public func resolveCounters(_ sampleBuffer: CounterSampleBuffer, range: Range<Int>, destinationBuffer: Buffer,
                                destinationOffset: Int) {
        checkOpen(#function)
        sampleBuffer.checkResolve(range, into: destinationBuffer, offset: destinationOffset, device: commandBuffer.device,
                                  call: #function)
        guard !range.isEmpty else { return }
        let kernel: PipelineObject
        do {
            kernel = try sampleBuffer.resolveKernel()
        } catch {
            commandBuffer.recordFailure(CommandBufferError(error))
            return
        }
        track(reading: sampleBuffer, writing: destinationBuffer)
        context.encoding.retained.append(kernel)
        context.resolveTimestamps(sampleBuffer.queries, range: range, into: destinationBuffer.backing(), offset: destinationOffset,
                                  pipeline: kernel)
    }

    /// Marks `fence` updated once the encoder's copies are done, Metal's `updateFence(_:)`:
    /// an encoder that waits for it later, in this command buffer or a later one on the
    /// queue, runs after them.
    public func updateFence(_ fence: Fence) {
        checkOpen(#function)
        fence.use(in: context, by: commandBuffer, call: #function)
    }

    /// Makes the encoder's later copies wait until the encoders that updated `fence` are
    /// done, Metal's `waitForFence(_:)`: call it before the copies that need it. It is
    /// recorded as a barrier from every earlier command's writes.
    public func waitForFence(_ fence: Fence) {
        checkOpen(#function)
        fence.use(in: context, by: commandBuffer, call: #function)
        context.encoding.hazards.barrier()
        context.memoryBarrier()
    }

    /// Copies `size` bytes between buffers.
    public func copy(from source: Buffer, sourceOffset: Int, to destination: Buffer, destinationOffset: Int, size: Int) {
        let call = #function
        checkOpen(#function)
        checkByteRange(offset: sourceOffset, size: size, within: source.length, call: call, role: "source")
        checkByteRange(offset: destinationOffset, size: size, within: destination.length, call: call, role: "destination")
        guard size > 0 else { return }
        track(reading: source, writing: destination)
        context.copy(from: source.backing().handle, offset: sourceOffset, to: destination.backing().handle,
                     offset: destinationOffset, size: size)
    }

    /// Sets every byte of `range` in `buffer` to `value`.
    public func fill(buffer: Buffer, range: Range<Int>, value: UInt8) {
        let call = #function
        checkOpen(#function)
        checkByteRange(offset: range.lowerBound, size: range.count, within: buffer.length, call: call, role: "buffer")
        guard !range.isEmpty else { return }
        track(reading: nil, writing: buffer)
        // vkCmdFillBuffer needs 4-byte alignment; unaligned edges are copied from the ring.
        let alignedStart = min((range.lowerBound + 3) & ~3, range.upperBound)
        let alignedEnd = max(range.upperBound & ~3, alignedStart)
        if alignedEnd > alignedStart {
            context.fill(buffer.backing().handle, offset: alignedStart, size: alignedEnd - alignedStart,
                         pattern: UInt32(value) * 0x0101_0101)
        }
        for edge in [range.lowerBound..<alignedStart, alignedEnd..<range.upperBound] where !edge.isEmpty {
            var bytes: (UInt8, UInt8, UInt8) = (value, value, value)
            let upload = Result { () throws(VulkanError) in
                try withUnsafeBytes(of: &bytes) { (bytes) throws(VulkanError) in
                    try context.upload(bytes.baseAddress!, length: edge.count, alignment: 4)
                }
            }
            guard case .success(let placed) = upload else {
                // A runtime condition, not misuse: the buffer ends in .error at commit.
                if case .failure(let error) = upload { commandBuffer.recordFailure(CommandBufferError(error)) }
                return
            }
            context.copy(from: placed.buffer, offset: placed.offset, to: buffer.backing().handle,
                         offset: edge.lowerBound, size: edge.count)
        }
    }

    /// Copies a region of one level and slice of `source` into `destination`, rows
    /// `destinationBytesPerRow` apart. `sourceSize` defaults to the whole level.
    public func copy(from source: Texture, sourceSlice: Int = 0, sourceLevel: Int = 0, sourceOrigin: Origin = Origin(),
                     sourceSize: Size? = nil, to destination: Buffer, destinationOffset: Int, destinationBytesPerRow: Int) {
        let call = #function
        checkOpen(#function)
        let size = sourceSize ?? source.size(ofLevel: sourceLevel)
        source.checkRegion(Region(origin: sourceOrigin, size: size), level: sourceLevel, slice: sourceSlice,
                           bytesPerRow: destinationBytesPerRow, call: call)
        let length = checkedProduct(destinationBytesPerRow, size.height, call: call, what: "destinationBytesPerRow × height")
        checkByteRange(offset: destinationOffset, size: length, within: destination.length, call: call, role: "destination")
        track(reading: source, writing: destination)
        context.copy(buffer: destination.backing().handle, offset: destinationOffset, bytesPerRow: destinationBytesPerRow,
                     image: source.backing(), level: sourceLevel, layer: sourceSlice, origin: sourceOrigin, size: size,
                     toImage: false)
    }

    /// Copies rows `sourceBytesPerRow` apart from `source` into a region of one level and
    /// slice of `destination`.
    public func copy(from source: Buffer, sourceOffset: Int, sourceBytesPerRow: Int, sourceSize: Size,
                     to destination: Texture, destinationSlice: Int = 0, destinationLevel: Int = 0,
                     destinationOrigin: Origin = Origin()) {
        let call = #function
        checkOpen(#function)
        destination.checkRegion(Region(origin: destinationOrigin, size: sourceSize), level: destinationLevel,
                                slice: destinationSlice, bytesPerRow: sourceBytesPerRow, call: call)
        let length = checkedProduct(sourceBytesPerRow, sourceSize.height, call: call, what: "sourceBytesPerRow × height")
        checkByteRange(offset: sourceOffset, size: length, within: source.length, call: call, role: "source")
        track(reading: source, writing: destination)
        commandBuffer.noteWrite(to: destination)
        context.copy(buffer: source.backing().handle, offset: sourceOffset, bytesPerRow: sourceBytesPerRow,
                     image: destination.backing(), level: destinationLevel, layer: destinationSlice,
                     origin: destinationOrigin, size: sourceSize, toImage: true)
    }

    /// Copies one whole level and slice between textures of the same format and level size.
    public func copy(from source: Texture, sourceSlice: Int = 0, sourceLevel: Int = 0,
                     to destination: Texture, destinationSlice: Int = 0, destinationLevel: Int = 0) {
        let call = #function
        checkOpen(#function)
        let size = source.size(ofLevel: sourceLevel)
        guard source !== destination else { misuse("\(call): source and destination are the same \(source.misuseDescription)") }
        guard source.pixelFormat == destination.pixelFormat, size == destination.size(ofLevel: destinationLevel) else {
            misuse("\(call): textures differ in format or level size (\(source.pixelFormat) \(size), "
                + "\(destination.pixelFormat) \(destination.size(ofLevel: destinationLevel)))")
        }
        let bytesPerRow = size.width * source.pixelFormat.bytesPerPixel
        source.checkRegion(Region(origin: Origin(), size: size), level: sourceLevel, slice: sourceSlice,
                           bytesPerRow: bytesPerRow, call: call)
        destination.checkRegion(Region(origin: Origin(), size: size), level: destinationLevel, slice: destinationSlice,
                                bytesPerRow: bytesPerRow, call: call)
        track(reading: source, writing: destination)
        commandBuffer.noteWrite(to: destination)
        context.copy(image: source.backing(), level: sourceLevel, layer: sourceSlice,
                     to: destination.backing(), level: destinationLevel, layer: destinationSlice, size: size)
    }

    /// Fills every level after the first by successive linear downsampling of level 0.
    public func generateMipmaps(for texture: Texture) {
        checkOpen(#function)
        track(reading: texture, writing: texture)
        commandBuffer.noteWrite(to: texture)
        guard texture.mipmapLevelCount > 1 else { return }
        context.generateMipmaps(texture.backing())
    }

    /// Moves a new texture's image into the layout SwiftGPU keeps it in.
    func initializeLayout(of image: ImageAllocation) {
        context.encoding.retained.append(image)
        context.initializeLayout(image)
    }

    /// A label for debugging, recorded as a debug signpost where it is set (visible in
    /// RenderDoc and validation messages).
    public var label: String? {
        didSet { if let label { context.debugLabel(.insert, label) } }
    }

    /// Opens a debug group named `string` (a `VK_EXT_debug_utils` label region).
    public func pushDebugGroup(_ string: String) {
        checkOpen(#function)
        lifecycle.debugGroups.push(string, into: context)
    }

    /// Closes the innermost debug group; stops when none is open.
    public func popDebugGroup() {
        checkOpen(#function)
        lifecycle.debugGroups.pop(into: context, call: #function)
    }

    /// Marks this point with `string`.
    public func insertDebugSignpost(_ string: String) {
        checkOpen(#function)
        context.debugLabel(.insert, string)
    }

    /// Ends encoding; the encoder may not be used again.
    public func endEncoding() {
        lifecycle.end(#function)
        passSamples.recordEnd(in: context)
        context.restoreRestingLayouts()
        commandBuffer.endEncoder()
    }

    private func track(reading source: AnyObject?, writing destination: AnyObject) {
        context.encoding.retained.append(destination)
        if let source { context.encoding.retained.append(source) }
        // A buffer's memory now, which outlives a discard until the GPU is done with it.
        for case let buffer as Buffer in [destination, source] { context.encoding.retained.append(buffer.backing()) }
        for case let texture as Texture in [destination, source] { context.encoding.retained.append(texture.backing()) }
        // A view shares its parent's hazards; untracked resources have none.
        func identity(_ resource: AnyObject?) -> ObjectIdentifier? {
            (resource as? Buffer)?.hazardID ?? (resource as? Texture)?.hazardID
        }
        let read = identity(source), written = identity(destination)
        if read.map({ context.encoding.hazards.conflicts($0, writing: false) }) == true
            || written.map({ context.encoding.hazards.conflicts($0, writing: true) }) == true {
            context.encoding.hazards.barrier()
            context.memoryBarrier()
        }
        if let read { context.encoding.hazards.record(read, writing: false) }
        if let written { context.encoding.hazards.record(written, writing: true) }
    }

    private func checkOpen(_ call: StaticString) { lifecycle.check(call) }
}

extension CommandBuffer {
    /// Makes a blit encoder. Stops if another encoder is open or the buffer is committed.
    public func makeBlitCommandEncoder() throws(GPUError) -> BlitCommandEncoder {
        try BlitCommandEncoder(commandBuffer: self, call: #function)
    }

    /// Makes a blit encoder that samples counters at its start and end as `descriptor`'s
    /// ``BlitPassDescriptor/sampleBufferAttachments`` say, Metal's
    /// `makeBlitCommandEncoder(descriptor:)`. Stops as ``makeBlitCommandEncoder()`` does,
    /// and for a sample index outside its buffer or a second statistic buffer.
    public func makeBlitCommandEncoder(descriptor: BlitPassDescriptor) throws(GPUError) -> BlitCommandEncoder {
        let call = "\(#function)"
        return try BlitCommandEncoder(commandBuffer: self,
                                      samples: PassCounterSamples(encoder: descriptor.sampleBufferAttachments.all, call: call),
                                      call: call)
    }
}
