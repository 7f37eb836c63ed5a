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

    init(device: Device, backing: BufferAllocation, storageMode: StorageMode) {
        self.device = device
        memory = LockedValue(PurgeableMemory(backing: backing), rank: .leaf("Buffer.memory"))
        length = backing.length
        self.storageMode = storageMode
    }

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
        let isPrivate = options.contains(.storageModePrivate)
        let backing: BufferAllocation
        do {
            backing = try BufferAllocation(device: backend, length: length, hostVisible: !isPrivate)
        } catch {
            throw .vulkan(error)
        }
        let buffer = Buffer(device: self, backing: backing, storageMode: isPrivate ? .private : .shared)
        backing.mapped?.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        return buffer
    }

    /// Makes a buffer holding a copy of `length` bytes at `bytes`; a private buffer is
    /// filled through a shared staging buffer and a GPU copy.
    public func makeBuffer(bytes: UnsafeRawPointer, length: Int,
                           options: ResourceOptions = .storageModeShared) throws(GPUError) -> Buffer {
        guard length > 0 else { misuse("\(#function) needs a length above 0, got \(length)") }
        guard length <= maxBufferLength else { throw .bufferTooLong(length: length, maximum: maxBufferLength) }
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
        let buffer = Buffer(device: self, backing: backing, storageMode: .private)
        try runInternally { (commandBuffer) throws(GPUError) in
            let blit = try commandBuffer.makeBlitCommandEncoder()
            blit.copy(from: staging, sourceOffset: 0, to: buffer, destinationOffset: 0, size: length)
            blit.endEncoding()
        }
        return buffer
    }
}
