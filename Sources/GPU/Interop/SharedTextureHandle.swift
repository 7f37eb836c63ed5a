/// A texture's memory exported for another API on the same device to import (Metal's
/// `MTLSharedTextureHandle`), for example OpenGL through `GL_EXT_memory_object_fd`: GTK's
/// `GtkGLArea` shows SwiftGPU's frames this way without a copy.
///
/// The file descriptor is the receiver's: `glImportMemoryFdEXT` takes it over, otherwise
/// close it. The importer must be on the same device and driver (compare `deviceUUID` and
/// `driverUUID` with `GL_DEVICE_UUID_EXT` and `GL_DRIVER_UUID_EXT`), use optimal tiling,
/// and finish reading before SwiftGPU writes the texture again: there is no shared
/// semaphore, so order the two on the CPU (draw after `waitUntilCompleted()`).
public struct SharedTextureHandle: Sendable {
    /// An opaque file descriptor (`VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT`) for the
    /// texture's memory.
    public var fileDescriptor: Int32
    /// The memory's size in bytes, which the importer passes with the descriptor.
    public var allocationSize: Int
    /// The texture's size in pixels and format.
    public var width: Int
    /// The texture's height in pixels.
    public var height: Int
    /// The texture's pixel format.
    public var pixelFormat: PixelFormat
    /// The device's UUID (`VkPhysicalDeviceIDProperties.deviceUUID`), 16 bytes.
    public var deviceUUID: [UInt8]
    /// The driver's UUID (`VkPhysicalDeviceIDProperties.driverUUID`), 16 bytes.
    public var driverUUID: [UInt8]
}
