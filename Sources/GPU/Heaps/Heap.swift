import SwiftGPUSupport

/// A block of memory that buffers and textures are made in, Metal's `MTLHeap`: one
/// allocation, and its resources bound at offsets in it, so that making and releasing them
/// allocates no memory, and resources whose uses do not overlap can share (alias) it.
///
/// An automatic heap finds room for each resource and takes it back when the resource goes
/// or is made aliasable (`makeAliasable()`); a placement heap puts each where the app says.
/// A resource made from a heap keeps the heap alive, takes the heap's storage mode and
/// hazard tracking mode, and starts with undefined contents (an alias's contents are
/// another's). The heap's purgeable state is its resources': emptying the heap discards
/// them all.
///
/// `@unchecked Sendable`: the memory and purgeable state, the placements and the label are
/// in `LockedValue`s; the other stored properties are immutable.
public final class Heap: @unchecked Sendable {
    let memory: LockedValue<PurgeableMemory<HeapAllocation>>
    private let state: LockedValue<HeapState>
    /// The device that made the heap.
    public let device: Device
    /// The heap's size in bytes, Metal's `size`.
    public let size: Int
    /// Where the heap's memory lives; its resources share it.
    public let storageMode: StorageMode
    /// Automatic or placement.
    public let type: HeapType
    /// Whether SwiftGPU orders the accesses to the heap's resources: `.tracked` or
    /// `.untracked` (what `.default` asks for, as in Metal).
    public let hazardTrackingMode: HazardTrackingMode

    init(device: Device, descriptor: HeapDescriptor, backing: HeapAllocation) {
        self.device = device
        size = descriptor.size
        storageMode = descriptor.storageMode
        type = descriptor.type
        hazardTrackingMode = descriptor.hazardTrackingMode.resolved(default: .untracked)
        memory = LockedValue(PurgeableMemory(backing: backing), rank: .leaf("Heap.memory"))
        state = LockedValue(HeapState(space: HeapSpace(size: descriptor.size)), rank: .leaf("Heap.state"))
    }

    /// A name for debugging, Metal's `label`: misuse messages name the heap by it.
    public var label: String? {
        get { labelStorage.withLock { $0 } }
        set { labelStorage.withLock { $0 = newValue } }
    }
    private let labelStorage = LockedValue<String?>(nil, rank: .leaf("Heap.label"))

    /// The heap in misuse messages: `heap 'label' of 65536 bytes`.
    var misuseDescription: String { "heap\(label.map { " '\($0)'" } ?? "") of \(size) bytes" }

    /// The bytes its live resources take, Metal's `usedSize`: those made aliasable no longer
    /// count. In a placement heap each live resource counts, wherever it was placed.
    public var usedSize: Int { state.withLock { $0.used } }

    /// The bytes of memory the heap holds, Metal's `currentAllocatedSize`: its size, or 0
    /// once its purgeable state emptied it.
    public var currentAllocatedSize: Int { memory.withLock { $0.backing == nil ? 0 : size } }

    /// The largest resource aligned to `alignment` bytes (a power of two) that the heap
    /// could hold now, Metal's `maxAvailableSize(alignment:)`. A placement heap finds no
    /// room itself: it answers the most that fits at an aligned offset of an empty heap.
    public func maxAvailableSize(alignment: Int) -> Int {
        guard alignment > 0, alignment & (alignment - 1) == 0 else {
            misuse("\(#function): alignment \(alignment) is not a power of two")
        }
        if memory.withLock({ $0.backing == nil }) { return 0 }
        switch type {
        case .automatic: return state.withLock { $0.space.largest(alignment: alignment) }
        case .placement: return size
        }
    }

    /// Runs `body` with the heap's placements locked.
    func withState<T>(_ body: (inout HeapState) -> T) -> T { state.withLock { body(&$0) } }

    /// Takes `needs.size` bytes at an offset `needs.align` divides, or nil when no free range
    /// holds them (an automatic heap).
    func reserve(_ needs: SizeAndAlign) -> Int? {
        state.withLock { state in
            guard let offset = state.space.take(size: needs.size, alignment: needs.align) else { return nil }
            state.used += needs.size
            return offset
        }
    }

    /// Counts `size` bytes placed by the app (a placement heap).
    func notePlaced(_ size: Int) { state.withLock { $0.used += size } }

    /// Remembers `resource`, made from the heap, so that emptying the heap empties it.
    func noteResource(_ resource: any PurgeableResource) {
        state.withLock { state in
            state.resources.removeAll { $0.resource == nil }
            state.resources.append(WeakHeapResource(resource: resource))
        }
    }

    /// Gives `placement`'s bytes back: an automatic heap's for later resources (once; the
    /// resource was made aliasable, or went), a placement heap's only from its count, when
    /// the resource goes.
    func release(_ placement: HeapPlacement, gone: Bool = false) {
        state.withLock { state in
            guard !placement.aliasable else { return }
            switch type {
            case .automatic:
                placement.aliasable = true
                state.space.give(placement.offset..<(placement.offset + placement.size))
                state.used -= placement.size
            case .placement:
                if gone { state.used -= placement.size }
            }
        }
    }
}

/// An automatic heap's free ranges, the bytes its live resources take, and the resources,
/// behind the heap's lock (a leaf).
struct HeapState {
    var space: HeapSpace
    var used = 0
    var resources: [WeakHeapResource] = []
}

/// A resource made from a heap, held weakly: the heap empties it with its own memory.
struct WeakHeapResource {
    weak var resource: (any PurgeableResource)?
}
