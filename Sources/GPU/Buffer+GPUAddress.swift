extension Device {
    /// Whether buffers of this device have GPU addresses (``Buffer/gpuAddress``) and shaders
    /// may reach buffers through them: true on every Vulkan 1.3 driver, false where a layer
    /// hides the feature (RenderDoc 1.24 on a driver without capture replay for it).
    public var supportsGPUAddresses: Bool { backend.bufferDeviceAddresses }
}

extension Buffer {
    /// The buffer's address on the GPU, Metal's `gpuAddress`: a shader reaches the buffer
    /// through it (GLSL's `GL_EXT_buffer_reference`, a `buffer_reference` block member or a
    /// `uvec2` with `GL_EXT_buffer_reference_uvec2`), as an MSL kernel reaches a `device`
    /// pointer stored in an argument buffer. Add a byte offset for an element further in.
    ///
    /// It is the Vulkan buffer device address, which every Vulkan 1.3 driver offers; a layer
    /// may hide it (RenderDoc 1.24 does on drivers without capture replay for addresses),
    /// and then ``Device/supportsGPUAddresses`` is false and reading this stops with a
    /// misuse message. Declare each buffer a kernel reaches only through its address
    /// with the encoder's `useResource(_:usage:)`: that keeps it alive until the command
    /// buffer completes and orders its reads and writes with other dispatches'.
    ///
    /// The address is fixed while the buffer has its memory. A buffer whose purgeable
    /// contents were discarded has no address (reading it stops with a misuse message, as
    /// `contents()` does); given memory again, it may have another. An address the GPU uses
    /// after its buffer was released, or discarded, reaches memory that is no longer the
    /// buffer's: keep the buffer, or declare it with `useResource(_:usage:)`.
    public var gpuAddress: UInt64 {
        guard device.supportsGPUAddresses else {
            misuse("\(#function): \(misuseDescription) belongs to a device that offers no buffer device addresses "
                + "(Device.supportsGPUAddresses is false)")
        }
        return backing().deviceAddress
    }
}
