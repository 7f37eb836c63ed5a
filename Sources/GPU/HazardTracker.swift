/// Which buffers commands since the last barrier read and wrote, so that an encoder emits
/// a barrier only before a command that reads or writes what an earlier one wrote, or
/// writes what an earlier one read.
struct HazardTracker {
    private var reads: [ObjectIdentifier] = []
    private var writes: [ObjectIdentifier] = []

    /// Whether a command touching these resources must wait for earlier commands. Records
    /// the accesses; after a `true` answer the caller emits a barrier and the record
    /// restarts from this command.
    mutating func needsBarrier(reading: some Sequence<ObjectIdentifier>, writing: some Sequence<ObjectIdentifier>) -> Bool {
        var hazard = false
        for id in reading where writes.contains(id) { hazard = true }
        for id in writing where writes.contains(id) || reads.contains(id) { hazard = true }
        if hazard {
            reads.removeAll(keepingCapacity: true)
            writes.removeAll(keepingCapacity: true)
        }
        reads.append(contentsOf: reading)
        writes.append(contentsOf: writing)
        return hazard
    }

    /// Forgets every access (a new command buffer, or after a full barrier).
    mutating func reset() {
        reads.removeAll(keepingCapacity: true)
        writes.removeAll(keepingCapacity: true)
    }
}
