/// The last `capacity` values appended, oldest first: a bounded window over a stream of
/// records, so that a long-running app's frame records, latencies and interval changes
/// never grow without bound. Appending never allocates once the window is full.
public struct RingBuffer<Element>: Sequence {
    private var storage: [Element] = []
    /// Where the oldest element is, once the window is full.
    private var start = 0
    /// How many elements the window keeps.
    public let capacity: Int
    /// How many elements were ever appended (the window holds the last `capacity`).
    public private(set) var totalAppended = 0

    /// An empty window of `capacity` (at least 1) elements.
    public init(capacity: Int) {
        precondition(capacity > 0, "RingBuffer(capacity:): capacity must be above 0, got \(capacity)")
        self.capacity = capacity
    }

    /// How many elements the window holds now.
    public var count: Int { storage.count }
    /// Whether it holds nothing.
    public var isEmpty: Bool { storage.isEmpty }
    /// The newest element.
    public var last: Element? { storage.isEmpty ? nil : storage[(start + storage.count - 1) % storage.count] }

    /// Adds `element` as the newest, dropping the oldest when the window is full.
    public mutating func append(_ element: Element) {
        totalAppended += 1
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[start] = element
            start = (start + 1) % capacity
        }
    }

    /// Empties the window (the total appended stays).
    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        start = 0
    }

    /// The elements, oldest first.
    public func makeIterator() -> some IteratorProtocol<Element> {
        let storage = storage, start = start
        return (0..<storage.count).lazy.map { storage[(start + $0) % storage.count] }.makeIterator()
    }
}

extension RingBuffer: Sendable where Element: Sendable {}

extension RingBuffer: Equatable where Element: Equatable {
    /// Equal when they hold the same elements in the same order and have the same capacity.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.capacity == rhs.capacity && lhs.elementsEqual(rhs)
    }
}
