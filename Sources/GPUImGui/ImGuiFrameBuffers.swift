import GPU

/// One frame's vertex and index buffers, reused every few frames: they grow to the largest
/// frame drawn with them (to a power of two) and are never made again for a smaller one,
/// so a steady interface allocates nothing per frame.
final class ImGuiFrameBuffers {
    private var vertices: Buffer?
    private var indices: Buffer?
    /// The command buffer that last drew from these buffers.
    private var lastUse: CommandBuffer?

    /// The buffers, at least `vertexBytes` and `indexBytes` long, for `commandBuffer`: once
    /// the command buffer that used them last has completed.
    func take(for commandBuffer: CommandBuffer, device: Device, vertexBytes: Int,
              indexBytes: Int) throws -> (vertices: Buffer, indices: Buffer) {
        if let lastUse, lastUse !== commandBuffer { lastUse.waitUntilCompleted() }
        lastUse = commandBuffer
        let vertices = try Self.buffer(vertices, atLeast: vertexBytes, device: device, label: "ImGui vertices")
        let indices = try Self.buffer(indices, atLeast: indexBytes, device: device, label: "ImGui indices")
        self.vertices = vertices
        self.indices = indices
        return (vertices, indices)
    }

    /// The buffers made so far.
    var bufferIdentities: [ObjectIdentifier] { [vertices, indices].compactMap { $0.map(ObjectIdentifier.init) } }

    private static func buffer(_ existing: Buffer?, atLeast length: Int, device: Device, label: String) throws -> Buffer {
        if let existing, existing.length >= length { return existing }
        let made = try device.makeBuffer(length: max(4096, 1 << (Int.bitWidth - (length - 1).leadingZeroBitCount)))
        made.label = label
        return made
    }
}
