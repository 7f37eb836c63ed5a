/// The objects a command buffer's recorded commands use, kept alive until it finishes: a
/// list of strong references that appends with one retain and empties with one release
/// each, without `Array`'s uniqueness checks and generic range replacement (emptying an
/// array of objects through `removeAll(keepingCapacity:)` cost more than the releases).
///
/// Owned by one `EncoderState`, which frees it with `deallocate()`; never copied.
struct RetainedObjects {
    private var storage: UnsafeMutablePointer<Unmanaged<AnyObject>>
    private var capacity: Int
    /// How many objects are kept.
    private(set) var count = 0

    /// An empty list with room for `capacity` objects before it grows.
    init(capacity: Int = 16) {
        storage = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Keeps `object` until `releaseAll()`.
    @inline(__always)
    mutating func append(_ object: AnyObject) {
        if count == capacity { grow() }
        (storage + count).initialize(to: .passRetained(object))
        count += 1
    }

    /// Lets every kept object go, keeping the storage. The count is zero before the first
    /// release, so that a deinit that runs here finds the list empty.
    mutating func releaseAll() {
        let kept = count
        count = 0
        for index in 0..<kept { storage[index].release() }
    }

    /// Lets every kept object go and frees the storage; the list is not used again.
    mutating func deallocate() {
        releaseAll()
        storage.deallocate()
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Unmanaged<AnyObject>>.allocate(capacity: capacity * 2)
        larger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
