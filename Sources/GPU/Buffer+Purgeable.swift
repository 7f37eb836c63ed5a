extension Buffer: PurgeableResource {
    /// Sets whether the system may discard the contents and returns the state before, as
    /// Metal's `setPurgeableState(_:)`: `.keepCurrent` only asks; a volatile buffer is
    /// emptied on a memory warning and when the app enters the background, and a later
    /// call then returns `.empty`. Setting `.nonVolatile` or `.volatile` on an empty
    /// buffer gives it new memory (zero-filled when shared; it stays empty if the memory
    /// cannot be had). Using an empty buffer stops with a misuse message.
    /// A resource made from a heap follows the heap's state: any state but `.keepCurrent`
    /// stops with a misuse message (set the heap's, ``Heap/setPurgeableState(_:)``).
    @discardableResult
    public func setPurgeableState(_ state: PurgeableState) -> PurgeableState {
        if let heap, state != .keepCurrent {
            misuse("\(#function): the \(misuseDescription) was made from the \(heap.misuseDescription), whose purgeable state is "
                + "its resources'; set the heap's")
        }
        return changePurgeableState(state)
    }

    static var kind: String { "buffer" }

    func makeFreshBacking() -> BufferAllocation? {
        let backing = try? BufferAllocation(device: device.backend, length: length, hostVisible: storageMode == .shared)
        backing?.mapped?.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        return backing
    }

    /// Any buffer may be volatile or emptied.
    func checkDiscardable(_ state: PurgeableState) {}
}
