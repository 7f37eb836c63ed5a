extension Texture: PurgeableResource {
    /// Sets whether the system may discard the contents and returns the state before, as
    /// Metal's `setPurgeableState(_:)`: `.keepCurrent` only asks; a volatile texture is
    /// emptied on a memory warning and when the app enters the background, and a later
    /// call then returns `.empty`. Setting `.nonVolatile` or `.volatile` on an empty
    /// texture gives it a new image, whose contents are undefined until written (it stays
    /// empty if the memory cannot be had). Using an empty texture (encoding it, `getBytes`,
    /// `replace`) stops with a misuse message. A shared texture
    /// (`makeSharedTexture(descriptor:)`) and a drawable's texture cannot be made volatile
    /// or empty: the call stops with a misuse message.
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

    static var kind: String { "texture" }

    func makeFreshBacking() -> ImageAllocation? {
        guard let image = try? ImageAllocation(device: device.backend, descriptor: spec) else { return nil }
        do {
            try device.initializeLayout(of: image)
        } catch {
            return nil
        }
        return image
    }

    /// Stops for a texture whose memory another API, the swapchain or a texture it views
    /// shares.
    func checkDiscardable(_ state: PurgeableState) {
        if parent != nil {
            misuse("setPurgeableState(.\(state)) on a texture view, the \(misuseDescription): it shows its parent's memory, so it cannot be made "
                + "volatile or empty (set the parent's state)")
        }
        if isExportable {
            misuse("setPurgeableState(.\(state)) on a shared texture (made by makeSharedTexture(descriptor:)), the \(misuseDescription): "
                + "another API may be using its memory, so it cannot be made volatile or empty")
        }
        if isDrawable {
            misuse("setPurgeableState(.\(state)) on a drawable's texture, the \(misuseDescription): the swapchain owns its memory, "
                + "so it cannot be made volatile or empty")
        }
    }
}
