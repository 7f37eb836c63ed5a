/// What an encoder has recorded so far, in Metal's terms: the binding tables (by
/// `TableSlot`), the hazard record, and the objects the recorded commands use, kept alive
/// until the command buffer completes. Encoders write it; the backend reads it to write
/// descriptors, push constants and barriers.
///
/// One per recording context, pooled with it (so a steady loop allocates none); the tables
/// are allocated once. Vulkan handles appear here only as opaque pointers.
struct EncoderState {
    /// What is bound at each buffer table slot (compute/vertex 0–31, fragment 32–63).
    let bufferTable: UnsafeMutableBufferPointer<BufferBinding>
    /// What is bound at each texture table slot (compute/vertex 0–15, fragment 16–31).
    let textureTable: UnsafeMutableBufferPointer<TextureBinding>
    /// The sampler handle bound at each sampler table slot (as the texture table).
    let samplerTable: UnsafeMutableBufferPointer<OpaquePointer?>
    /// Which slots of each table were written since it was last cleared (bit n: slot n), so
    /// that clearing touches those alone: an encoder binds a few of the 128 slots.
    var writtenBuffers: UInt64 = 0
    var writtenTextures: UInt32 = 0
    var writtenSamplers: UInt32 = 0
    /// Which resources the commands since the last barrier read and wrote.
    var hazards = HazardTracker()
    /// Objects the recorded commands use; released when the command buffer finishes.
    var retained = RetainedObjects()
    /// The buffer bound last and the memory it had then, both in `retained`: rebinding it
    /// (a new offset per draw) reads that memory without taking the buffer's lock.
    var lastBound: (buffer: ObjectIdentifier, backing: Unmanaged<BufferAllocation>)?
    /// The same for textures: the texture bound last and its image then, both in `retained`.
    var lastTexture: (texture: ObjectIdentifier, image: Unmanaged<ImageAllocation>)?
    /// The memory of the resources a host's commands were declared to use
    /// (`useResource(_:usage:)`), each retained once per command buffer.
    var hostResources = Set<ObjectIdentifier>()
    /// What the open encoder declared with `useResource(_:usage:)`: each of its later
    /// dispatches uses it too (a kernel reaches a buffer through its `gpuAddress`), so the
    /// hazard record learns it at each dispatch.
    var declaredUses: [DeclaredUse] = []
    /// The command each indirect-argument slot of the command buffer serves, in slot order
    /// (`IndirectArgumentValidation.swift`).
    var indirectSources: [IndirectSource] = []

    /// Tables with nothing bound.
    init() {
        bufferTable = .allocate(capacity: 64)
        bufferTable.initialize(repeating: BufferBinding())
        textureTable = .allocate(capacity: 32)
        textureTable.initialize(repeating: TextureBinding())
        samplerTable = .allocate(capacity: 32)
        samplerTable.initialize(repeating: nil)
    }

    /// Frees the tables and lists, releasing what is still retained; the state is not used
    /// again.
    mutating func deallocate() {
        retained.deallocate()
        hazards.deallocate()
        bufferTable.deinitialize()
        bufferTable.deallocate()
        textureTable.deinitialize()
        textureTable.deallocate()
        samplerTable.deallocate()
    }

    /// Unbinds everything (a new encoder starts with empty tables).
    mutating func clearTables() {
        Self.forEachBit(of: writtenBuffers) { bufferTable[$0] = BufferBinding() }
        Self.forEachBit(of: UInt64(writtenSamplers)) { samplerTable[$0] = nil }
        writtenBuffers = 0
        writtenSamplers = 0
        if !declaredUses.isEmpty { declaredUses.removeAll(keepingCapacity: true) }
        clearTextures()
    }

    /// Records `binding` at buffer table slot `slot`.
    @inline(__always)
    mutating func setBuffer(_ binding: BufferBinding, at slot: Int) {
        bufferTable[slot] = binding
        writtenBuffers |= 1 << UInt64(slot)
    }

    /// Records `binding` at texture table slot `slot`.
    @inline(__always)
    mutating func setTexture(_ binding: TextureBinding, at slot: Int) {
        textureTable[slot] = binding
        writtenTextures |= 1 << UInt32(slot)
    }

    /// Records the sampler `handle` at sampler table slot `slot`.
    @inline(__always)
    mutating func setSampler(_ handle: OpaquePointer?, at slot: Int) {
        samplerTable[slot] = handle
        writtenSamplers |= 1 << UInt32(slot)
    }

    private mutating func clearTextures() {
        Self.forEachBit(of: UInt64(writtenTextures)) { textureTable[$0] = TextureBinding() }
        writtenTextures = 0
    }

    @inline(__always)
    private static func forEachBit(of mask: UInt64, _ body: (Int) -> Void) {
        var rest = mask
        while rest != 0 {
            body(rest.trailingZeroBitCount)
            rest &= rest - 1
        }
    }

    /// Forgets what the finished command buffer used: the retained objects (released now),
    /// the textures bound and the hazard record.
    mutating func reset() {
        retained.releaseAll()
        if !hostResources.isEmpty { hostResources.removeAll(keepingCapacity: true) }
        lastBound = nil
        lastTexture = nil
        if !indirectSources.isEmpty { indirectSources.removeAll(keepingCapacity: true) }
        hazards.restart()
        clearTextures()
    }
}

/// A resource an encoder declared with `useResource(_:usage:)`.
struct DeclaredUse {
    /// The resource (a texture view's image texture).
    let id: ObjectIdentifier
    /// Whether it is written.
    var writing: Bool
    /// Declared since the encoder's last dispatch: the declaration already waited for
    /// earlier commands, so the next dispatch need not.
    var sinceDispatch: Bool
}

/// A buffer range bound to a descriptor slot: the Vulkan buffer's handle, opaque here.
struct BoundBuffer {
    var buffer: OpaquePointer?
    var offset: UInt64
    var range: UInt64
}

/// What an encoder has bound at one buffer table slot.
struct BufferBinding {
    var isSet = false
    var bound = BoundBuffer(buffer: nil, offset: 0, range: 0)
    /// The `Buffer` bound, for hazard tracking; nil for `setBytes` data.
    var owner: ObjectIdentifier?
    /// Where `setBytes` data sits in the upload ring's host mapping; nil for a `Buffer`.
    var bytes: UnsafeRawPointer?
}

/// What an encoder has bound at one texture table slot. The image is held unowned: the
/// encoding state's `retained` list keeps it (and its texture) until the command buffer
/// completes, and the table is cleared no later than that list, so the slots copy and clear
/// with no reference counting (64 release calls per command buffer otherwise).
struct TextureBinding {
    var image: Unmanaged<ImageAllocation>?
    /// The `Texture` bound, for hazard tracking.
    var owner: ObjectIdentifier?
}
