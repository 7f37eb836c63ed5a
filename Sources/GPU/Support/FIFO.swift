/// A first-in, first-out queue on one array that keeps its capacity: no allocation once
/// it has grown to its working size. A removed element is released at once (its slot is
/// emptied), so the queue never keeps an object alive after handing it out.
struct FIFO<Element> {
    /// Slots before `head` are empty; from `head` on, every slot holds an element.
    private var storage: [Element?] = []
    private var head = 0

    /// Whether it holds nothing.
    var isEmpty: Bool { head == storage.count }
    /// The oldest element.
    var first: Element? { isEmpty ? nil : storage[head] }
    /// The elements, oldest first.
    var elements: [Element] { storage[head...].map { $0.unsafelyUnwrapped } }

    /// Adds at the back, taking the caller's reference.
    mutating func append(_ element: consuming Element) {
        if head > 0 && head == storage.count {
            storage.removeAllKeepingCapacity()
            head = 0
        }
        storage.append(element)
    }

    /// Removes and returns the oldest element if it satisfies `predicate`, which reads it
    /// in place.
    mutating func removeFirst(if predicate: (borrowing Element) -> Bool) -> Element? {
        guard !isEmpty, predicate(storage[head].unsafelyUnwrapped) else { return nil }
        return removeFirst()
    }

    /// Removes and returns the oldest element.
    mutating func removeFirst() -> Element {
        let element = storage[head].take().unsafelyUnwrapped
        head += 1
        if head == storage.count {
            storage.removeAllKeepingCapacity()
            head = 0
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the newest element.
    mutating func removeLast() -> Element {
        let element = storage.removeLast().unsafelyUnwrapped
        if head == storage.count {
            storage.removeAllKeepingCapacity()
            head = 0
        }
        return element
    }

    /// The oldest element that satisfies `predicate`.
    func first(where predicate: (Element) -> Bool) -> Element? {
        storage[head...].first { predicate($0.unsafelyUnwrapped) } ?? nil
    }

    /// Removes the oldest element that satisfies `predicate`; returns whether one did.
    mutating func remove(where predicate: (Element) -> Bool) -> Bool {
        guard let index = storage[head...].firstIndex(where: { predicate($0.unsafelyUnwrapped) }) else { return false }
        storage.remove(at: index)
        if head == storage.count {
            storage.removeAllKeepingCapacity()
            head = 0
        }
        return true
    }

    /// Removes every element.
    mutating func removeAll() -> [Element] {
        let all = elements
        storage.removeAllKeepingCapacity()
        head = 0
        return all
    }
}

extension FIFO where Element: AnyObject {
    /// The oldest element, not retained: valid while it stays in the queue.
    var unretainedFirst: Unmanaged<Element>? {
        isEmpty ? nil : storage.withUnsafeBufferPointer { Unmanaged.passUnretained($0[head].unsafelyUnwrapped) }
    }
}
