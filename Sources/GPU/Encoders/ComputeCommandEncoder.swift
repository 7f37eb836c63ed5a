import SwiftGPUSPIRV

/// Records compute dispatches into a command buffer, Metal's `MTLComputeCommandEncoder`.
/// Use it on one thread; call `endEncoding()` before making another encoder or committing.
///
/// Once ended, the encoder is kept by its command buffer and reused for the buffer's next
/// compute encoder when nothing else holds it (see `SoleReference`), so a steady loop of
/// compute passes allocates no encoders.
public final class ComputeCommandEncoder {
    // An encoder is used from one thread at a time (Metal's rule, and every call here is
    // synchronous), and a reused one is reopened by the thread that makes it: no access to
    // these can overlap another, so they skip Swift's run-time exclusivity checks.
    /// The command buffer it records into; nil once ended (the buffer then keeps the
    /// encoder, and an encoder that kept its buffer would keep both alive).
    @exclusivity(unchecked) private var commandBuffer: CommandBuffer?
    @exclusivity(unchecked) private var context: CommandRecorder
    @exclusivity(unchecked) private var binder: ResourceBinder
    /// The pipeline set, unretained: `setComputePipelineState(_:)` adds it to the command
    /// buffer's retained objects, which keep it until the buffer completes, and it is read
    /// only while the encoder is open (before the commit). Read in place by the dispatches,
    /// with no reference counting.
    @exclusivity(unchecked) private var pipeline: Unmanaged<ComputePipelineState>?
    @exclusivity(unchecked) private var lifecycle = EncoderLifecycle(.compute)
    /// The Vulkan pipeline bound last: the pipeline state's own, or its push-constant twin.
    @exclusivity(unchecked) private var boundBackend: ObjectIdentifier?
    /// The counter samples its pass descriptor asks for at its end.
    private var passSamples = PassCounterSamples()
    /// The threadgroup memory lengths set, by index (nil where none is).
    @exclusivity(unchecked) private var threadgroupMemoryLengths: [Int?] = []

    init(commandBuffer: CommandBuffer, context: CommandRecorder) {
        self.commandBuffer = commandBuffer
        self.context = context
        binder = ResourceBinder(context: context)
    }

    /// Opens an ended encoder again, for `commandBuffer`, recording into `context` (read in
    /// place: the buffer's record holds it while an encoder is open).
    fileprivate func reopen(commandBuffer: CommandBuffer, context: Unmanaged<CommandRecorder>) {
        self.commandBuffer = commandBuffer
        if Unmanaged.passUnretained(self.context).toOpaque() == context.toOpaque() {
            // The same context again (a pooled one): no references change hands.
            context._withUnsafeGuaranteedRef { $0.encoding.clearTables() }
        } else {
            self.context = context.takeUnretainedValue()
            binder = ResourceBinder(context: self.context)
        }
        lifecycle = EncoderLifecycle(.compute)
        boundBackend = nil
        // Reset only when set: each assignment releases the old value, empty or not.
        if label != nil { label = nil }
        if !passSamples.isEmpty { passSamples = PassCounterSamples() }
        if !threadgroupMemoryLengths.isEmpty { threadgroupMemoryLengths = [] }
    }

    /// Sets the pipeline later dispatches use.
    public func setComputePipelineState(_ state: ComputePipelineState) {
        checkOpen(#function)
        pipeline = .passUnretained(state)
        // The context, which the encoder holds while it records, is read in place.
        Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef { $0.encoding.retained.append(state) }
    }

    /// Binds `buffer` at buffer `index` (Vulkan binding `index` in set 0).
    public func setBuffer(_ buffer: Buffer, offset: Int, index: Int) {
        checkOpen(#function)
        // Through the context, read in place, rather than a copy of the binder.
        Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef {
            ResourceBinder.setBuffer(buffer, offset: offset, index: index, stage: .compute, in: $0, call: #function)
        }
    }

    /// Moves the buffer at `index` to `offset`, keeping the buffer bound there.
    public func setBufferOffset(_ offset: Int, index: Int) {
        checkOpen(#function)
        binder.setBufferOffset(offset, index: index, stage: .compute, call: #function)
    }

    /// Copies `length` bytes (at most 4 KB) into the command buffer and binds them at
    /// buffer `index`, as a uniform or storage buffer, whichever the shader declares. As in
    /// Metal it does not throw: if the command buffer's upload memory cannot grow, the
    /// failure is recorded on the command buffer, which ends in `.error` when committed.
    public func setBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int) {
        checkOpen(#function)
        do {
            _ = try binder.setBytes(bytes, length: length, index: index, stage: .compute, call: #function)
        } catch {
            fail(error)
        }
    }

    /// Sets the length of the threadgroup memory at `index`, Metal's
    /// `setThreadgroupMemoryLength(_:index:)`: a kernel's `threadgroup T* name
    /// [[threadgroup(index)]]` argument holds `length / sizeof(T)` elements in later
    /// dispatches, each threadgroup its own. `length` is a multiple of 16, at most the
    /// device's `maxThreadgroupMemoryLength`; `index` is in 0...30. A dispatch of a kernel
    /// with such an argument stops unless its length is set and holds an element. Each set
    /// of lengths is a variant of the pipeline, made at its first dispatch.
    public func setThreadgroupMemoryLength(_ length: Int, index: Int) {
        checkOpen(#function)
        guard (0...BindingConvention.maxThreadgroupIndex).contains(index) else {
            misuse("\(#function): index \(index) is outside 0...\(BindingConvention.maxThreadgroupIndex)")
        }
        let limit = commandBuffer.unsafelyUnwrapped.device.limits.maxThreadgroupMemoryLength
        guard length >= 0, length % 16 == 0, length <= limit else {
            misuse("\(#function): length \(length) at index \(index) is not a multiple of 16 in 0...\(limit) "
                + "(this device's maxThreadgroupMemoryLength)")
        }
        if threadgroupMemoryLengths.count <= index {
            threadgroupMemoryLengths += repeatElement(nil, count: index + 1 - threadgroupMemoryLengths.count)
        }
        threadgroupMemoryLengths[index] = length
    }

    /// Binds `texture` at texture `index` (Vulkan binding 32 + `index`).
    /// A texture made with `.shaderWrite` may be written here: `getBytes` then waits for
    /// this command buffer.
    public func setTexture(_ texture: Texture, index: Int) {
        checkOpen(#function)
        binder.setTexture(texture, index: index, stage: .compute, call: #function)
        if texture.usage.contains(.shaderWrite) { commandBuffer.unsafelyUnwrapped.noteWrite(to: texture) }
    }

    /// Binds `sampler` at sampler `index` (Vulkan binding 48 + `index`; a combined
    /// `sampler2D` at texture index i uses sampler index i).
    public func setSamplerState(_ sampler: SamplerState, index: Int) {
        checkOpen(#function)
        binder.setSamplerState(sampler, index: index, stage: .compute, call: #function)
    }

    /// Dispatches `threadgroups` groups of `threadsPerThreadgroup` threads. For a shader
    /// with a fixed local size that must be the size it declares; one whose local size comes
    /// from specialization constants runs at the size given (see ``ComputePipelineState``).
    ///
    /// Counts over the device's `maxComputeWorkGroupCount` (65,535 per dimension on most
    /// devices) are split into several dispatches with base offsets, invisibly to the shader.
    public func dispatchThreadgroups(_ threadgroups: Size, threadsPerThreadgroup: Size) {
        let call: StaticString = #function
        checkedPipeline(call, threadsPerThreadgroup: threadsPerThreadgroup)._withUnsafeGuaranteedRef { pipeline in
            let groups = Self.groupCounts(threadgroups, call: call, what: "threadgroups")
            if let index = pipeline.gridSizeIndex {
                let size = [threadsPerThreadgroup.width, threadsPerThreadgroup.height, threadsPerThreadgroup.depth]
                bindGridSize(threads: zip([groups.x, groups.y, groups.z], size).map { UInt32(truncatingIfNeeded: Int($0) * $1) },
                             groups: [groups.x, groups.y, groups.z], index: index, call: call)
            }
            guard prepare(pipeline, size: threadsPerThreadgroup, call: call) else { return }
            context.dispatch(groups.x, groups.y, groups.z)
        }
    }

    /// Dispatches the threadgroups that the ``DispatchThreadgroupsIndirectArguments`` at
    /// `indirectBufferOffset` (a multiple of 4) in `indirectBuffer` count, of
    /// `threadsPerThreadgroup` threads each. An earlier dispatch in this command buffer
    /// may write the arguments: it is waited for. The GPU reads the counts, so they are not
    /// split as `dispatchThreadgroups(_:threadsPerThreadgroup:)` splits large ones: as in
    /// Metal, each must be within the device's `maxComputeWorkGroupCount`. Unless the
    /// command buffer was made without ``CommandBufferDescriptor/validatesIndirectArguments``,
    /// the GPU checks them first: counts over the limit, or 2³² groups or more in all, make
    /// the dispatch run no group and the command buffer end in `.error`
    /// (``CommandBufferError/invalidIndirectArguments``).
    public func dispatchThreadgroups(indirectBuffer: Buffer, indirectBufferOffset: Int, threadsPerThreadgroup: Size) {
        let call: StaticString = #function
        let pipeline = checkedPipeline(call, threadsPerThreadgroup: threadsPerThreadgroup).takeUnretainedValue()
        if pipeline.gridSizeIndex != nil {
            misuse("\(call): '\(pipeline.functionName)' reads [[threads_per_grid]] or [[threadgroups_per_grid]], which SwiftGPU gives a "
                + "kernel from the counts a dispatch passes, and an indirect dispatch's counts are on the GPU; dispatch it with the "
                + "counts, by dispatchThreads or dispatchThreadgroups with a size")
        }
        let size = MemoryLayout<DispatchThreadgroupsIndirectArguments>.size
        checkIndirectArguments(indirectBuffer, offset: indirectBufferOffset, size: size, call: call)
        guard !lifecycle.hasFailed else { return }
        var arguments = (buffer: binder.retainMemory(of: indirectBuffer, call: call), offset: indirectBufferOffset)
        if commandBuffer.unsafelyUnwrapped.options.validatesIndirectArguments {
            do {
                // Checked here, in the pass: a dispatch before this one may write them.
                arguments = try context.validatedArguments(in: indirectBuffer, memory: arguments.buffer, offset: arguments.offset,
                                                           size: size, kind: .dispatch, limits: (0, 0), call: call,
                                                           device: pipeline.device)
                try context.validateIndirectSlots(with: context.indirect.pipeline.unsafelyUnwrapped,
                                                  maxVertices: CommandRecorder.maxValidatedVertices)
            } catch {
                fail(error)
                return
            }
            boundBackend = nil   // the kernel's pipeline is bound now
        }
        guard prepare(pipeline, size: threadsPerThreadgroup, call: call, indirect: indirectBuffer) else { return }
        context.dispatchIndirect(arguments.buffer, offset: arguments.offset)
    }

    /// Dispatches threads over the grid `threads`, in threadgroups of
    /// `threadsPerThreadgroup`.
    ///
    /// With a shader whose local size comes from specialization constants
    /// (`layout(local_size_x_id = 0) in;`) the grid is covered exactly, as Metal's
    /// non-uniform threadgroups do: no thread runs outside it, so the shader needs no bounds
    /// check. The edge threadgroup may run as several smaller ones.
    /// With a fixed local size the last group along each axis runs whole, and the shader
    /// must skip threads past the end (`if (i < count)`).
    public func dispatchThreads(_ threads: Size, threadsPerThreadgroup: Size) {
        let call: StaticString = #function
        let pipeline = checkedPipeline(call, threadsPerThreadgroup: threadsPerThreadgroup).takeUnretainedValue()
        guard pipeline.specializesLocalSize else {
            // Whole groups covering the grid (the group size is checked above: positive).
            func groups(_ count: Int, _ size: Int) -> Int { count / size + (count % size == 0 ? 0 : 1) }
            let counts = Self.groupCounts(Size(width: groups(threads.width, threadsPerThreadgroup.width),
                                               height: groups(threads.height, threadsPerThreadgroup.height),
                                               depth: groups(threads.depth, threadsPerThreadgroup.depth)),
                                          call: call, what: "threads", given: threads)
            if let index = pipeline.gridSizeIndex {
                bindGridSize(threads: [threads.width, threads.height, threads.depth].map { UInt32(truncatingIfNeeded: $0) },
                             groups: [counts.x, counts.y, counts.z], index: index, call: call)
            }
            guard prepare(pipeline, size: threadsPerThreadgroup, call: call) else { return }
            context.dispatch(counts.x, counts.y, counts.z)
            return
        }
        guard threads.width >= 0, threads.height >= 0, threads.depth >= 0 else {
            misuse("\(call): threads \(threads) has a negative dimension")
        }
        // Global ids are 32-bit.
        guard threads.width <= UInt32.max, threads.height <= UInt32.max, threads.depth <= UInt32.max else {
            misuse("\(call): threads \(threads) has more than 4,294,967,295 threads in a dimension")
        }
        let split = DispatchRegions(threads: threads, groupSize: threadsPerThreadgroup,
                                    specialized: pipeline.localSizeSpecIds.map { $0 != nil })
        if let index = pipeline.gridSizeIndex {
            // Metal's threadgroups per grid: the grid over the threadgroup size, rounded up.
            let grid = [threads.width, threads.height, threads.depth]
            let size = [threadsPerThreadgroup.width, threadsPerThreadgroup.height, threadsPerThreadgroup.depth]
            bindGridSize(threads: grid.map { UInt32(truncatingIfNeeded: $0) },
                         groups: zip(grid, size).map { UInt32(truncatingIfNeeded: ($0 + $1 - 1) / $1) }, index: index, call: call)
        }
        for (index, region) in split.regions.enumerated() {
            // The regions are one dispatch: hazards are tracked once, before the first.
            guard prepare(pipeline, size: region.localSize, call: call, trackHazards: index == 0) else { return }
            context.dispatch(base: region.base, counts: region.counts)
        }
    }

    /// `size` as Vulkan group counts; stops on a negative size or a count past 2³² − 1
    /// (naming `given`, what the caller passed).
    private static func groupCounts(_ size: Size, call: StaticString, what: String, given: Size? = nil)
        -> (x: UInt32, y: UInt32, z: UInt32) {
        let given = given ?? size
        guard given.width >= 0, given.height >= 0, given.depth >= 0 else {
            misuse("\(call): \(what) \(given) has a negative dimension")
        }
        guard let x = UInt32(exactly: size.width), let y = UInt32(exactly: size.height), let z = UInt32(exactly: size.depth) else {
            misuse("\(call): \(what) \(given) needs more than 4,294,967,295 threadgroups in a dimension")
        }
        return (x, y, z)
    }

    /// A label for debugging, recorded as a debug signpost where it is set (visible in
    /// RenderDoc and validation messages).
    @exclusivity(unchecked) public var label: String? {
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

    /// Takes a counter sample between dispatches, Metal's
    /// `sampleCounters(sampleBuffer:sampleIndex:barrier:)`: a timestamp written into
    /// `sampleIndex` as the GPU reaches this point or, with `barrier`, once the dispatches
    /// before it are done. Stops with a misuse message for an index outside the buffer and
    /// for a statistic buffer (statistics are sampled at a pass's start and end, through
    /// ``ComputePassDescriptor/sampleBufferAttachments``).
    public func sampleCounters(sampleBuffer: CounterSampleBuffer, sampleIndex: Int, barrier: Bool) {
        checkOpen(#function)
        sampleBuffer.sample(at: sampleIndex, barrier: barrier, point: .atDispatchBoundary, in: context, call: #function)
    }

    /// Ends encoding; the encoder may not be used again.
    public func endEncoding() {
        lifecycle.end(#function)
        if !passSamples.isEmpty { passSamples.recordEnd(in: context) }
        pipeline = nil
        context.restoreRestingLayouts()
        // Moved out: the encoder lets the buffer go without another reference's count.
        let buffer = commandBuffer.take().unsafelyUnwrapped
        buffer.endEncoder(keeping: self)
    }

    /// Checks the dispatch, binds the pipeline (its push-constant twin when `setBytes` data
    /// feeds every block the twin moved) and writes the bindings. False when nothing is to
    /// be recorded: a resource failure was recorded on the command buffer.
    /// The pipeline set (unretained, see `pipeline`), after checking that a dispatch may use
    /// threadgroups of `size`.
    private func checkedPipeline(_ call: StaticString, threadsPerThreadgroup size: Size) -> Unmanaged<ComputePipelineState> {
        checkOpen(call)
        guard let pipeline else { misuse("\(call) called before setComputePipelineState(_:)") }
        pipeline._withUnsafeGuaranteedRef { $0.check(threadsPerThreadgroup: size, call: call) }
        return pipeline
    }

    /// Binds the grid's size at buffer `index` for a kernel that reads it: the threads and
    /// the threadgroups, each a `uint4` (std140).
    private func bindGridSize(threads: [UInt32], groups: [UInt32], index: Int, call: StaticString) {
        var grid: (SIMD4<UInt32>, SIMD4<UInt32>) = (SIMD4(threads[0], threads[1], threads[2], 0), SIMD4(groups[0], groups[1], groups[2], 0))
        do {
            _ = try withUnsafeBytes(of: &grid) { bytes throws(VulkanError) in
                try binder.setBytes(bytes.baseAddress!, length: bytes.count, index: index, stage: .compute, call: call)
            }
        } catch {
            fail(error)
        }
    }

    /// Binds `pipeline`'s variant for threadgroups of `size` (or its push-constant twin)
    /// and its resources; false when nothing may be recorded (a resource failure, now or
    /// before, is on the command buffer).
    private func prepare(_ pipeline: ComputePipelineState, size: Size, call: StaticString,
                         trackHazards: Bool = true, indirect: Buffer? = nil) -> Bool {
        guard !lifecycle.hasFailed else { return false }
        let indirectID = indirect?.hazardID
        do {
            // The declared size's pipeline is read in place; another size's is looked up, as
            // are those for threadgroup memory lengths.
            if !pipeline.threadgroupArguments.isEmpty {
                let counts = pipeline.threadgroupCounts(lengths: threadgroupMemoryLengths, call: call)
                try record(pipeline.variant(for: size, threadgroupCounts: counts), call: call, trackHazards: trackHazards,
                           indirect: indirectID)
            } else if size == pipeline.threadsPerThreadgroup {
                try record(pipeline.base, call: call, trackHazards: trackHazards, indirect: indirectID)
            } else {
                try record(pipeline.variant(for: size), call: call, trackHazards: trackHazards, indirect: indirectID)
            }
        } catch {
            fail(error)
            return false
        }
        return true
    }

    /// Binds `variant` (or its push-constant twin) and writes its resources, through the
    /// context read in place rather than a copy of the binder (whose context is counted).
    @inline(__always)
    private func record(_ variant: ComputeVariant, call: StaticString, trackHazards: Bool,
                        indirect indirectID: ObjectIdentifier?) throws(VulkanError) {
        let failure = Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef { (context) -> VulkanError? in
            do throws(VulkanError) {
                if let twin = variant.pushConstants, twin.canDraw(with: context.encoding.bufferTable) {
                    bind(twin.backend)
                    context.pushConstants(twin.backend, slots: twin.pushSlots, from: context.encoding.bufferTable)
                    try ResourceBinder.flush(twin, call: call, trackHazards: trackHazards, indirect: indirectID, in: context)
                } else {
                    bind(variant.backend)
                    try ResourceBinder.flush(variant, call: call, trackHazards: trackHazards, indirect: indirectID, in: context)
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Declares that the encoder's later dispatches (a kernel that reaches a buffer through
    /// its ``Buffer/gpuAddress``), or commands recorded with
    /// ``withUnsafeVulkanCommandBuffer(_:)``, use `resource` with `usage`, as Metal's
    /// `useResource(_:usage:)` declares what kernels reach indirectly: it stays alive until
    /// the command buffer completes; where an earlier command wrote it (or read what is now
    /// written) a barrier is recorded first, each later dispatch of the encoder waits for
    /// the one before when the resource is written (Metal's serial dispatches), and later
    /// commands that touch it wait for it as for a bound resource. A texture is found, and
    /// left, in its `vulkanImageLayout`.
    public func useResource(_ resource: any Resource, usage: ResourceUsage) {
        checkOpen(#function)
        binder.declareHostUse(resource, usage: usage, barrier: true, commandBuffer: commandBuffer.unsafelyUnwrapped,
                              call: #function)
    }

    /// Declares that the encoder's dispatches read resources of `heap` that no binding
    /// names, as Metal's `useHeap(_:)` does for resources kernels reach indirectly: the
    /// heap's memory stays alive until the command buffer completes, and for a tracked heap
    /// a barrier is recorded first where an earlier command wrote one of its resources.
    public func useHeap(_ heap: Heap) {
        checkOpen(#function)
        binder.declareHeapUse(heap, barrier: true, commandBuffer: commandBuffer.unsafelyUnwrapped, call: #function)
    }

    /// Marks `fence` updated once the encoder's dispatches are done, Metal's
    /// `updateFence(_:)`: an encoder that waits for it later, in this command buffer or a
    /// later one on the queue, runs after them.
    public func updateFence(_ fence: Fence) {
        checkOpen(#function)
        fence.use(in: context, by: commandBuffer.unsafelyUnwrapped, call: #function)
    }

    /// Makes the encoder's later dispatches wait until the encoders that updated `fence`
    /// are done, Metal's `waitForFence(_:)`: call it before the dispatches that need it. It
    /// is recorded as a barrier from every earlier command's writes, which orders what
    /// untracked resources need ordered (tracked ones get their barriers anyway).
    public func waitForFence(_ fence: Fence) {
        checkOpen(#function)
        fence.use(in: context, by: commandBuffer.unsafelyUnwrapped, call: #function)
        binder.waitForEarlierCommands()
    }

    /// Lends the command buffer to a host's own recording (`withUnsafeVulkanCommandBuffer`,
    /// in `Interop/`): stops after `endEncoding()`; any call on the encoder until
    /// `takeBackFromHost()` stops. Returns the `VkCommandBuffer`.
    func lendToHost(_ call: StaticString) -> OpaquePointer {
        checkOpen(call)
        lifecycle.lendToHost()
        return binder.vulkanCommandBuffer
    }

    /// The host's recording is done: the next dispatch binds its pipeline again.
    func takeBackFromHost() {
        lifecycle.takeBackFromHost()
        boundBackend = nil
    }

    /// Records a resource failure on the command buffer (it ends in `.error` at commit, as
    /// Metal reports such failures) and stops recording into this encoder.
    private func fail(_ error: VulkanError) {
        lifecycle.noteFailure()
        commandBuffer.unsafelyUnwrapped.recordFailure(CommandBufferError(error))
    }

    /// Binds `backend` unless it is bound already.
    private func bind(_ backend: PipelineObject) {
        guard boundBackend != ObjectIdentifier(backend) else { return }
        context.bind(backend)
        boundBackend = ObjectIdentifier(backend)
    }

    @inline(__always)
    private func checkOpen(_ call: StaticString) { lifecycle.check(call) }
}

extension CommandBuffer {
    /// Makes a compute encoder. Stops if another encoder is open or the buffer is committed.
    public func makeComputeCommandEncoder() throws(GPUError) -> ComputeCommandEncoder {
        let context: Unmanaged<CommandRecorder>
        var spare: ComputeCommandEncoder?
        (context, spare) = try beginComputeEncoder(call: #function)
        // Moved out, so that the check sees no other reference of this function's.
        if var spare = spare.take(), SoleReference.isSole(&spare) {
            spare.reopen(commandBuffer: self, context: context)
            return spare
        }
        return ComputeCommandEncoder(commandBuffer: self, context: context.takeUnretainedValue())
    }

    /// Makes a compute encoder that samples counters at its start and end as
    /// `descriptor`'s ``ComputePassDescriptor/sampleBufferAttachments`` say, Metal's
    /// `makeComputeCommandEncoder(descriptor:)`. Stops as ``makeComputeCommandEncoder()``
    /// does, and for a sample index outside its buffer or a second statistic buffer.
    public func makeComputeCommandEncoder(descriptor: ComputePassDescriptor) throws(GPUError) -> ComputeCommandEncoder {
        let samples = PassCounterSamples(encoder: descriptor.sampleBufferAttachments.all, call: "\(#function)")
        let encoder = try makeComputeCommandEncoder()
        encoder.startPass(sampling: samples)
        return encoder
    }
}

extension ComputeCommandEncoder {
    /// Takes the pass's start samples and keeps its end ones for `endEncoding()`.
    fileprivate func startPass(sampling samples: PassCounterSamples) {
        samples.recordStart(in: context)
        passSamples = samples
    }
}
