extension Device {
    /// Makes a heap of `descriptor.size` bytes in one allocation, Metal's
    /// `makeHeap(descriptor:)`. Stops for a size below 1; throws when the memory cannot be had.
    public func makeHeap(descriptor: HeapDescriptor) throws(GPUError) -> Heap {
        guard descriptor.size > 0 else { misuse("\(#function) needs a size above 0, got \(descriptor.size)") }
        let backing: HeapAllocation
        do {
            backing = try HeapAllocation(device: backend, size: descriptor.size, hostVisible: descriptor.storageMode == .shared)
        } catch {
            throw .vulkan(error)
        }
        return Heap(device: self, descriptor: descriptor, backing: backing)
    }

    /// The bytes a buffer of `length` bytes takes in a heap and the alignment of its offset,
    /// Metal's `heapBufferSizeAndAlign(length:options:)`. Stops for a length below 1.
    public func heapBufferSizeAndAlign(length: Int, options: ResourceOptions = []) -> SizeAndAlign {
        guard length > 0 else { misuse("\(#function) needs a length above 0, got \(length)") }
        let needs = HeapAllocation.bufferRequirements(device: backend, length: length)
        return SizeAndAlign(size: HeapSpace.align(needs.size, to: needs.alignment), align: needs.alignment)
    }

    /// The bytes a texture of `descriptor` takes in a heap and the alignment of its offset,
    /// Metal's `heapTextureSizeAndAlign(descriptor:)`. Stops for a descriptor
    /// `makeTexture(descriptor:)` stops for, and throws for one it throws for.
    public func heapTextureSizeAndAlign(descriptor: TextureDescriptor) throws(GPUError) -> SizeAndAlign {
        let spec = descriptor.spec
        try checkTextureDescriptor(spec, call: "\(#function)")
        return sizeAndAlign(ofImage: spec)
    }

    /// The heap size and alignment of an image of `spec`, which this device can make.
    func sizeAndAlign(ofImage spec: TextureSpec) -> SizeAndAlign {
        let needs = HeapAllocation.imageRequirements(device: backend, descriptor: spec)
        return SizeAndAlign(size: HeapSpace.align(needs.size, to: needs.alignment), align: needs.alignment)
    }
}
