/// The objects a command buffer's recorded commands use, kept alive until it finishes: a
/// `ScratchList` of unmanaged references that appends with one retain and empties with one
/// release each, without `Array`'s uniqueness checks and generic range replacement
/// (emptying an array of objects through `removeAll(keepingCapacity:)` cost more than the
/// releases).
///
/// Owned by one `EncoderState`, which frees it with `deallocate()`; never copied.
struct RetainedObjects {
    private var list: ScratchList<Unmanaged<AnyObject>>

    /// An empty list with room for `capacity` objects before it grows.
    init(capacity: Int = 16) { list = ScratchList(capacity: capacity) }

    /// How many objects are kept.
    var count: Int { list.count }

    /// Keeps `object` until `releaseAll()`.
    @inline(__always)
    mutating func append(_ object: AnyObject) { list.append(.passRetained(object)) }

    /// Keeps `object`, already retained for the list by the caller, until `releaseAll()`.
    @inline(__always)
    mutating func append<T: AnyObject>(retained object: Unmanaged<T>) {
        list.append(.fromOpaque(object.toOpaque()))
    }

    /// Lets every kept object go, keeping the storage. The list is empty before the first
    /// release, so that a deinit that runs here finds it so.
    mutating func releaseAll() {
        let kept = list   // shares the storage; its count stays
        list.removeAll()
        for index in 0..<kept.count { kept[index].release() }
    }

    /// Lets every kept object go and frees the storage; the list is not used again.
    mutating func deallocate() {
        releaseAll()
        list.deallocate()
    }
}
