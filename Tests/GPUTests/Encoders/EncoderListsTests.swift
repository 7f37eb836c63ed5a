import Testing
@testable import GPU

/// The lists an encoding state fills and empties for every command buffer: each object
/// kept is released once, when the list is emptied or freed, and values stay in order as
/// a list grows past its first capacity.
@Suite("Encoder lists")
struct EncoderListsTests {
    /// Counts its own deinit.
    final class Counted {
        let onDeinit: () -> Void
        init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    @Test("retained objects live until the list is emptied, which releases each once; freeing releases what is left")
    func retainedObjects() {
        var released = 0
        var list = RetainedObjects(capacity: 2)
        for _ in 0..<5 { list.append(Counted { released += 1 }) }
        #expect(list.count == 5 && released == 0)
        list.releaseAll()
        #expect(list.count == 0 && released == 5)
        list.append(Counted { released += 1 })
        list.releaseAll()
        list.releaseAll()
        #expect(released == 6)
        list.append(Counted { released += 1 })
        list.deallocate()
        #expect(released == 7)
    }

    @Test("a scratch list keeps its values in order as it grows, and emptying it forgets them")
    func scratchList() {
        var list = ScratchList<Int>(capacity: 2)
        defer { list.deallocate() }
        for value in 0..<10 { list.append(value * 3) }
        #expect(list.count == 10 && list[0] == 0 && list[9] == 27 && list.last == 27)
        #expect(list.contains(12) && !list.contains(13))
        list.removeAll()
        #expect(list.isEmpty && list.last == nil && !list.contains(0))
        list.append(7)
        #expect(list.count == 1 && list[0] == 7)
    }

    @Test("arrays emptied in place keep their capacity, short or long")
    func arraysEmptiedInPlace() {
        for count in [0, 1, 4, 5, 64] {
            var array = Array(0..<count)
            array.reserveCapacity(64)
            let capacity = array.capacity
            array.removeAllKeepingCapacity()
            #expect(array.isEmpty && array.capacity == capacity)
        }
    }
}
