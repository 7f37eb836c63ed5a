/// The first indirect draw or dispatch of a command buffer whose arguments the GPU found out
/// of range: the command ran with zero counts (it did nothing) and the buffer ended in
/// `.error` with ``CommandBufferError/invalidIndirectArguments`` set to this.
public struct InvalidIndirectArguments: Sendable, Hashable, CustomStringConvertible {
    /// The encoder call that recorded the command, e.g. `drawPrimitives(type:indirectBuffer:indirectBufferOffset:)`
    /// for an indirect draw.
    public var call: String
    /// The indirect buffer's description: its label, if any, and length.
    public var buffer: String
    /// Where the arguments are in that buffer (the call's `indirectBufferOffset`).
    public var offset: Int
    /// The argument, or the sum or product of arguments, out of range, by its name in
    /// ``DrawPrimitivesIndirectArguments``, ``DrawIndexedPrimitivesIndirectArguments`` or
    /// ``DispatchThreadgroupsIndirectArguments``: for instance `"vertexStart + vertexCount"`
    /// or `"threadgroupsPerGrid.x"`.
    public var argument: String
    /// Its value, as the GPU read it (a sum or product without wrapping).
    public var value: UInt64
    /// The largest value allowed.
    public var limit: UInt64
    /// Where the limit comes from, e.g. `"the device's maxComputeWorkGroupCount.x"`.
    public var reason: String

    /// One sentence naming all of it.
    public var description: String {
        "\(call): the indirect arguments at offset \(offset) of the \(buffer) are out of range: \(argument) is \(value), "
            + "over \(reason) (\(limit)); the command ran with zero counts"
    }

    /// The failure the kernel noted in `failure`'s slot, for the command `source` recorded.
    init(_ failure: CommandRecorder.IndirectFailure, source: IndirectSource, maxGroups: (x: UInt32, y: UInt32, z: UInt32)) {
        let buffer = source.buffer._withUnsafeGuaranteedRef { $0 }
        call = "\(source.call)"
        self.buffer = buffer.misuseDescription
        offset = source.offset
        let (first, second, third) = (UInt64(failure.arguments.0), UInt64(failure.arguments.1), UInt64(failure.arguments.2))
        let fourth = UInt64(failure.laterArguments.0), fifth = UInt64(failure.laterArguments.1)
        let isIndexed = source.kind == .drawIndexed
        let counts = isIndexed ? "indexCount × instanceCount" : "vertexCount × instanceCount"
        let rangeLimit = (UInt64(source.limits.0), UInt64(source.limits.1))
        switch failure.code {
        case 1: (argument, value, limit, reason) = ("threadgroupsPerGrid.x", first, UInt64(maxGroups.x),
                                                    "the device's maxComputeWorkGroupCount.x")
        case 2: (argument, value, limit, reason) = ("threadgroupsPerGrid.y", second, UInt64(maxGroups.y),
                                                    "the device's maxComputeWorkGroupCount.y")
        case 3: (argument, value, limit, reason) = ("threadgroupsPerGrid.z", third, UInt64(maxGroups.z),
                                                    "the device's maxComputeWorkGroupCount.z")
        case 4:
            let (product, overflow) = (first * second).multipliedReportingOverflow(by: third)
            (argument, value, limit, reason) = ("threadgroupsPerGrid.x × y × z", overflow ? UInt64.max : product,
                                                UInt64(UInt32.max), "the groups one dispatch may run (2³² − 1)")
        case 5: (argument, value, limit, reason) = ("vertexStart + vertexCount", third + first, rangeLimit.0,
                                                    "the vertices the bound per-vertex buffers hold")
        case 6: (argument, value, limit, reason) = ("baseInstance + instanceCount", (isIndexed ? fifth : fourth) + second,
                                                    rangeLimit.1, "the instances the bound per-instance buffers hold")
        case 7: (argument, value, limit, reason) = (counts, first * second, UInt64(RenderCommandEncoder.maxValidatedIndirectVertices),
                                                    "RenderCommandEncoder.maxValidatedIndirectVertices")
        default: (argument, value, limit, reason) = ("indexStart + indexCount", third + first, rangeLimit.0,
                                                     "the indices the index buffer holds from indexBufferOffset")
        }
    }
}
