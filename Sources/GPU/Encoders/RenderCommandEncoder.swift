import SwiftGPUSPIRV

/// Records draws into one render pass, Metal's `MTLRenderCommandEncoder`, through Vulkan
/// dynamic rendering. Viewport and scissor default to the whole attachment, culling to
/// none, front faces to clockwise and depth testing to Metal's default state (compare
/// always, no writes).
public final class RenderCommandEncoder {
    /// The command buffer it records into.
    let commandBuffer: CommandBuffer
    /// The context it records into.
    let context: CommandRecorder
    /// For a parallel pass's sub-encoder, the parallel encoder and the sub-encoder's place
    /// in its order of creation.
    private let parallel: (encoder: ParallelRenderCommandEncoder, index: Int)?
    let binder: ResourceBinder
    /// The command buffer's `validatesIndirectArguments`, read by every indirect draw.
    let validatesIndirectArguments: Bool
    private let colorFormats: [PixelFormat?]
    private let depthFormat: PixelFormat?
    private let sampleCount: Int
    // The state every draw reads. An encoder is used from one thread at a time (Metal's
    // rule, and every call here is synchronous), so no access can overlap another: the
    // per-draw properties skip Swift's run-time exclusivity checks. The pipeline is kept
    // alive by the context's `retained` list from `setRenderPipelineState(_:)` on, so it is
    // held unretained and used without reference counting.
    @exclusivity(unchecked) private(set) var pipeline: Unmanaged<RenderPipelineState>?
    @exclusivity(unchecked) private var lifecycle: EncoderLifecycle
    private var viewport: Viewport
    private var scissor: ScissorRect
    /// The attachments' size: scissor rectangles must lie in it.
    private let targetSize: Size
    private var cullMode = CullMode.none
    private var winding = Winding.clockwise
    /// The clip-space convention of the bound pipeline, which the viewport follows.
    private var clipSpace = ClipSpaceConvention.metal
    private var depthStencil = DepthStencilValues()
    private var stencilReference: UInt32 = 0
    @exclusivity(unchecked) private var dynamicStateDirty = true
    @exclusivity(unchecked) private var descriptorsDirty = true
    /// The vertex-attribute buffers to bind before the next draw changed: per-draw fragment
    /// data leaves them bound.
    @exclusivity(unchecked) private var vertexBuffersDirty = true
    @exclusivity(unchecked) private var topology: PrimitiveType?
    /// The Vulkan pipeline bound last: the pipeline state's own, or its push-constant twin.
    @exclusivity(unchecked) private var boundBackend: ObjectIdentifier?
    /// The buffer table slots (bit n: slot n) whose `setBytes` data the last draw sent as
    /// push constants of the pipeline's twin (none when it drew with the pipeline's own).
    /// New bytes at such a slot, as many as before or more, leave the twin drawable and its
    /// descriptors as they are: the next draw pushes the bytes and writes no descriptor.
    @exclusivity(unchecked) private var pushedSlots: UInt64 = 0
    /// Only bytes at `pushedSlots` changed since the last draw.
    @exclusivity(unchecked) private var pushesDirty = false
    /// The slots of `pushedSlots` whose `setBytes` data was placed after the last descriptor
    /// write and has only been pushed since: nothing refers to that memory (a push copies its
    /// bytes when it is recorded), so new bytes of the same length are copied over it.
    @exclusivity(unchecked) private var overwritableSlots: UInt64 = 0
    /// The buffer table slots the last draw's pipeline (or twin) read through descriptors
    /// or push constants: a vertex buffer bound elsewhere changes no descriptor.
    @exclusivity(unchecked) private var readBufferSlots: UInt64 = 0
    /// The pass's visibility result buffer, and the offsets the pass has written to.
    let visibilityResultBuffer: Buffer?
    /// The counter samples the pass takes at its end.
    private let counterSamples: PassCounterSamples
    var visibilityOffsets: Set<Int> = []
    /// Whether the encoder is a parallel pass's sub-encoder.
    var isParallelPart: Bool { parallel != nil }

    /// An encoder for `descriptor`'s pass, recording into `commandBuffer`'s context.
    convenience init(commandBuffer: CommandBuffer, descriptor: RenderPassDescriptor) throws(GPUError) {
        let opened = try RenderPassTarget.open(descriptor, on: commandBuffer, kind: .render, call: "makeRenderCommandEncoder(descriptor:)",
                                               secondaryContents: false)
        self.init(commandBuffer: commandBuffer, context: opened.context, target: opened.target, parallel: nil)
    }

    /// An encoder for `target`, recording into `context`: the command buffer's own (its
    /// pass begun), or a secondary context of `parallel`'s that continues its pass.
    init(commandBuffer: CommandBuffer, context: CommandRecorder, target: RenderPassTarget,
         parallel: (encoder: ParallelRenderCommandEncoder, index: Int)?) {
        self.commandBuffer = commandBuffer
        validatesIndirectArguments = commandBuffer.options.validatesIndirectArguments
        self.context = context
        self.parallel = parallel
        lifecycle = EncoderLifecycle(.render, awaitingFirstCall: parallel != nil)
        colorFormats = target.colorFormats
        depthFormat = target.depthFormat
        sampleCount = target.sampleCount
        let size = target.size
        viewport = Viewport(originX: 0, originY: 0, width: Double(size.width), height: Double(size.height), znear: 0, zfar: 1)
        scissor = ScissorRect(x: 0, y: 0, width: size.width, height: size.height)
        targetSize = size
        visibilityResultBuffer = target.visibilityResultBuffer
        counterSamples = target.counterSamples
        binder = ResourceBinder(context: context)
    }

    /// Sets the pipeline; stops if its attachment formats or sample count differ from the pass's.
    public func setRenderPipelineState(_ state: RenderPipelineState) {
        let call: StaticString = #function
        checkOpen(call)
        guard state.colorPixelFormats == colorFormats, state.depthPixelFormat == depthFormat, state.sampleCount == sampleCount else {
            misuse("\(call): pipeline '\(state.label ?? state.functionNames)' renders to colour \(describe(state.colorPixelFormats)), "
                + "depth \(state.depthPixelFormat.map { "\($0)" } ?? "none"), \(state.sampleCount)× samples, but the pass has colour "
                + "\(describe(colorFormats)), depth \(depthFormat.map { "\($0)" } ?? "none"), \(sampleCount)× samples")
        }
        context.encoding.retained.append(state)
        pipeline = Unmanaged.passUnretained(state)
        descriptorsDirty = true
        vertexBuffersDirty = true
        clipSpace = state.clipSpace
        dynamicStateDirty = true
    }

    /// Binds a buffer at vertex buffer `index`: a vertex-attribute buffer when the
    /// pipeline's vertex descriptor reads it, else the shader's buffer at binding `index`.
    public func setVertexBuffer(_ buffer: Buffer, offset: Int, index: Int) {
        checkOpen(#function)
        binder.setBuffer(buffer, offset: offset, index: index, stage: .vertex, call: #function)
        vertexBufferChanged(at: index)
    }

    /// Notes that the vertex-stage buffer at `index` (table slot `index`) changed: its
    /// vertex buffer is bound again before the next draw, and its descriptors are written
    /// again only where the pipeline reads the slot through one.
    @inline(__always)
    private func vertexBufferChanged(at index: Int) {
        if readBufferSlots & (1 &<< UInt64(index)) != 0 { descriptorsDirty = true }
        vertexBuffersDirty = true
    }

    /// Copies up to 4 KB for the vertex stage at buffer `index`.
    /// Like Metal's, it does not throw: if the command buffer's upload memory cannot grow,
    /// the failure is recorded on the command buffer, which ends in `.error` at commit.
    public func setVertexBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int) {
        if !overwriteBytes(bytes, length: length, index: index, stage: .vertex) {
            placeBytes(bytes, length: length, index: index, stage: .vertex, call: #function)
        }
    }

    /// Moves the vertex buffer at `index` to `offset`, keeping the buffer bound there: the
    /// cheap way to step through one buffer from draw to draw.
    public func setVertexBufferOffset(_ offset: Int, index: Int) {
        checkOpen(#function)
        binder.setBufferOffset(offset, index: index, stage: .vertex, call: #function)
        vertexBufferChanged(at: index)
    }

    /// Binds a buffer for the fragment stage at buffer `index` (Vulkan binding 64 + `index`).
    public func setFragmentBuffer(_ buffer: Buffer, offset: Int, index: Int) {
        checkOpen(#function)
        binder.setBuffer(buffer, offset: offset, index: index, stage: .fragment, call: #function)
        descriptorsDirty = true
    }

    /// Moves the fragment buffer at `index` to `offset`, keeping the buffer bound there.
    public func setFragmentBufferOffset(_ offset: Int, index: Int) {
        checkOpen(#function)
        binder.setBufferOffset(offset, index: index, stage: .fragment, call: #function)
        descriptorsDirty = true
    }

    /// Copies up to 4 KB for the fragment stage at buffer `index`.
    /// Like Metal's, it does not throw: if the command buffer's upload memory cannot grow,
    /// the failure is recorded on the command buffer, which ends in `.error` at commit.
    public func setFragmentBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int) {
        if !overwriteBytes(bytes, length: length, index: index, stage: .fragment) {
            placeBytes(bytes, length: length, index: index, stage: .fragment, call: #function)
        }
    }

    /// A loop's steady state for `setVertexBytes` / `setFragmentBytes`: as many bytes as
    /// last time at a slot only pushes read, with nothing else changed since, are copied
    /// over the old and pushed by the next draw. False, doing nothing, otherwise (and when
    /// the encoder is not recording, for `placeBytes` to stop).
    @inline(__always)
    private func overwriteBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int, stage: ShaderStage) -> Bool {
        guard lifecycle.isRecording, !descriptorsDirty, UInt(bitPattern: index) <= UInt(BindingConvention.maxBufferIndex) else {
            return false
        }
        let slot = MetalIndex(stage: stage, kind: .buffer, value: index).tableSlot.value
        guard overwritableSlots & (1 &<< UInt64(slot)) != 0, let target = binder.overwritableBytes(length: length, slot: slot) else {
            return false
        }
        pushesDirty = true
        target.copyMemory(from: bytes, byteCount: length)
        return true
    }

    /// Records `setVertexBytes` / `setFragmentBytes` data in new memory of the upload ring,
    /// and what the next draw must do for it: push it, where it replaces bytes the last
    /// draw pushed and nothing else changed since; else write descriptors (and, for the
    /// vertex stage, whose bytes can feed vertex attributes, bind vertex buffers). Out of
    /// line, so that the steady state's path needs no stack frame.
    @inline(never)
    private func placeBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int, stage: ShaderStage, call: StaticString) {
        checkOpen(call)
        do {
            let placed = try binder.setBytes(bytes, length: length, index: index, stage: stage, call: call)
            if !descriptorsDirty, placed.replacesBytes, pushedSlots & (1 &<< UInt64(placed.slot)) != 0 {
                pushesDirty = true
                overwritableSlots |= 1 &<< UInt64(placed.slot)
            } else if stage == .vertex {
                vertexBufferChanged(at: index)
            } else {
                descriptorsDirty = true
            }
        } catch {
            fail(error)
            descriptorsDirty = true
            vertexBuffersDirty = true
        }
    }

    /// Binds a texture for the vertex stage. A texture made with `.shaderWrite` may be
    /// written here: `getBytes` then waits for this command buffer.
    public func setVertexTexture(_ texture: Texture, index: Int) {
        checkOpen(#function)
        binder.setTexture(texture, index: index, stage: .vertex, call: #function)
        if texture.usage.contains(.shaderWrite) { commandBuffer.noteWrite(to: texture) }
        descriptorsDirty = true
    }

    /// Binds a texture for the fragment stage (Vulkan binding 96 + `index`). A texture made
    /// with `.shaderWrite` may be written here: `getBytes` then waits for this command buffer.
    public func setFragmentTexture(_ texture: Texture, index: Int) {
        checkOpen(#function)
        binder.setTexture(texture, index: index, stage: .fragment, call: #function)
        if texture.usage.contains(.shaderWrite) { commandBuffer.noteWrite(to: texture) }
        descriptorsDirty = true
    }

    /// Binds a sampler for the vertex stage.
    public func setVertexSamplerState(_ sampler: SamplerState, index: Int) {
        checkOpen(#function)
        binder.setSamplerState(sampler, index: index, stage: .vertex, call: #function)
        descriptorsDirty = true
    }

    /// Binds a sampler for the fragment stage (Vulkan binding 112 + `index`; a combined
    /// `sampler2D` at texture index i uses sampler index i).
    public func setFragmentSamplerState(_ sampler: SamplerState, index: Int) {
        checkOpen(#function)
        binder.setSamplerState(sampler, index: index, stage: .fragment, call: #function)
        descriptorsDirty = true
    }

    /// Sets the viewport. Its numbers must be finite, its width and height above 0 and
    /// within the device's limits; as in Metal, a depth range outside 0...1 is accepted and
    /// clamped to it (Vulkan's core range).
    public func setViewport(_ viewport: Viewport) {
        let call: StaticString = #function
        checkOpen(call)
        let numbers = [viewport.originX, viewport.originY, viewport.width, viewport.height, viewport.znear, viewport.zfar]
        guard numbers.allSatisfy(\.isFinite) else { misuse("\(call): \(viewport) has a value that is not finite") }
        let limits = commandBuffer.device.limits
        guard viewport.width > 0, viewport.height > 0,
              viewport.width <= Double(limits.maxViewportWidth), viewport.height <= Double(limits.maxViewportHeight)
        else {
            misuse("\(call): width \(viewport.width) and height \(viewport.height) must be above 0 and within the device's "
                + "maximum \(limits.maxViewportWidth)×\(limits.maxViewportHeight)")
        }
        let bounds = limits.viewportBounds
        guard bounds.contains(viewport.originX), bounds.contains(viewport.originY),
              bounds.contains(viewport.originX + viewport.width), bounds.contains(viewport.originY + viewport.height)
        else {
            misuse("\(call): \(viewport) reaches outside the device's viewport bounds \(bounds)")
        }
        var clamped = viewport
        clamped.znear = min(max(viewport.znear, 0), 1)
        clamped.zfar = min(max(viewport.zfar, 0), 1)
        self.viewport = clamped
        dynamicStateDirty = true
    }

    /// Sets the scissor rectangle, which must lie in the render target, as in Metal.
    public func setScissorRect(_ rect: ScissorRect) {
        let call: StaticString = #function
        checkOpen(call)
        guard rect.x >= 0, rect.y >= 0, rect.width >= 0, rect.height >= 0,
              rect.x <= targetSize.width, rect.width <= targetSize.width - rect.x,
              rect.y <= targetSize.height, rect.height <= targetSize.height - rect.y
        else {
            misuse("\(call): \(rect) is not inside the \(targetSize.width)×\(targetSize.height) render target")
        }
        scissor = rect
        dynamicStateDirty = true
    }

    /// Sets which faces are culled.
    public func setCullMode(_ mode: CullMode) {
        checkOpen(#function)
        cullMode = mode
        dynamicStateDirty = true
    }

    /// Sets which winding is front-facing.
    public func setFrontFacing(_ winding: Winding) {
        checkOpen(#function)
        self.winding = winding
        dynamicStateDirty = true
    }

    /// Sets depth testing.
    public func setDepthStencilState(_ state: DepthStencilState) {
        checkOpen(#function)
        depthStencil = state.values
        dynamicStateDirty = true
    }

    /// Sets the reference value stencil tests compare with and `.replace` writes.
    public func setStencilReferenceValue(_ value: UInt32) {
        checkOpen(#function)
        stencilReference = value
        dynamicStateDirty = true
    }

    /// Draws `vertexCount` vertices from `vertexStart`, `instanceCount` times.
    public func drawPrimitives(type: PrimitiveType, vertexStart: Int, vertexCount: Int, instanceCount: Int = 1,
                               baseInstance: Int = 0) {
        let call: StaticString = #function
        // One test for the four (a negative value has its high bits set); the checks name
        // the value out of range.
        if UInt(bitPattern: vertexStart | vertexCount | instanceCount | baseInstance) > UInt(UInt32.max) {
            checkUInt32(vertexStart, call: call, name: "vertexStart")
            checkUInt32(vertexCount, call: call, name: "vertexCount")
            checkUInt32(instanceCount, call: call, name: "instanceCount")
            checkUInt32(baseInstance, call: call, name: "baseInstance")
        }
        guard prepareDraw(type, call: call) else { return }
        context.draw(vertexCount: vertexCount, instanceCount: instanceCount, firstVertex: vertexStart, firstInstance: baseInstance)
    }

    /// Draws `indexCount` indices from `indexBuffer`, `instanceCount` times.
    public func drawIndexedPrimitives(type: PrimitiveType, indexCount: Int, indexType: IndexType, indexBuffer: Buffer,
                                      indexBufferOffset: Int, instanceCount: Int = 1, baseVertex: Int = 0,
                                      baseInstance: Int = 0) {
        let call: StaticString = #function
        checkUInt32(indexCount, call: call, name: "indexCount")
        checkUInt32(instanceCount, call: call, name: "instanceCount")
        checkInt32(baseVertex, call: call, name: "baseVertex")
        checkUInt32(baseInstance, call: call, name: "baseInstance")
        guard indexBufferOffset >= 0, indexBufferOffset % indexType.size == 0, indexBufferOffset <= indexBuffer.length,
              indexCount * indexType.size <= indexBuffer.length - indexBufferOffset
        else {
            misuse("\(call): \(indexCount) \(indexType) indices at offset \(indexBufferOffset) do not fit the buffer's \(indexBuffer.length) bytes")
        }
        guard prepareDraw(type, call: call) else { return }
        context.drawIndexed(indexCount: indexCount, instanceCount: instanceCount, indexBuffer: binder.retainMemory(of: indexBuffer, call: call),
                            offset: indexBufferOffset, type: indexType, baseVertex: baseVertex, firstInstance: baseInstance)
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

    /// Declares that commands recorded with ``withUnsafeVulkanCommandBuffer(_:)`` use
    /// `resource` with `usage`, as Metal's `useResource(_:usage:stages:)` declares what
    /// shaders reach indirectly: it stays alive until the command buffer completes, and a
    /// write is tracked, so that a later encoder of the command buffer that reads it waits
    /// (and `getBytes` of a texture waits for the command buffer). Inside the pass nothing
    /// waits: as in Metal, draws of one pass are not ordered against each other's writes. A
    /// texture is found, and left, in its `vulkanImageLayout`.
    public func useResource(_ resource: any Resource, usage: ResourceUsage) {
        checkOpen(#function)
        binder.declareHostUse(resource, usage: usage, barrier: false, commandBuffer: commandBuffer, call: #function)
    }

    /// Declares that the pass's draws read resources of `heap` that no binding names, as
    /// Metal's `useHeap(_:)` does for resources shaders reach indirectly: the heap's memory
    /// stays alive until the command buffer completes, and a tracked heap's read is in the
    /// hazard record, so that a later encoder that writes one of its resources waits.
    public func useHeap(_ heap: Heap) {
        checkOpen(#function)
        binder.declareHeapUse(heap, barrier: false, commandBuffer: commandBuffer, call: #function)
    }

    /// Marks `fence` updated once the pass's `stages` are done, Metal's
    /// `updateFence(_:after:)`: an encoder that waits for it later, in this command buffer
    /// or a later one on the queue, runs after the pass.
    public func updateFence(_ fence: Fence, after stages: RenderStages) {
        checkOpen(#function)
        fence.use(in: context, by: commandBuffer, call: #function)
    }

    /// Makes the pass's `stages` wait until the encoders that updated `fence` are done,
    /// Metal's `waitForFence(_:before:)`. A render pass begins with a barrier from every
    /// earlier command of its command buffer (and earlier command buffers end with one), so
    /// the wait needs nothing more: the pass's draws already run after those encoders.
    public func waitForFence(_ fence: Fence, before stages: RenderStages) {
        checkOpen(#function)
        fence.use(in: context, by: commandBuffer, call: #function)
    }

    /// Lends the pass's command buffer to a host's own draws (`withUnsafeVulkanCommandBuffer`,
    /// in `Interop/`): stops after `endEncoding()`; any call on the encoder until
    /// `takeBackFromHost()` stops. Returns the `VkCommandBuffer`.
    func lendToHost(_ call: StaticString) -> OpaquePointer {
        checkOpen(call)
        lifecycle.lendToHost()
        return binder.vulkanCommandBuffer
    }

    /// The host's draws are done: the next draw sets its pipeline, descriptors and dynamic
    /// state again.
    func takeBackFromHost() {
        lifecycle.takeBackFromHost()
        boundBackend = nil
        topology = nil
        dynamicStateDirty = true
        descriptorsDirty = true
        vertexBuffersDirty = true
    }

    /// Ends the pass; the encoder may not be used again. A parallel pass's sub-encoder
    /// ends its part: the pass ends with the parallel encoder.
    public func endEncoding() {
        checkOpen(#function)
        lifecycle.end(#function)
        if let parallel {
            var recorded = true
            do {
                try context.endSecondary()
            } catch {
                fail(error)
                recorded = false
            }
            parallel.encoder.subEncoderEnded(parallel.index, recorded: recorded)
            return
        }
        if let visibilityResultBuffer {
            context.switchOcclusionQuery(to: nil, counting: false)
            context.endRendering()
            context.copyVisibilityResults(to: binder.retainMemory(of: visibilityResultBuffer, call: #function))
            // A later command of the buffer that reads the results waits for the copy.
            if let id = visibilityResultBuffer.hazardID { context.encoding.hazards.record(id, writing: true) }
        } else {
            context.endRendering()
        }
        counterSamples.recordEnd(in: context)
        context.restoreRestingLayouts()
        commandBuffer.validateIndirectArguments(ofPassIn: context)
        commandBuffer.endEncoder()
    }

    /// Takes a counter sample between draws, Metal's
    /// `sampleCounters(sampleBuffer:sampleIndex:barrier:)`: a timestamp written into
    /// `sampleIndex` as the GPU reaches this point or, with `barrier`, once the draws before
    /// it are done. Stops with a misuse message where the device does not sample between
    /// draws (``Device/supportsCounterSampling(_:)``), in a parallel pass's sub-encoder, past
    /// 1024 such samples in one command buffer, for an index outside the buffer and for a
    /// statistic buffer (statistics are sampled at a pass's start and end, through
    /// ``RenderPassDescriptor/sampleBufferAttachments``).
    public func sampleCounters(sampleBuffer: CounterSampleBuffer, sampleIndex: Int, barrier: Bool) {
        let call: StaticString = #function
        checkOpen(call)
        sampleBuffer.checkSample(sampleIndex, at: .atDrawBoundary, in: context, call: call)
        if isParallelPart {
            misuse("\(call): counters are not sampled between the draws of a parallel render pass; sample the pass's start "
                + "and end with its descriptor's sampleBufferAttachments")
        }
        guard context.hasPassTimestampLeft else {
            misuse("\(call): the command buffer's render passes have taken \(CommandRecorder.passTimestampCapacity) samples "
                + "between draws, the most one command buffer takes")
        }
        do {
            try context.writePassTimestamp(sampleBuffer.queries, sample: sampleIndex, at: barrier ? .afterAllWork : .immediately)
        } catch {
            fail(error)
        }
    }

    /// Checks the draw and records the state it needs; false when nothing is to be
    /// recorded: a resource failure was recorded on the command buffer.
    @inline(__always)
    func prepareDraw(_ type: PrimitiveType, call: StaticString) -> Bool {
        checkOpen(call)
        guard let pipeline else { misuse("\(call) called before setRenderPipelineState(_:)") }
        // A loop's steady state: the same primitive type as the last draw (so the
        // pipeline's class was checked for it), and nothing changed since but bytes the last
        // draw pushed or vertex buffers. Everything else is done out of line, so that this
        // path stays small.
        if topology == type, !descriptorsDirty, !dynamicStateDirty, !lifecycle.hasFailed {
            if vertexBuffersDirty {
                pipeline._withUnsafeGuaranteedRef { bindVertexBuffers(of: $0, call: call) }
            }
            if pushesDirty {
                pipeline._withUnsafeGuaranteedRef { pipeline in
                    pipeline.unretainedPushConstants.unsafelyUnwrapped._withUnsafeGuaranteedRef { twin in
                        context.pushConstants(twin.backend, slots: twin.pushSlots, from: context.encoding.bufferTable)
                    }
                }
                pushesDirty = false
            }
            return true
        }
        return prepareChangedDraw(type, call: call, pipeline: pipeline)
    }

    /// Binds the buffers the pipeline reads vertex attributes from. Out of line: its
    /// addressed locals would give every draw a stack guard and spills.
    @inline(never)
    private func bindVertexBuffers(of pipeline: RenderPipelineState, call: StaticString) {
        let bufferTable = context.encoding.bufferTable
        for index in pipeline.vertexBufferIndices {
            let bound = bufferTable[index]   // vertex-stage buffers sit at their own index
            guard bound.isSet else {
                misuse("\(call): the pipeline reads vertex attributes from buffer index \(index), but no buffer is set there")
            }
            // A buffer, or setVertexBytes data in the upload ring (whose chunks are vertex
            // buffers too), as Metal lets either feed vertex attributes.
            context.bindVertexBuffer(bound.bound.buffer, offset: bound.bound.offset, binding: index)
        }
        vertexBuffersDirty = false
    }

    /// `prepareDraw` for a draw after a change: a new pipeline, primitive type, binding or
    /// state, or a failure.
    @inline(never)
    private func prepareChangedDraw(_ type: PrimitiveType, call: StaticString, pipeline: Unmanaged<RenderPipelineState>) -> Bool {
        let result = pipeline._withUnsafeGuaranteedRef { pipeline in
            Result { () throws(VulkanError) in try prepareDraw(type, call: call, pipeline: pipeline) }
        }
        switch result {
        case .success(let recorded): return recorded
        case .failure(let error):
            fail(error)
            return false
        }
    }

    /// Records a resource failure on the command buffer (it ends in `.error` at commit, as
    /// Metal reports such failures) and stops recording draws into this encoder.
    func fail(_ error: VulkanError) {
        lifecycle.noteFailure()
        commandBuffer.recordFailure(CommandBufferError(error))
    }

    @inline(__always)
    private func prepareDraw(_ type: PrimitiveType, call: StaticString, pipeline: RenderPipelineState) throws(VulkanError) -> Bool {
        guard type.topologyClass == pipeline.topologyClass else {
            misuse("\(call): primitive type \(type) is not of the pipeline's \(pipeline.topologyClass) class")
        }
        guard !lifecycle.hasFailed else { return false }
        let bufferTable = context.encoding.bufferTable
        if descriptorsDirty {
            overwritableSlots = 0   // the descriptors written below may refer to any bytes
            // Small uniform blocks fed by setBytes go through push constants where the
            // pipeline has a twin for them; anything else through descriptors.
            if let unretained = pipeline.unretainedPushConstants,
               unretained._withUnsafeGuaranteedRef({ $0.canDraw(with: bufferTable) }) {
                try unretained._withUnsafeGuaranteedRef { twin in
                    Result { () throws(VulkanError) in
                        bind(twin.backend)
                        context.pushConstants(twin.backend, slots: twin.pushSlots, from: bufferTable)
                        try binder.flush(twin, call: call, trackHazards: false)
                        // A slot that also feeds vertex attributes needs its vertex buffer
                        // rebound when its bytes change: not pushed alone.
                        var pushed = twin.pushSlotMask
                        for index in pipeline.vertexBufferIndices { pushed &= ~(1 &<< UInt64(index)) }
                        pushedSlots = pushed
                        readBufferSlots = Self.bufferSlots(of: twin.slots) | twin.pushSlotMask
                    }
                }.get()
            } else {
                bind(pipeline.backend)
                try binder.flush(pipeline, call: call, trackHazards: false)
                pushedSlots = 0
                readBufferSlots = Self.bufferSlots(of: pipeline.slots)
            }
            descriptorsDirty = false
            pushesDirty = false
        } else if pushesDirty {
            // New bytes where the last draw pushed them, nothing else changed: the twin is
            // still bound with its descriptors, and drawable (the bytes are no fewer).
            pipeline.unretainedPushConstants.unsafelyUnwrapped._withUnsafeGuaranteedRef { twin in
                context.pushConstants(twin.backend, slots: twin.pushSlots, from: bufferTable)
            }
            pushesDirty = false
        }
        if vertexBuffersDirty { bindVertexBuffers(of: pipeline, call: call) }
        if dynamicStateDirty {
            context.setDynamicState(viewport: viewport, flipsY: clipSpace == .metal, scissor: scissor,
                                    cullMode: cullMode, winding: winding,
                                    depthTest: depthFormat != nil, depthWrite: depthFormat != nil && depthStencil.isDepthWriteEnabled,
                                    depthCompare: depthStencil.depthCompareFunction,
                                    stencil: stencilTest, reference: stencilReference)
            dynamicStateDirty = false
            topology = nil
        }
        if topology != type {
            context.setTopology(type)
            topology = type
        }
        return true
    }

    /// The buffer table slots (bit n: slot n) of `slots`' buffers. The slots are read in
    /// place, by index: a copy of a slot retains its constant sampler.
    private static func bufferSlots(of slots: [ResourceSlot]) -> UInt64 {
        var mask: UInt64 = 0
        for index in slots.indices where slots[index].kind == .buffer { mask |= 1 &<< UInt64(slots[index].tableSlot.value) }
        return mask
    }

    /// Binds `backend` unless it is bound already.
    @inline(__always)
    private func bind(_ backend: PipelineObject) {
        guard boundBackend != ObjectIdentifier(backend) else { return }
        context.bind(backend)
        boundBackend = ObjectIdentifier(backend)
    }

    /// The stencil tests to apply: none without a stencil attachment or stencil descriptors.
    private var stencilTest: (front: StencilValues, back: StencilValues)? {
        guard depthFormat?.hasStencil == true,
              let front = depthStencil.frontFaceStencil ?? depthStencil.backFaceStencil else { return nil }
        return (front, depthStencil.backFaceStencil ?? front)
    }

    private func describe(_ formats: [PixelFormat?]) -> String {
        "[" + formats.map { $0.map { "\($0)" } ?? "none" }.joined(separator: ", ") + "]"
    }

    /// Stops after `endEncoding()`. The first call of a parallel pass's sub-encoder frees,
    /// on its thread, the commands an earlier pass left in its context.
    @inline(__always)
    func checkOpen(_ call: StaticString) {
        if !lifecycle.isRecording { leaveFirstCall(call) }
    }

    /// `checkOpen` off the recording path: a stop after `endEncoding()`, or a parallel
    /// sub-encoder's first call. Out of line, so that every call's path stays small.
    @inline(never)
    private func leaveFirstCall(_ call: StaticString) {
        if lifecycle.leaveFirstCall(call) { context.freePreviousCommands() }
    }
}

extension CommandBuffer {
    /// Makes a render encoder for `descriptor`'s attachments. Stops if another encoder is
    /// open, the buffer is committed, or the attachments do not fit together.
    public func makeRenderCommandEncoder(descriptor: RenderPassDescriptor) throws(GPUError) -> RenderCommandEncoder {
        try RenderCommandEncoder(commandBuffer: self, descriptor: descriptor)
    }
}
