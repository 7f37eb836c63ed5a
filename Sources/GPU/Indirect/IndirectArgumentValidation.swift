import SwiftGPUSupport

// The front end's side of indirect-argument validation: which command each slot serves,
// the limits a draw's arguments are checked against, and the validation kernel's
// pipeline. The backend copies and checks the arguments
// (`CommandRecorder+IndirectValidation.swift`); a command buffer made with
// `CommandBufferDescriptor.validatesIndirectArguments` false skips all of it.

/// How a pipeline's vertex attributes read one vertex buffer index: what an indirect
/// draw's vertex or instance range may reach in the buffer bound there.
struct VertexFetch {
    let bufferIndex: Int
    let stride: Int
    /// The bytes each element's attributes reach: the largest attribute offset plus size.
    let extent: Int
    /// Whether the buffer steps per instance (else per vertex).
    let perInstance: Bool

    /// How many elements fit `range` bytes from the bound offset.
    func elements(in range: UInt64) -> UInt64 {
        range < UInt64(extent) ? 0 : (range - UInt64(extent)) / UInt64(stride) + 1
    }
}

/// The command an indirect-argument slot serves, for the error that names it: the call,
/// the app's buffer (kept alive by the encoding state's retained objects until the command
/// buffer completes, which is when the error is made) and offset, and the limits checked.
struct IndirectSource {
    let call: StaticString
    let buffer: Unmanaged<Buffer>
    let offset: Int
    let kind: CommandRecorder.IndirectKind
    let limits: (UInt32, UInt32)
}

extension RenderCommandEncoder {
    /// The most vertices (or indices) × instances one indirect draw may make when its
    /// arguments are validated: 2²⁶. Counts the bound buffers allow past it are out of range
    /// too: a draw of 2³¹ vertices does not finish on a CPU driver, and no shader can tell
    /// a draw that reads no vertex buffer from one that never ends.
    public static let maxValidatedIndirectVertices = 1 << 26
}

extension CommandRecorder {
    /// Where an indirect command of an encoder reads its `size` bytes of arguments at
    /// `offset` in `buffer` (memory `memory`): a slot they are copied to and checked in
    /// first, with `limits` for a draw. The validation kernel's pipeline is made on first
    /// use, by `device`.
    func validatedArguments(in buffer: Buffer, memory: OpaquePointer, offset: Int, size: Int, kind: IndirectKind,
                            limits: (UInt32, UInt32), call: StaticString, device: Device) throws(VulkanError)
        -> (buffer: OpaquePointer, offset: Int) {
        if indirect.pipeline == nil { indirect.pipeline = try device.indirectValidationPipeline() }
        let slot = try indirectSlot(copying: size, from: memory, offset: offset, kind: kind, limits: limits)
        encoding.indirectSources.append(IndirectSource(call: call, buffer: .passUnretained(buffer), offset: offset, kind: kind,
                                                       limits: limits))
        return slot
    }

    /// The bound on an indirect draw's vertices × instances, as the kernel reads it.
    static let maxValidatedVertices = UInt32(RenderCommandEncoder.maxValidatedIndirectVertices)

    /// The error of the first indirect command whose arguments the GPU found out of range,
    /// in this command buffer's context or the parallel passes' contexts it executed; read
    /// once the work completed.
    @inline(__always)
    func invalidIndirectArguments() -> InvalidIndirectArguments? {
        // Most buffers check no indirect arguments: no call, no optional error to build.
        guard checkedIndirectArguments || secondariesUsed > 0 else { return nil }
        return firstInvalidIndirectArguments()
    }

    /// `invalidIndirectArguments()` for a buffer that checked some.
    private func firstInvalidIndirectArguments() -> InvalidIndirectArguments? {
        if let failure = indirectFailure() {
            return InvalidIndirectArguments(failure, source: encoding.indirectSources[failure.slot], maxGroups: maxGroupCount)
        }
        for index in 0..<secondariesUsed {
            if let found = secondaries[index].invalidIndirectArguments() { return found }
        }
        return nil
    }
}

extension Device {
    /// The indirect-argument validation kernel's pipeline, made on first use.
    func indirectValidationPipeline() throws(VulkanError) -> PipelineObject {
        if let made = indirectValidationPipelineStorage.withLock({ $0 }) { return made }
        let made = try IndirectValidationKernel.makePipeline(on: self)
        return indirectValidationPipelineStorage.withLock { stored in
            if stored == nil { stored = made }
            return stored!
        }
    }
}
