/// What the draws that follow `setVisibilityResultMode(_:offset:)` write to the visibility
/// result buffer, Metal's `MTLVisibilityResultMode`.
public enum VisibilityResultMode: Sendable, Hashable {
    /// Nothing: the draws are not counted.
    case disabled
    /// Whether any sample of the draws passed the depth and stencil tests: a value other
    /// than zero if one did, zero if none did.
    case boolean
    /// How many samples of the draws passed the depth and stencil tests.
    case counting
}

extension RenderCommandEncoder {
    /// Counts the samples of the draws that follow, until the next call, into the
    /// `UInt64` at `offset` of the pass descriptor's
    /// ``RenderPassDescriptor/visibilityResultBuffer``, Metal's
    /// `setVisibilityResultMode(_:offset:)`. The results are in the buffer when the command
    /// buffer completes (or for its later commands); `.disabled` stops counting. Each
    /// span of draws is a Vulkan occlusion query, precise for `.counting` where the device
    /// offers precise queries (lavapipe does).
    ///
    /// Stops with a misuse message without a visibility result buffer, for an offset that
    /// is not a multiple of 8 or whose 8 bytes lie outside it, for an offset the pass has
    /// counted into already (SwiftGPU writes one result per offset per pass, where Metal
    /// adds them up), in a parallel pass's sub-encoder, and past 4096 spans of draws in one
    /// command buffer.
    public func setVisibilityResultMode(_ mode: VisibilityResultMode, offset: Int) {
        let call: StaticString = #function
        checkOpen(call)
        guard let buffer = visibilityResultBuffer else {
            misuse("\(call): the pass descriptor has no visibilityResultBuffer")
        }
        if isParallelPart { misuse("\(call): visibility results are not offered in a parallel render pass") }
        guard mode != .disabled else {
            context.switchOcclusionQuery(to: nil, counting: false)
            return
        }
        guard offset >= 0, offset % 8 == 0, offset <= buffer.length - 8 else {
            misuse("\(call): offset \(offset) is not a multiple of 8 whose 8 bytes lie in the visibility result buffer's "
                + "\(buffer.length) bytes")
        }
        guard visibilityOffsets.insert(offset).inserted else {
            misuse("\(call): offset \(offset) has been counted into already in this pass; SwiftGPU writes one result per "
                + "offset per pass (use another offset)")
        }
        guard context.hasOcclusionQueryLeft else {
            misuse("\(call): the command buffer's passes have counted \(CommandRecorder.occlusionQueryCapacity) spans of draws, "
                + "the most one command buffer takes")
        }
        context.switchOcclusionQuery(to: UInt64(offset), counting: mode == .counting)
    }
}
