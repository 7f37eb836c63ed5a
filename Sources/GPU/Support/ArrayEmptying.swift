extension Array {
    /// Empties the array and keeps its capacity, as `removeAll(keepingCapacity: true)` does.
    /// The per-buffer lists hold a few elements at most, and for those this removes them
    /// one by one from the end: `removeAll(keepingCapacity:)` goes through the generic
    /// range replacement, about 100 instructions even for one element (and 20 for none).
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        if count > 4 {
            removeAll(keepingCapacity: true)
            return
        }
        while !isEmpty { removeLast() }
    }
}
