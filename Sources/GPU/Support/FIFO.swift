/// A first-in, first-out queue in a ring of slots that keeps its capacity: no allocation
/// once it has grown to its working size, and nothing to empty or shift when it drains
/// (an `Array` emptied and refilled destroyed each slot through the runtime's generic
/// path, thousands of instructions per 256 slots). A removed element is released at once
/// (its slot is emptied), so the queue never keeps an object alive after handing it out.
struct FIFO<Element> {
    /// The ring: a power-of-two count of slots (or none); the `count` slots from `head`
    /// on, wrapping, hold the elements, and every other slot is empty.
    private var slots: [Element?] = []
    private var head = 0
    /// How many elements it holds.
    private(set) var count = 0

    /// Whether it holds nothing.
    var isEmpty: Bool { count == 0 }
    /// The oldest element.
    var first: Element? { count == 0 ? nil : slots[head] }
    /// The elements, oldest first.
    var elements: [Element] { (0..<count).map { slots[slot($0)].unsafelyUnwrapped } }

    /// The slot of the element at `offset` from the oldest.
    private func slot(_ offset: Int) -> Int { (head &+ offset) & (slots.count &- 1) }

    /// Adds at the back, taking the caller's reference.
    mutating func append(_ element: consuming Element) {
        if count == slots.count { grow() }
        slots[slot(count)] = element
        count += 1
    }

    /// Removes and returns the oldest element if it satisfies `predicate`, which reads it
    /// in place.
    mutating func removeFirst(if predicate: (borrowing Element) -> Bool) -> Element? {
        guard count > 0, predicate(slots[head].unsafelyUnwrapped) else { return nil }
        return removeFirst()
    }

    /// Removes and returns the oldest element, which must exist.
    mutating func removeFirst() -> Element {
        precondition(count > 0, "SwiftGPU internal error: removeFirst from an empty FIFO")
        let element = slots[head].take().unsafelyUnwrapped
        head = slot(1)
        count -= 1
        return element
    }

    /// The oldest element that satisfies `predicate`.
    func first(where predicate: (Element) -> Bool) -> Element? {
        for offset in 0..<count where predicate(slots[slot(offset)].unsafelyUnwrapped) {
            return slots[slot(offset)]
        }
        return nil
    }

    /// Removes the oldest element that satisfies `predicate`, the ones behind it moving
    /// up; returns whether one did.
    mutating func remove(where predicate: (Element) -> Bool) -> Bool {
        guard let found = (0..<count).first(where: { predicate(slots[slot($0)].unsafelyUnwrapped) }) else {
            return false
        }
        _ = slots[slot(found)].take()
        for offset in found..<(count - 1) { slots[slot(offset)] = slots[slot(offset + 1)].take() }
        count -= 1
        return true
    }

    /// Removes every element and returns them, oldest first.
    mutating func removeAll() -> [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        while count > 0 { all.append(removeFirst()) }
        head = 0
        return all
    }

    /// Doubles the ring (8 slots at first), moving the elements to its start in order.
    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: Swift.max(8, slots.count * 2))
        for offset in 0..<count { larger[offset] = slots[slot(offset)].take() }
        slots = larger
        head = 0
    }
}

extension FIFO where Element: AnyObject {
    /// The oldest element, not retained: valid while it stays in the queue.
    var unretainedFirst: Unmanaged<Element>? {
        count == 0 ? nil : slots.withUnsafeBufferPointer { Unmanaged.passUnretained($0[head].unsafelyUnwrapped) }
    }
}
