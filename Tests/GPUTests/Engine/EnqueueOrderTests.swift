import Testing
@testable import GPU

/// `EnqueueOrder` on its own: no device, no Vulkan.
@Suite("Enqueue order")
struct EnqueueOrderTests {
    final class Item {
        var committed: Bool
        init(committed: Bool) { self.committed = committed }
    }

    @Test("the head is taken in order, read in place without a reference of its own, and handed over once")
    func takeHead() {
        var order = EnqueueOrder<Item>()
        var a: Item? = Item(committed: true)
        let b = Item(committed: true)
        weak let weakA = a
        order.append(a!)
        order.append(b)
        a = nil
        #expect(order.unretainedHead?.takeUnretainedValue() === weakA)
        var taken: Item? = order.takeHead()
        #expect(taken === weakA)
        #expect(order.unretainedHead?.takeUnretainedValue() === b)
        taken = nil
        #expect(weakA == nil, "the order kept no reference to the buffer it handed over")
        #expect(order.takeHead() === b)
        #expect(order.unretainedHead == nil)
        #expect(order.isEmpty)
    }

    @Test("stranding removes the committed buffers only, wherever they are, and uncounts them")
    func strand() {
        var order = EnqueueOrder<Item>()
        let items = [true, false, true, true].map(Item.init)
        for item in items { order.append(item) }
        for item in items where item.committed { order.admitted() }
        order.admitted()   // one more admitted buffer, already taken for submission
        order.noteGateClosed()
        #expect(order.drainBaseline == 4)
        let stranded = order.strand { $0.committed }
        let head = order.unretainedHead?.takeUnretainedValue()
        #expect(stranded.map { ObjectIdentifier($0) } == [items[0], items[2], items[3]].map { ObjectIdentifier($0) })
        #expect(head === items[1])
        #expect(order.awaitingSchedule == 1, "the buffer being submitted is still counted")
        order.left()
        #expect(order.awaitingSchedule == 0)
    }

    @Test("a buffer removed from the middle leaves the rest in order")
    func remove() {
        var order = EnqueueOrder<Item>()
        let items = (0..<3).map { _ in Item(committed: false) }
        for item in items { order.append(item) }
        let removed = order.remove(items[1])
        let removedAgain = order.remove(items[1])
        #expect(removed && !removedAgain)
        #expect(order.takeHead() === items[0])
        #expect(order.takeHead() === items[2])
        #expect(order.isEmpty)
    }
}
