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
    /// Which resources the commands since the last barrier read and wrote.
    var hazards = HazardTracker()
    /// Objects the recorded commands use; released when the command buffer finishes.
    var retained: [AnyObject] = []
    /// The buffer bound last and the memory it had then, both in `retained`: rebinding it
    /// (a new offset per draw) reads that memory without taking the buffer's lock.
    var lastBound: (buffer: ObjectIdentifier, backing: Unmanaged<VulkanBuffer>)?
    /// The same for textures: the texture bound last and its image then, both in `retained`.
    var lastTexture: (texture: ObjectIdentifier, image: Unmanaged<VulkanImage>)?

    /// Tables with nothing bound.
    init() {
        bufferTable = .allocate(capacity: 64)
        bufferTable.initialize(repeating: BufferBinding())
        textureTable = .allocate(capacity: 32)
        textureTable.initialize(repeating: TextureBinding())
        samplerTable = .allocate(capacity: 32)
        samplerTable.initialize(repeating: nil)
        retained.reserveCapacity(16)
    }

    /// Frees the tables; the state is not used again.
    func deallocate() {
        bufferTable.deinitialize()
        bufferTable.deallocate()
        textureTable.deinitialize()
        textureTable.deallocate()
        samplerTable.deallocate()
    }

    /// Unbinds everything (a new encoder starts with empty tables).
    func clearTables() {
        for index in bufferTable.indices { bufferTable[index] = BufferBinding() }
        for index in textureTable.indices { textureTable[index] = TextureBinding() }
        for index in samplerTable.indices { samplerTable[index] = nil }
    }

    /// Forgets what the finished command buffer used: the retained objects (released now),
    /// the textures bound and the hazard record.
    mutating func reset() {
        retained.removeAll(keepingCapacity: true)
        lastBound = nil
        lastTexture = nil
        hazards.restart()
        for index in textureTable.indices { textureTable[index] = TextureBinding() }
    }
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
    var image: Unmanaged<VulkanImage>?
    /// The `Texture` bound, for hazard tracking.
    var owner: ObjectIdentifier?
}
