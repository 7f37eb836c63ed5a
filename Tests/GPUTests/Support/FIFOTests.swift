import Testing
@testable import GPU

/// `FIFO` on its own: the ring's order through wrap-around and growth, removal from the
/// middle, and that a removed element is released at once.
@Suite("FIFO ring")
struct FIFOTests {
    final class Box {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("elements come out in order across wrap-around and growth")
    func orderAcrossWrapAndGrowth() {
        var fifo = FIFO<Int>()
        var expected: [Int] = []
        var next = 0
        // Fill part way, drain part way (the head moves), then outgrow the ring while
        // its elements wrap past the end, three times over.
        for round in 0..<3 {
            for _ in 0..<(6 + round * 9) {
                fifo.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(4 + round * 3) {
                #expect(fifo.removeFirst() == expected.removeFirst())
            }
            #expect(fifo.elements == expected)
            #expect(fifo.count == expected.count)
            #expect(fifo.first == expected.first)
        }
        #expect(fifo.removeAll() == expected)
        #expect(fifo.isEmpty && fifo.first == nil)
        fifo.append(7)
        #expect(fifo.elements == [7])
    }

    @Test("removing from the middle of a wrapped ring keeps the rest in order")
    func removeFromTheMiddle() {
        var fifo = FIFO<Int>()
        for value in 0..<8 { fifo.append(value) }
        for _ in 0..<5 { _ = fifo.removeFirst() }
        for value in 8..<12 { fifo.append(value) }   // wraps: slots 5...7, then 0...3
        #expect(fifo.elements == [5, 6, 7, 8, 9, 10, 11])
        #expect(fifo.remove { $0 == 7 })
        #expect(!fifo.remove { $0 == 7 })
        #expect(fifo.elements == [5, 6, 8, 9, 10, 11])
        #expect(fifo.first { $0 > 8 } == 9)
        #expect(fifo.remove { $0 == 11 })
        #expect(fifo.removeFirst(if: { $0 == 6 }) == nil)
        #expect(fifo.removeFirst(if: { $0 == 5 }) == 5)
        #expect(fifo.elements == [6, 8, 9, 10])
    }

    @Test("a removed element is released at once, and the oldest is read without a reference")
    func releasesWhatItHandsOut() {
        var fifo = FIFO<Box>()
        var kept: Box? = Box(1)
        weak let first = kept
        fifo.append(kept!)
        fifo.append(Box(2))
        kept = nil
        #expect(fifo.unretainedFirst?.takeUnretainedValue() === first)
        var taken: Box? = fifo.removeFirst()
        #expect(taken?.value == 1)
        taken = nil
        #expect(first == nil, "the ring kept no reference to the element it handed out")
        weak let second = fifo.first
        #expect(fifo.remove { $0.value == 2 })
        #expect(second == nil)
        #expect(fifo.unretainedFirst == nil)
    }
}
