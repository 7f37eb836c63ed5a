extension Heap: PurgeableResource {
    /// Sets whether the system may discard the heap's memory and returns the state before,
    /// Metal's `setPurgeableState(_:)` on a heap: as a buffer's
    /// (``Buffer/setPurgeableState(_:)``), for the heap and its resources together. Emptying
    /// the heap discards every resource made from it (using one then stops with a misuse
    /// message); set `.nonVolatile` again, the heap gets new memory for new resources.
    @discardableResult
    public func setPurgeableState(_ state: PurgeableState) -> PurgeableState {
        changePurgeableState(state)
    }

    static var kind: String { "heap" }

    func makeFreshBacking() -> HeapAllocation? {
        try? HeapAllocation(device: device.backend, size: size, hostVisible: storageMode == .shared)
    }

    /// Any heap may be volatile or emptied.
    func checkDiscardable(_ state: PurgeableState) {}

    /// Discards the resources made from the heap, which hold its memory.
    func didDiscard() {
        let resources = withState { state in state.resources.compactMap(\.resource) }
        for resource in resources { resource.discard(always: true) }
    }
}
