/// Which buffers commands since the last barrier read and wrote, so that an encoder emits
/// a barrier only before a command that reads or writes what an earlier one wrote, or
/// writes what an earlier one read.
///
/// Its lists are freed with `deallocate()` by the encoding state that owns the tracker.
struct HazardTracker {
    private var reads = ScratchList<ObjectIdentifier>()
    private var writes = ScratchList<ObjectIdentifier>()
    /// How many barriers hazards asked for in this command buffer.
    private(set) var barriers = 0

    /// Whether a command that reads `id` (and writes it, when `writing`) must wait for
    /// earlier commands.
    func conflicts(_ id: ObjectIdentifier, writing: Bool) -> Bool {
        writes.contains(id) || (writing && reads.contains(id))
    }

    /// Records that a command read `id` (and wrote it, when `writing`). After a barrier,
    /// `reset()` first, so that the record restarts from that command.
    mutating func record(_ id: ObjectIdentifier, writing: Bool) {
        reads.append(id)
        if writing { writes.append(id) }
    }

    /// Records that commands read `id` (and wrote it, when `writing`) unless the record
    /// holds that access already: a resource declared again and again adds nothing.
    mutating func recordOnce(_ id: ObjectIdentifier, writing: Bool) {
        if !reads.contains(id) { reads.append(id) }
        if writing, !writes.contains(id) { writes.append(id) }
    }

    /// Records a read that needs no barrier (a render pass's indirect arguments: the pass
    /// waited for everything before it), so that a later command writing `id` waits for
    /// it. A repeat of the last read is recorded once. Inlined: every indirect draw calls it.
    @inline(__always)
    mutating func recordRead(_ id: ObjectIdentifier) {
        if reads.last != id { reads.append(id) }
    }

    /// Adds `other`'s reads and writes to this record: a parallel render pass's
    /// sub-encoders keep records of their own (indirect reads, what a host's commands were
    /// declared to touch), which the pass joins when it ends.
    mutating func takeAccesses(of other: HazardTracker) {
        for index in 0..<other.reads.count { recordRead(other.reads[index]) }
        for index in 0..<other.writes.count where !writes.contains(other.writes[index]) { writes.append(other.writes[index]) }
    }

    /// Notes a barrier recorded for a hazard: the record restarts from the next command.
    mutating func barrier() {
        reset()
        barriers += 1
    }

    /// Forgets every access (a render pass starts, which waits for everything before it).
    mutating func reset() {
        reads.removeAll()
        writes.removeAll()
    }

    /// Frees the lists; the tracker is not used again.
    func deallocate() {
        reads.deallocate()
        writes.deallocate()
    }

    /// Starts over for a new command buffer.
    mutating func restart() {
        reset()
        barriers = 0
    }
}
