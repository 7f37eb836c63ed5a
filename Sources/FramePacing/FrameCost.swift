/// What one simulated frame costs: CPU time to encode it, then GPU time to render it.
public struct FrameCost: Sendable, Hashable {
    /// CPU time, from frame start.
    public var cpu: Duration
    /// GPU time, from the end of the CPU work (or the previous frame's GPU work, if later).
    public var gpu: Duration

    /// A frame taking `cpu` then `gpu`.
    public init(cpu: Duration, gpu: Duration) {
        self.cpu = cpu
        self.gpu = gpu
    }
}
