import SwiftGPUSupport

/// The memory of a resource with a purgeable state, behind the resource's memory lock (a
/// leaf: nothing is called while it is held).
struct PurgeableMemory<Backing: AnyObject> {
    /// Nil once the contents are discarded (`PurgeableState.empty`).
    var backing: Backing?
    var state = PurgeableState.nonVolatile
}

/// A resource whose memory `setPurgeableState(_:)` can discard and give back: `Buffer` and
/// `Texture`. Emptying drops the resource's reference to its backing; encoders retain the
/// backing they encode, so the memory is freed when the last command buffer using it
/// completes.
protocol PurgeableResource: AnyObject, Sendable {
    associatedtype Backing: AnyObject
    /// The backing and state, locked.
    var memory: LockedValue<PurgeableMemory<Backing>> { get }
    /// The device whose gate empties the resource when it is volatile.
    var device: Device { get }
    /// What the resource is called in misuse messages ("buffer", "texture").
    static var kind: String { get }
    /// The resource in misuse messages: its kind, label and size.
    var misuseDescription: String { get }
    /// New memory for an emptied resource set nonvolatile or volatile again, or nil if
    /// none can be had (the resource then stays empty). Called with no lock held.
    func makeFreshBacking() -> Backing?
    /// Stops unless the resource may be set to `state` (`.volatile` or `.empty`).
    func checkDiscardable(_ state: PurgeableState)
    /// Called, with no lock held, after the contents were discarded (a heap discards its
    /// resources then).
    func didDiscard()
}

extension PurgeableResource {
    /// Nothing more to discard.
    func didDiscard() {}
}

extension PurgeableResource {
    /// The memory now, for `call`. Stops, naming the call and the resource, once the
    /// contents are discarded.
    func currentBacking(_ call: StaticString) -> Backing {
        guard let backing = memory.withLock({ $0.backing }) else { stopDiscarded("\(call)") }
        return backing
    }

    /// `currentBacking(_:)` with one reference of its own, taken under the memory lock,
    /// for a caller that keeps it (a command buffer's retained objects take it over, so no
    /// other count changes hands).
    func retainedBacking(_ call: StaticString) -> Unmanaged<Backing> {
        let retained = memory.withLock { memory -> Unmanaged<Backing>? in
            guard let backing = memory.backing else { return nil }
            return .passRetained(backing)
        }
        guard let retained else { stopDiscarded("\(call)") }
        return retained
    }

    /// Stops, naming `call` and the resource, once the contents are discarded.
    func checkHasContents(_ call: String) {
        if memory.withLock({ $0.backing == nil }) { stopDiscarded(call) }
    }

    private func stopDiscarded(_ call: String) -> Never {
        misuse("\(call): the \(misuseDescription) was used after its contents were discarded (purgeable state empty); "
            + "setPurgeableState(.nonVolatile) gives it memory again")
    }

    /// Metal's `setPurgeableState(_:)` for either resource: see `Buffer.setPurgeableState(_:)`.
    func changePurgeableState(_ state: PurgeableState) -> PurgeableState {
        let before = memory.withLock { $0.state }
        switch state {
        case .keepCurrent:
            return before
        case .empty:
            checkDiscardable(.empty)
            discard(always: true)
            return before
        case .nonVolatile, .volatile:
            if state == .volatile { checkDiscardable(.volatile) }
            if before == .empty, let fresh = makeFreshBacking() {
                memory.withLock { memory in
                    if memory.backing == nil { memory.backing = fresh }
                }
            }
            let previous = memory.withLock { memory -> PurgeableState in
                defer { if memory.backing != nil { memory.state = state } }
                return memory.state
            }
            if state == .volatile { device.gate.noteVolatile(self) }
            return previous
        }
    }

    /// Discards the contents: only volatile ones unless `always` (what a memory warning or
    /// entering the background does, and `.empty`).
    func discard(always: Bool = false) {
        let released = memory.withLock { memory -> Backing? in
            guard always || memory.state == .volatile else { return nil }
            memory.state = .empty
            defer { memory.backing = nil }
            return memory.backing
        }
        // The memory goes with its last reference, after the lock is let go: here, or when
        // the GPU work that retains it completes.
        if released != nil { didDiscard() }
    }
}
