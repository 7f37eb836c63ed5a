/// Where a buffer or texture sits in its heap: the heap (kept alive by it), the offset and
/// the bytes it takes. Gives those bytes back to an automatic heap when the resource goes,
/// unless `makeAliasable()` gave them back already.
///
/// `@unchecked Sendable`: `isAliasable` is guarded by the heap's lock; the rest is immutable.
final class HeapPlacement: @unchecked Sendable {
    let heap: Heap
    let offset: Int
    let size: Int
    /// Whether the heap may give the bytes to later resources (guarded by the heap's lock).
    var aliasable = false

    init(heap: Heap, offset: Int, size: Int) {
        self.heap = heap
        self.offset = offset
        self.size = size
    }

    /// Whether the resource was made aliasable.
    var isAliasable: Bool { heap.withState { _ in aliasable } }

    /// Gives the bytes back to an automatic heap, keeping the resource.
    func makeAliasable() { heap.release(self) }

    deinit { heap.release(self, gone: true) }
}
