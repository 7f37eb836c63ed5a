/// Exporting a shared texture's memory to another API in this process or another one.

extension Texture {
    /// Whether the texture's memory can be exported (made by `makeSharedTexture(descriptor:)`),
    /// Metal's `isShareable`.
    public var isShareable: Bool { isExportable }

    /// Exports the memory of a texture made by `makeSharedTexture(descriptor:)`: a new file
    /// descriptor each call (see ``SharedTextureHandle`` for the importer's rules). Stops
    /// with a misuse message for a texture made otherwise.
    public func makeSharedTextureHandle() throws(GPUError) -> SharedTextureHandle {
        let image = backing()
        let exported: (fileDescriptor: Int32, deviceUUID: [UInt8], driverUUID: [UInt8])?
        do {
            exported = isShareable ? try image.exportMemory() : nil
        } catch {
            throw .vulkan(error)
        }
        guard let exported else {
            misuse("makeSharedTextureHandle(): the texture was not made by makeSharedTexture(descriptor:)")
        }
        return SharedTextureHandle(fileDescriptor: exported.fileDescriptor, allocationSize: image.allocationSize,
                                   width: width, height: height, pixelFormat: pixelFormat,
                                   deviceUUID: exported.deviceUUID, driverUUID: exported.driverUUID)
    }
}

extension Device {
    /// The device's and driver's UUIDs (16 bytes each), which an API importing a shared
    /// texture compares with its own (see ``SharedTextureHandle``).
    public var sharedTextureUUIDs: (device: [UInt8], driver: [UInt8]) { backend.sharedTextureUUIDs }
}
