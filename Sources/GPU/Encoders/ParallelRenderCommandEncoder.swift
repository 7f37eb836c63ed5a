import SwiftGPUSupport

/// Splits one render pass among several render encoders that may record on different
/// threads at once, Metal's `MTLParallelRenderCommandEncoder`.
///
/// Each `makeRenderCommandEncoder()` makes a sub-encoder; the pass runs the sub-encoders'
/// commands in the order they were made, whatever order they end in. The pass's load
/// actions apply once at its start and its store actions once at its end. Every
/// sub-encoder must end before the parallel encoder does.
///
/// On Vulkan the pass is one dynamic-rendering pass whose contents are secondary command
/// buffers, one per sub-encoder, executed in order of creation when the parallel encoder
/// ends. A sub-encoder's first call, on the thread that records it, frees the commands an
/// earlier pass left in the context it took: that work is spread over the recording
/// threads too.
///
/// `@unchecked Sendable`: `commandBuffer`, `context` and `target` are set when it is made
/// and not changed (the primary context is recorded into only by the thread that makes the
/// encoder and the one that ends it, after every sub-encoder ended); the sub-encoders'
/// records are in `state`, under its lock, a leaf.
public final class ParallelRenderCommandEncoder: @unchecked Sendable {
    /// One sub-encoder, in order of creation.
    private struct SubEncoder {
        /// Its secondary context, once made.
        var context: CommandRecorder?
        var isOpen = true
        /// Its secondary command buffer was begun and ended: it may be executed.
        var isRecorded = false
    }

    private struct State {
        /// Secondary contexts the command buffer kept from earlier passes.
        var spares: [CommandRecorder]
        var subEncoders: [SubEncoder] = []
        var isEnded = false
    }

    private let commandBuffer: CommandBuffer
    /// The command buffer's own (primary) context, with the pass begun.
    private let context: CommandRecorder
    private let target: RenderPassTarget
    private let state: LockedValue<State>

    fileprivate init(commandBuffer: CommandBuffer, context: CommandRecorder, target: RenderPassTarget) {
        self.commandBuffer = commandBuffer
        self.context = context
        self.target = target
        state = LockedValue(State(spares: Array(context.secondaries[context.secondariesUsed...])),
                            rank: .leaf("ParallelRenderCommandEncoder.state"))
    }

    /// Makes a render encoder for a part of the pass, on any thread; its commands run after
    /// those of every sub-encoder made before it. Stops after `endEncoding()`.
    public func makeRenderCommandEncoder() throws(GPUError) -> RenderCommandEncoder {
        let (index, spares) = state.withLock { state in
            if state.isEnded { misuse("makeRenderCommandEncoder() called on a parallel render command encoder after endEncoding()") }
            state.subEncoders.append(SubEncoder())
            return (state.subEncoders.count - 1, state.spares)
        }
        let secondary: CommandRecorder
        do {
            secondary = try context.secondary(at: index, spares: spares)
        } catch {
            state.withLock { $0.subEncoders[index].isOpen = false }
            throw .vulkan(error)
        }
        do {
            try secondary.prepareSecondary(target.formats)
        } catch {
            state.withLock { state in
                state.subEncoders[index].context = secondary
                state.subEncoders[index].isOpen = false
            }
            throw .vulkan(error)
        }
        state.withLock { $0.subEncoders[index].context = secondary }
        return RenderCommandEncoder(commandBuffer: commandBuffer, context: secondary, target: target, parallel: (self, index))
    }

    /// Notes that the sub-encoder at `index` ended; `recorded`: its commands may be run.
    func subEncoderEnded(_ index: Int, recorded: Bool) {
        state.withLock { state in
            state.subEncoders[index].isOpen = false
            state.subEncoders[index].isRecorded = recorded
        }
    }

    /// Ends the pass: runs the sub-encoders' commands in order of creation and stores the
    /// attachments. Stops while a sub-encoder is open, or when called twice.
    public func endEncoding() {
        let (subEncoders, spares) = state.withLock { state in
            if state.isEnded { misuse("endEncoding() called on a parallel render command encoder after endEncoding()") }
            let open = state.subEncoders.indices.filter { state.subEncoders[$0].isOpen }
            guard open.isEmpty else {
                misuse("endEncoding() called on a parallel render command encoder while its render command encoders \(open) "
                    + "(in order of creation) are open; call endEncoding() on each first")
            }
            state.isEnded = true
            return (state.subEncoders, state.spares)
        }
        context.execute(subEncoders.filter(\.isRecorded).compactMap(\.context))
        context.endRendering()
        target.counterSamples.recordEnd(in: context)
        context.restoreRestingLayouts()
        commandBuffer.validateIndirectArguments(ofPassIn: context,
                                                secondaries: subEncoders.filter(\.isRecorded).compactMap(\.context))
        // The contexts used stay with the command buffer until it completes; the rest
        // remain spares.
        let used = subEncoders.compactMap(\.context)
        let usedIDs = Set(used.map(ObjectIdentifier.init))
        let unused = spares.filter { !usedIDs.contains(ObjectIdentifier($0)) }
        context.secondaries = Array(context.secondaries.prefix(context.secondariesUsed)) + used + unused
        context.secondariesUsed += used.count
        commandBuffer.endEncoder()
    }
}

extension CommandBuffer {
    /// Makes a parallel render encoder for `descriptor`'s attachments. Stops if another
    /// encoder is open, the buffer is committed, or the attachments do not fit together.
    public func makeParallelRenderCommandEncoder(descriptor: RenderPassDescriptor) throws(GPUError) -> ParallelRenderCommandEncoder {
        let opened = try RenderPassTarget.open(descriptor, on: self, kind: .parallelRender,
                                               call: #function, secondaryContents: true)
        return ParallelRenderCommandEncoder(commandBuffer: self, context: opened.context, target: opened.target)
    }
}
