/// How a heap places its resources, Metal's `MTLHeapType`.
public enum HeapType: Sendable, Hashable {
    /// The heap finds room for each resource (`makeBuffer(length:options:)`,
    /// `makeTexture(descriptor:)`), and takes it back when the resource goes or is made
    /// aliasable.
    case automatic
    /// The app places each resource at an offset of its choosing
    /// (`makeBuffer(length:options:offset:)`, `makeTexture(descriptor:offset:)`); resources
    /// placed over each other alias.
    case placement
}

/// What a heap is made from, Metal's `MTLHeapDescriptor`: a class, so that Metal's pattern
/// ports as it is, with Metal's defaults. `makeHeap(descriptor:)` copies it.
public final class HeapDescriptor {
    /// The heap's size in bytes (default 0; a heap needs at least 1). Size it with
    /// ``Device/heapBufferSizeAndAlign(length:options:)`` and
    /// ``Device/heapTextureSizeAndAlign(descriptor:)``.
    public var size: Int = 0
    /// Where the heap's memory lives (default `.private`); its resources share it.
    public var storageMode: StorageMode = .private
    /// Automatic or placement (default `.automatic`).
    public var type: HeapType = .automatic
    /// Whether SwiftGPU orders the accesses to the heap's resources (default `.default`:
    /// untracked, as in Metal). A tracked heap's resources are tracked as one: a command
    /// that uses any of them waits for earlier writes to any, which keeps aliases ordered.
    public var hazardTrackingMode: HazardTrackingMode = .default

    /// Makes a descriptor with Metal's defaults: an automatic, private, untracked heap of 0 bytes.
    public init() {}
}

/// A resource's size and alignment in a heap, Metal's `MTLSizeAndAlign`.
public struct SizeAndAlign: Sendable, Hashable {
    /// The bytes the resource takes in a heap (a multiple of `align`).
    public var size: Int
    /// The alignment, in bytes, of the offset it may be placed at.
    public var align: Int

    /// A size and an alignment.
    public init(size: Int, align: Int) {
        self.size = size
        self.align = align
    }
}
