extension Buffer {
    /// The buffer's address on the GPU, Metal's `gpuAddress`: a shader reaches the buffer
    /// through it (GLSL's `GL_EXT_buffer_reference`, a `buffer_reference` block member or a
    /// `uvec2` with `GL_EXT_buffer_reference_uvec2`), as an MSL kernel reaches a `device`
    /// pointer stored in an argument buffer. Add a byte offset for an element further in.
    ///
    /// It is the Vulkan buffer device address, which every device SwiftGPU runs on offers
    /// (Vulkan 1.3 requires it). Declare each buffer a kernel reaches only through its address
    /// with the encoder's `useResource(_:usage:)`: that keeps it alive until the command
    /// buffer completes and orders its reads and writes with other dispatches'.
    ///
    /// The address is fixed while the buffer has its memory. A buffer whose purgeable
    /// contents were discarded has no address (reading it stops with a misuse message, as
    /// `contents()` does); given memory again, it may have another. An address the GPU uses
    /// after its buffer was released, or discarded, reaches memory that is no longer the
    /// buffer's: keep the buffer, or declare it with `useResource(_:usage:)`.
    public var gpuAddress: UInt64 { backing().deviceAddress }
}
