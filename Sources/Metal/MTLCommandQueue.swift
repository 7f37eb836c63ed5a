import GPU

/// Metal's `MTLCommandQueue`; SwiftGPU's `CommandQueue` conforms.
public protocol MTLCommandQueue: AnyObject, Sendable {
    /// A new command buffer, or `nil` (the reason logged).
    func makeCommandBuffer() -> (any MTLCommandBuffer)?
}

/// SwiftGPU's `CommandQueue` as Metal's `MTLCommandQueue`.
extension CommandQueue: MTLCommandQueue {
    /// Metal's `makeCommandBuffer()`: a buffer, or `nil` with the reason logged.
    public func makeCommandBuffer() -> (any MTLCommandBuffer)? {
        madeOrNil("makeCommandBuffer()") { () throws(GPUError) -> CommandBuffer in try makeCommandBuffer() }
    }
}
