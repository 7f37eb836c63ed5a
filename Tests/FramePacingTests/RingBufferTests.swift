import FramePacing
import Testing

@Suite("Ring buffer")
struct RingBufferTests {
    @Test("keeps the last capacity elements, oldest first, across many wraparounds")
    func window() {
        var ring = RingBuffer<Int>(capacity: 5)
        #expect(ring.isEmpty && Array(ring).isEmpty && ring.last == nil)
        for value in 0..<3 { ring.append(value) }
        #expect(Array(ring) == [0, 1, 2] && ring.count == 3 && ring.last == 2)
        for value in 3..<1_003 {
            ring.append(value)
            #expect(Array(ring) == Array(max(0, value - 4)...value))
            #expect(ring.last == value)
        }
        #expect(ring.count == 5 && ring.totalAppended == 1_003)
        ring.removeAll()
        #expect(ring.isEmpty && ring.totalAppended == 1_003)
        ring.append(7)
        #expect(Array(ring) == [7])
    }

    @Test("a window of one holds the newest element")
    func capacityOne() {
        var ring = RingBuffer<String>(capacity: 1)
        for word in ["a", "b", "c"] { ring.append(word) }
        #expect(Array(ring) == ["c"])
    }
}
