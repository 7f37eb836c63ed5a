extension Buffer {
    /// Sets whether the system may discard the contents and returns the state before, as
    /// Metal's `setPurgeableState(_:)`: `.keepCurrent` only asks; a volatile buffer is
    /// emptied on a memory warning and when the app enters the background, and a later
    /// call then returns `.empty`. Setting `.nonVolatile` or `.volatile` on an empty
    /// buffer gives it new memory (zero-filled when shared; it stays empty if the memory
    /// cannot be had). Using an empty buffer stops with a misuse message.
    @discardableResult
    public func setPurgeableState(_ state: PurgeableState) -> PurgeableState {
        let before = memory.withLock { $0.state }
        switch state {
        case .keepCurrent:
            return before
        case .empty:
            discard(always: true)
            return before
        case .nonVolatile, .volatile:
            if before == .empty, let backing = try? VulkanBuffer(device: device.backend, length: length,
                                                                hostVisible: storageMode == .shared) {
                backing.mapped?.initializeMemory(as: UInt8.self, repeating: 0, count: length)
                memory.withLock { memory in
                    if memory.backing == nil { memory.backing = backing }
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
        let released = memory.withLock { memory -> VulkanBuffer? in
            guard always || memory.state == .volatile else { return nil }
            memory.state = .empty
            defer { memory.backing = nil }
            return memory.backing
        }
        // The memory goes with its last reference, after the lock is let go: here, or when
        // the GPU work that retains it completes.
        _ = released
    }
}
