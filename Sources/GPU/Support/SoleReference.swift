import Synchronization

/// Tells whether an object may be recycled: nothing but the caller's one strong reference
/// reaches it, and nothing ever can again.
///
/// `isKnownUniquelyReferenced` counts strong references only. A recycled command buffer
/// must also have no weak reference (loading it later would hand the app a different
/// command buffer) and no unowned one. Swift keeps an object's strong count, its unowned
/// count and the mark of a side table (made on the object's first weak reference and kept
/// until the object is freed) in one 64-bit word after the object's metadata pointer
/// (the runtime's `RefCount.h`). One atomic load of that word sees all three at one
/// instant; since every new reference is made from an existing one, an object found with
/// the caller's reference alone stays so for as long as the caller keeps it to itself.
///
/// The reading of the word is checked once per process on probe objects (one reference,
/// two, a weak reference taken and dropped, an unowned one). Where the check fails, on a
/// runtime with another layout, `isSole` answers false and nothing is recycled.
enum SoleReference {
    /// Whether the runtime's reference-count word reads as this file expects.
    static let isSupported: Bool = selfTest()

    /// Whether `object` is referenced by the caller's variable alone: one strong
    /// reference, no unowned or weak reference, and never a weak one.
    @inline(__always)
    static func isSole<T: AnyObject>(_ object: inout T) -> Bool {
        // `isKnownUniquelyReferenced` first: the optimiser keeps the caller's own retains
        // and releases on their side of it, which it does not do for a plain memory read.
        isSupported && isKnownUniquelyReferenced(&object) && wordShowsSole(of: &object)
    }

    /// Reads the word without the support check (the self-test uses it).
    @inline(__always)
    private static func wordShowsSole<T: AnyObject>(of object: inout T) -> Bool {
        // The reference's bits, read without retaining the object.
        let address = withUnsafePointer(to: &object) {
            $0.withMemoryRebound(to: UnsafeRawPointer.self, capacity: 1) { $0.pointee }
        }
        let word = (address + MemoryLayout<UnsafeRawPointer>.size)
            .assumingMemoryBound(to: Atomic<UInt64>.self).pointee.load(ordering: .acquiring)
        // Bit 0 marks pure-Swift deallocation; bits 1–31 hold the unowned count (1 for the
        // strong references together); bit 32 is set while deinitialising; bits 33–62 hold
        // the strong count less one; bit 63 (with 62) marks a side-table pointer.
        return word & ~1 == 2
    }

    private final class Probe {}

    /// Holds the probe's other references.
    private final class Holder {
        var strong: Probe?
        weak var weak: Probe?
        unowned(safe) var unowned: Probe

        init(_ probe: Probe) { unowned = probe }
    }

    @inline(never)
    private static func read(_ probe: inout Probe) -> Bool {
        isKnownUniquelyReferenced(&probe) && wordShowsSole(of: &probe)
    }

    /// Unoptimised, so that every reference it makes is made, in order: the optimiser may
    /// otherwise drop or move a reference that nothing in the function reads.
    @_optimize(none)
    private static func selfTest() -> Bool {
        var probe = Probe()
        guard read(&probe) else { return false }
        let holder = Holder(Probe())
        holder.strong = probe
        guard !read(&probe) else { return false }
        holder.strong = nil
        guard read(&probe) else { return false }
        holder.unowned = probe
        guard !read(&probe) else { return false }
        let other = Probe()
        holder.unowned = other
        guard read(&probe) else { return false }
        holder.weak = probe
        holder.weak = nil
        // The side table made for the weak reference stays until the probe goes.
        return !read(&probe) && withExtendedLifetime(other) { true }
    }
}
