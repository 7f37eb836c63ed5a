/// The free ranges of an automatic heap's memory, sorted by offset and never adjacent: a
/// first-fit allocator. The heap's lock guards it.
struct HeapSpace {
    private var free: [Range<Int>]

    /// All of `size` bytes free.
    init(size: Int) { free = [0..<size] }

    /// Takes the first `size` bytes at an offset `alignment` divides; nil when no free range
    /// holds them.
    mutating func take(size: Int, alignment: Int) -> Int? {
        for (index, range) in free.enumerated() {
            let offset = Self.align(range.lowerBound, to: alignment)
            guard offset <= range.upperBound, range.upperBound - offset >= size else { continue }
            var pieces: [Range<Int>] = []
            if offset > range.lowerBound { pieces.append(range.lowerBound..<offset) }
            if offset + size < range.upperBound { pieces.append((offset + size)..<range.upperBound) }
            free.replaceSubrange(index...index, with: pieces)
            return offset
        }
        return nil
    }

    /// Gives `range` back, joining it to the free ranges beside it.
    mutating func give(_ range: Range<Int>) {
        var merged = range
        let index = free.firstIndex { $0.lowerBound >= range.upperBound } ?? free.endIndex
        var start = index
        if start > 0, free[start - 1].upperBound == merged.lowerBound {
            start -= 1
            merged = free[start].lowerBound..<merged.upperBound
        }
        var end = index
        if end < free.endIndex, free[end].lowerBound == merged.upperBound {
            merged = merged.lowerBound..<free[end].upperBound
            end += 1
        }
        free.replaceSubrange(start..<end, with: [merged])
    }

    /// The largest size a resource aligned to `alignment` could take now.
    func largest(alignment: Int) -> Int {
        free.map { range in max(range.upperBound - Self.align(range.lowerBound, to: alignment), 0) }.max() ?? 0
    }

    /// `value` rounded up to a multiple of `alignment` (a power of two, or 1).
    static func align(_ value: Int, to alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }
}
