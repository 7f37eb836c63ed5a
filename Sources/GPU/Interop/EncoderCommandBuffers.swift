/// The encoders' side of the interop door: a host's own Vulkan commands recorded into
/// SwiftGPU's command buffers, between its commands (declared with `useResource`).

extension ComputeCommandEncoder {
    /// Runs `body` with the command buffer's `VkCommandBuffer`, between this encoder's
    /// dispatches, so that a host library records its own compute or transfer commands.
    /// Declare what they touch with `useResource` first. Afterwards SwiftGPU binds its
    /// pipeline again before its next dispatch. `body` may not call this encoder: a call
    /// stops with a misuse message.
    public func withUnsafeVulkanCommandBuffer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        let commandBuffer = lendToHost(#function)
        defer { takeBackFromHost() }
        return try body(commandBuffer)
    }
}

extension RenderCommandEncoder {
    /// Runs `body` with the pass's `VkCommandBuffer`, inside its dynamic rendering, so that a
    /// host library records its own draws into SwiftGPU's pass (Dear ImGui's Vulkan backend,
    /// a tool's pipeline made for dynamic rendering with the attachments' formats,
    /// `PixelFormat.vulkanFormat`). Declare what those commands touch with `useResource`
    /// first. Afterwards SwiftGPU binds its pipeline, descriptors and dynamic state again
    /// before its next draw. `body` must not end the rendering, begin another, or record
    /// barriers; it may not call this encoder: a call stops with a misuse message.
    public func withUnsafeVulkanCommandBuffer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        let commandBuffer = lendToHost(#function)
        defer { takeBackFromHost() }
        return try body(commandBuffer)
    }
}
