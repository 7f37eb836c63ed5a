import SwiftGPUSupport

/// A linear GPU allocation, Metal's `MTLBuffer`.
///
/// `@unchecked Sendable`: the memory and purgeable state, and the label, are in
/// `LockedValue`s; the other
/// stored properties are immutable; the contents are the caller's to synchronise with GPU
/// work, as in Metal.
public final class Buffer: @unchecked Sendable {
    let memory: LockedValue<PurgeableMemory<BufferAllocation>>
    /// The device that made the buffer.
    public let device: Device
    /// Length in bytes.
    public let length: Int
    /// Shared or private.
    public let storageMode: StorageMode
    /// Whether SwiftGPU orders the GPU's accesses to the buffer: `.tracked` or `.untracked`
    /// (a heap's resources take the heap's mode), Metal's `hazardTrackingMode`.
    public let hazardTrackingMode: HazardTrackingMode
    /// Where the buffer sits in its heap; nil for a buffer of its own.
    let placement: HeapPlacement?
    /// What the hazard record names the buffer's accesses by: the buffer, or its tracked
    /// heap (whose resources may alias); nil when untracked.
    let hazardID: ObjectIdentifier?

    init(device: Device, backing: BufferAllocation, storageMode: StorageMode,
         hazardTrackingMode: HazardTrackingMode = .tracked, placement: HeapPlacement? = nil) {
        self.device = device
        memory = LockedValue(PurgeableMemory(backing: backing), rank: .leaf("Buffer.memory"))
        length = backing.length
        self.storageMode = storageMode
        self.hazardTrackingMode = hazardTrackingMode
        self.placement = placement
        // The memory lock lives as long as the buffer: its identity is the buffer's.
        hazardID = hazardTrackingMode == .untracked ? nil : placement.map { ObjectIdentifier($0.heap) } ?? ObjectIdentifier(memory)
    }

    /// The heap the buffer was made from, Metal's `heap`; nil for a buffer of its own.
    public var heap: Heap? { placement?.heap }
    /// The buffer's offset in its heap's memory, Metal's `heapOffset` (0 outside a heap).
    public var heapOffset: Int { placement?.offset ?? 0 }
    /// The bytes of memory the buffer takes, Metal's `allocatedSize`: in a heap, the size
    /// its placement needs (`Device.heapBufferSizeAndAlign(length:options:)`).
    public var allocatedSize: Int { placement?.size ?? memory.withLock { $0.backing?.length ?? 0 } }

    /// Lets a heap hand the buffer's memory to later resources, Metal's `makeAliasable()`:
    /// the buffer stays usable, and the app orders its last use before the new resources'
    /// first. Does nothing for a buffer that is not in an automatic heap.
    public func makeAliasable() { placement?.makeAliasable() }

    /// Whether ``makeAliasable()`` let the heap reuse the buffer's memory, Metal's
    /// `isAliasable()`.
    public func isAliasable() -> Bool { placement?.isAliasable ?? false }

    /// A name for debugging, Metal's `label`: misuse messages name the buffer by it.
    public var label: String? {
        get { labelStorage.withLock { $0 } }
        set { labelStorage.withLock { $0 = newValue } }
    }
    private let labelStorage = LockedValue<String?>(nil, rank: .leaf("Buffer.label"))

    /// The memory now, for encoding by `call`: a command buffer retains it, so that
    /// discarding the contents frees it only after the GPU is done with it. Stops, naming
    /// the call and the buffer, once the contents are discarded.
    func backing(_ call: StaticString = #function) -> BufferAllocation { currentBacking(call) }

    /// The buffer in misuse messages: `buffer 'label' of 64 bytes`.
    var misuseDescription: String { "buffer\(label.map { " '\($0)'" } ?? "") of \(length) bytes" }

    /// The CPU address of a shared buffer's contents. Stops for a private buffer, and for
    /// one whose contents were discarded.
    public func contents() -> UnsafeMutableRawPointer {
        guard let mapped = backing().mapped else {
            misuse("contents() called on the \(misuseDescription), which has private storage; use a shared buffer or a blit copy")
        }
        return mapped
    }
}

extension Device {
    /// Makes a buffer of `length` bytes: zero-filled when shared; a private buffer's
    /// contents are undefined until the GPU writes them, as in Metal.
    public func makeBuffer(length: Int, options: ResourceOptions = .storageModeShared) throws(GPUError) -> Buffer {
        guard length > 0 else { misuse("\(#function) needs a length above 0, got \(length)") }
        guard length <= maxBufferLength else { throw .bufferTooLong(length: length, maximum: maxBufferLength) }
        let tracking = HazardTrackingMode(checking: options, call: #function).resolved(default: .tracked)
        let isPrivate = options.contains(.storageModePrivate)
        let backing: BufferAllocation
        do {
            backing = try BufferAllocation(device: backend, length: length, hostVisible: !isPrivate)
        } catch {
            throw .vulkan(error)
        }
        let buffer = Buffer(device: self, backing: backing, storageMode: isPrivate ? .private : .shared,
                            hazardTrackingMode: tracking)
        backing.mapped?.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        return buffer
    }

    /// Makes a buffer holding a copy of `length` bytes at `bytes`; a private buffer is
    /// filled through a shared staging buffer and a GPU copy.
    public func makeBuffer(bytes: UnsafeRawPointer, length: Int,
                           options: ResourceOptions = .storageModeShared) throws(GPUError) -> Buffer {
        guard length > 0 else { misuse("\(#function) needs a length above 0, got \(length)") }
        guard length <= maxBufferLength else { throw .bufferTooLong(length: length, maximum: maxBufferLength) }
        let tracking = HazardTrackingMode(checking: options, call: #function).resolved(default: .tracked)
        guard options.contains(.storageModePrivate) else {
            let buffer = try makeBuffer(length: length, options: options)
            buffer.contents().copyMemory(from: bytes, byteCount: length)
            return buffer
        }
        let staging = try makeBuffer(length: length, options: .storageModeShared)
        staging.contents().copyMemory(from: bytes, byteCount: length)
        let backing: BufferAllocation
        do {
            backing = try BufferAllocation(device: backend, length: length, hostVisible: false)
        } catch {
            throw .vulkan(error)
        }
        let buffer = Buffer(device: self, backing: backing, storageMode: .private, hazardTrackingMode: tracking)
        try runInternally { (commandBuffer) throws(GPUError) in
            let blit = try commandBuffer.makeBlitCommandEncoder()
            blit.copy(from: staging, sourceOffset: 0, to: buffer, destinationOffset: 0, size: length)
            blit.endEncoding()
        }
        return buffer
    }
}
