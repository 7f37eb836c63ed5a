/// How many refreshes each recent frame needed, counted per second of display time over a
/// bounded span: the evidence the automatic swap interval reads before it lowers.
///
/// Counts per second rather than per frame, so its size depends on the span, not on the
/// frame rate; a query covers whole seconds, the oldest one in full (a little more than
/// asked, never less).
struct FrameTimeHistory: Sendable {
    /// One second of frames: `counts[k - 1]` frames needed k refreshes.
    private struct Second: Sendable {
        var index: Int64
        var counts: [Int]
    }

    /// Oldest first; at most one per second of the span kept.
    private var seconds: [Second] = []

    /// Records a frame shown at `time` that needed `refreshes` (at least 1), forgetting
    /// seconds that ended more than `span` before `time`.
    mutating func record(needs refreshes: Int, at time: Duration, keeping span: Duration) {
        let index = Self.second(of: time)
        if seconds.last?.index != index { seconds.append(Second(index: index, counts: [])) }
        let needed = max(refreshes, 1)
        if seconds[seconds.count - 1].counts.count < needed {
            seconds[seconds.count - 1].counts += Array(repeating: 0, count: needed - seconds[seconds.count - 1].counts.count)
        }
        seconds[seconds.count - 1].counts[needed - 1] += 1
        let oldest = Self.second(of: time - span)
        if let keep = seconds.firstIndex(where: { $0.index >= oldest }), keep > 0 { seconds.removeFirst(keep) }
    }

    /// The share of the frames shown since `start` that needed more than `refreshes`;
    /// nil when there are none.
    func share(needingMoreThan refreshes: Int, since start: Duration) -> Double? {
        let first = Self.second(of: start)
        var frames = 0
        var over = 0
        for second in seconds.reversed() {
            guard second.index >= first else { break }
            for (slot, count) in second.counts.enumerated() {
                frames += count
                if slot + 1 > refreshes { over += count }
            }
        }
        return frames == 0 ? nil : Double(over) / Double(frames)
    }

    /// Forgets every frame.
    mutating func removeAll() { seconds.removeAll() }

    private static func second(of time: Duration) -> Int64 { time.components.seconds - (time < .zero && time.components.attoseconds != 0 ? 1 : 0) }
}
