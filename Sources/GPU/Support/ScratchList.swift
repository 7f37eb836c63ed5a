/// A list of plain values that a recording context fills and empties for every command
/// buffer (the hazard record's reads and writes, the submission's semaphores): appending is
/// a store, emptying sets the count, and neither goes through `Array`'s uniqueness checks
/// or its generic range replacement, which cost more than the work itself on the
/// per-buffer path; handing the values on (`elements`) retains nothing.
///
/// Its storage belongs to the owner, which frees it once with `deallocate()`. A copy shares
/// the storage: copies are only read (a parallel pass joins its sub-encoders' records).
struct ScratchList<Element: BitwiseCopyable> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many values the list holds.
    private(set) var count = 0

    /// An empty list with room for `capacity` values before it grows.
    init(capacity: Int = 8) {
        storage = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Frees the storage; the list is not used again.
    func deallocate() { storage.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The values, in memory the list owns: valid until the list next changes.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: storage, count: count) }

    /// The value appended last, if any.
    var last: Element? { count == 0 ? nil : storage[count &- 1] }

    /// The value at `index`, which must be below `count`.
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "SwiftGPU internal error: ScratchList index \(index) out of 0..<\(count)")
        return storage[index]
    }

    mutating func append(_ value: Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: value)
        count += 1
    }

    /// Empties the list, keeping its storage.
    mutating func removeAll() { count = 0 }

    /// Whether any value satisfies `predicate`.
    func contains(where predicate: (Element) -> Bool) -> Bool {
        for index in 0..<count where predicate(storage[index]) { return true }
        return false
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}

extension ScratchList where Element: Equatable {
    /// Whether the list holds `value`.
    func contains(_ value: Element) -> Bool { contains { $0 == value } }
}
