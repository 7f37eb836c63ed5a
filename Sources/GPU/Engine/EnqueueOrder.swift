/// A queue's enqueue order: the buffers enqueued or committed and not yet taken for
/// submission, oldest first, and the count a background drain waits for.
///
/// Pure bookkeeping, guarded by the queue engine's lock; the engine decides when the
/// head may go. Every check of the head and its removal happen in one call, so no other
/// thread can take or strand the same buffer in between.
struct EnqueueOrder<Element: AnyObject> {
    private var pending = FIFO<Element>()
    /// Committed, admitted buffers not yet scheduled or failed: what a drain waits for.
    private(set) var awaitingSchedule = 0
    /// `awaitingSchedule` when the gate closed for the background.
    private(set) var drainBaseline = 0

    /// The oldest buffer not yet taken, not retained: read it in place while it is here.
    var unretainedHead: Unmanaged<Element>? { pending.unretainedFirst }

    /// Whether no buffer waits.
    var isEmpty: Bool { pending.isEmpty }

    /// The oldest buffer ahead of `element` in the order that satisfies `predicate`.
    func first(before element: Element, where predicate: (Element) -> Bool) -> Element? {
        for candidate in pending.elements {
            if candidate === element { return nil }
            if predicate(candidate) { return candidate }
        }
        return nil
    }

    /// Gives `element` the last place.
    mutating func append(_ element: consuming Element) { pending.append(element) }

    /// Removes `element` wherever it is; returns whether it was there.
    mutating func remove(_ element: Element) -> Bool { pending.remove { $0 === element } }

    /// Removes the head and hands over the order's reference to it. The order must not be
    /// empty.
    mutating func takeHead() -> Element { pending.removeFirst() }

    /// A committed buffer was admitted: the drain waits for it.
    mutating func admitted() { awaitingSchedule += 1 }

    /// An admitted buffer was scheduled or failed.
    mutating func left() {
        precondition(awaitingSchedule > 0, "SwiftGPU internal error: drain count below zero")
        awaitingSchedule -= 1
    }

    /// Notes how many admitted buffers wait as the gate closes for the background.
    mutating func noteGateClosed() { drainBaseline = awaitingSchedule }

    /// Removes every buffer `isCommitted` says is committed (the drain's deadline passed):
    /// they will never be scheduled. Returns them, oldest first. A buffer already taken
    /// for submission is not here: it stays counted until its submission returns.
    mutating func strand(where isCommitted: (Element) -> Bool) -> [Element] {
        var stranded: [Element] = []
        while let element = pending.first(where: isCommitted) {
            _ = pending.remove { $0 === element }
            stranded.append(element)
        }
        awaitingSchedule -= stranded.count
        return stranded
    }
}
