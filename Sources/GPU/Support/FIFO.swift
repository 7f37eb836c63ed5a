/// A first-in, first-out queue on one array that keeps its capacity: no allocation once
/// it has grown to its working size.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// Whether it holds nothing.
    var isEmpty: Bool { head == storage.count }
    /// The oldest element.
    var first: Element? { isEmpty ? nil : storage[head] }
    /// The elements, oldest first.
    var elements: ArraySlice<Element> { storage[head...] }

    /// Adds at the back.
    mutating func append(_ element: Element) {
        if head > 0 && head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        storage.append(element)
    }

    /// Removes and returns the oldest element.
    mutating func removeFirst() -> Element {
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the newest element.
    mutating func removeLast() -> Element {
        let element = storage.removeLast()
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// The oldest element that satisfies `predicate`.
    func first(where predicate: (Element) -> Bool) -> Element? {
        storage[head...].first(where: predicate)
    }

    /// Removes the oldest element that satisfies `predicate`; returns whether one did.
    mutating func remove(where predicate: (Element) -> Bool) -> Bool {
        guard let index = storage[head...].firstIndex(where: predicate) else { return false }
        storage.remove(at: index)
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return true
    }

    /// Removes every element.
    mutating func removeAll() -> [Element] {
        let all = Array(storage[head...])
        storage.removeAll(keepingCapacity: true)
        head = 0
        return all
    }
}
