import GPU

/// Metal's `MTLCommandBuffer`; SwiftGPU's `CommandBuffer` conforms.
public protocol MTLCommandBuffer: AnyObject, Sendable {
    /// Where the buffer is in its life.
    var status: MTLCommandBufferStatus { get }
    /// A new compute encoder, or `nil` (the reason logged).
    func makeComputeCommandEncoder() -> (any MTLComputeCommandEncoder)?
    /// A new render encoder of the pass `renderPassDescriptor` describes, or `nil` (the reason logged).
    func makeRenderCommandEncoder(descriptor renderPassDescriptor: MTLRenderPassDescriptor) -> (any MTLRenderCommandEncoder)?
    /// A new blit encoder, or `nil` (the reason logged).
    func makeBlitCommandEncoder() -> (any MTLBlitCommandEncoder)?
    /// Presents `drawable` once this buffer's work is complete; call before `commit()`.
    func present(_ drawable: any MTLDrawable)
    /// Submits the buffer in its queue's order.
    func commit()
    /// Blocks until the buffer completed and its completed handlers ran.
    func waitUntilCompleted()
    /// Blocks until the buffer is scheduled.
    func waitUntilScheduled()
    /// Runs `block` once the buffer completed.
    func addCompletedHandler(_ block: @escaping @Sendable (any MTLCommandBuffer) -> Void)
}

/// SwiftGPU's `CommandBuffer` as Metal's `MTLCommandBuffer`.
extension CommandBuffer: MTLCommandBuffer {
    /// Metal's `makeComputeCommandEncoder()`: an encoder, or `nil` with the reason logged.
    public func makeComputeCommandEncoder() -> (any MTLComputeCommandEncoder)? {
        madeOrNil("makeComputeCommandEncoder()") { () throws(GPUError) -> ComputeCommandEncoder in
            try makeComputeCommandEncoder()
        }
    }

    /// Metal's `makeRenderCommandEncoder(descriptor:)`: an encoder, or `nil` with the reason logged.
    public func makeRenderCommandEncoder(descriptor renderPassDescriptor: MTLRenderPassDescriptor) -> (any MTLRenderCommandEncoder)? {
        madeOrNil("makeRenderCommandEncoder(descriptor:)") { () throws(GPUError) -> RenderCommandEncoder in
            try makeRenderCommandEncoder(descriptor: renderPassDescriptor.pass(for: "makeRenderCommandEncoder(descriptor:)"))
        }
    }

    /// Metal's `makeBlitCommandEncoder()`: an encoder, or `nil` with the reason logged.
    public func makeBlitCommandEncoder() -> (any MTLBlitCommandEncoder)? {
        madeOrNil("makeBlitCommandEncoder()") { () throws(GPUError) -> BlitCommandEncoder in try makeBlitCommandEncoder() }
    }

    /// Metal's `present(_:)`; stops for a drawable SwiftGPU did not make.
    public func present(_ drawable: any MTLDrawable) {
        present(own(drawable, as: Drawable.self, in: "present(_:)"))
    }

    /// Metal's `addCompletedHandler(_:)`, handing `block` the buffer as Metal's protocol.
    public func addCompletedHandler(_ block: @escaping @Sendable (any MTLCommandBuffer) -> Void) {
        let handler: CommandBufferHandler = { buffer in block(buffer) }
        addCompletedHandler(handler)
    }
}
