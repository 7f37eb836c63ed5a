/// How presented images replace each other on a display, as Vulkan's present modes.
public enum PresentMode: String, Sendable, Hashable, CaseIterable {
    /// One queued image is shown per vblank, in order; nothing is dropped.
    case fifo
    /// As `fifo`, but an image that arrives after its vblank was missed (the queue is
    /// empty and the shown image has been up for a full refresh) is shown at once.
    case fifoRelaxed
    /// At most one image waits; a newer one replaces it and the replaced one is dropped.
    case mailbox
    /// Every image is shown as soon as it arrives.
    case immediate
}
