/// The Vulkan objects under SwiftGPU's resources, for a host's own commands: the public
/// side of the interop door. The values are Vulkan handles and enumerants as plain
/// pointers and integers, so that an app need not import Vulkan's headers to pass them on.

extension Buffer {
    /// The `VkBuffer` under the buffer, for a host's own commands (declare them with an
    /// encoder's `useResource(_:usage:)`). SwiftGPU destroys it with the buffer.
    public var vulkanBuffer: OpaquePointer { backing().handle }
}

extension Texture {
    /// The `VkImage` under the texture, for a host's own commands (declare them with an
    /// encoder's `useResource(_:usage:)`). SwiftGPU destroys it with the texture, or once its
    /// contents are discarded (purgeable state empty) and the command buffers using it
    /// complete; a texture given memory again has a new `VkImage`. Stops for an empty texture.
    public var vulkanImage: OpaquePointer { backing().handle }

    /// The `VkImageLayout` the image rests in between commands, which a host's commands
    /// find it in and must leave it in: general for `.shaderWrite` textures, shader-read
    /// for sampled ones, the attachment layout for render targets.
    public var vulkanImageLayout: UInt32 { backing().restingLayoutValue }
}

extension PixelFormat {
    /// The `VkFormat` of the format, for a host pipeline that draws into SwiftGPU's passes.
    public var vulkanFormat: UInt32 { vulkanFormatValue(of: self) }
}
