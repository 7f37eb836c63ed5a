import SwiftGPUSupport

extension Heap {
    /// Makes a buffer of `length` bytes in the heap, Metal's `makeBuffer(length:options:)`:
    /// nil when no free range holds it (see ``maxAvailableSize(alignment:)``) or the heap was
    /// emptied. The options' storage mode must be the heap's, and a hazard tracking mode
    /// they name the heap's too. Stops on a placement heap, which places nothing itself.
    public func makeBuffer(length: Int, options: ResourceOptions = []) -> Buffer? {
        let call: StaticString = #function
        guard type == .automatic else {
            misuse("\(call): the \(misuseDescription) is a placement heap; place the buffer with makeBuffer(length:options:offset:)")
        }
        let needs = checkedBuffer(length: length, options: options, call: call)
        guard let offset = reserve(needs) else { return nil }
        return makeBuffer(length: length, offset: offset, size: needs.size)
    }

    /// Makes a buffer of `length` bytes at `offset` in a placement heap, Metal's
    /// `makeBuffer(length:options:offset:)`: it aliases whatever else was placed over the
    /// same bytes. Stops on an automatic heap, and for an offset that is not a multiple of
    /// the buffer's alignment or leaves it outside the heap
    /// (``Device/heapBufferSizeAndAlign(length:options:)``). Nil once the heap was emptied.
    public func makeBuffer(length: Int, options: ResourceOptions = [], offset: Int) -> Buffer? {
        let call: StaticString = #function
        guard type == .placement else {
            misuse("\(call): the \(misuseDescription) is an automatic heap; use makeBuffer(length:options:), or make a placement heap")
        }
        let needs = checkedBuffer(length: length, options: options, call: call)
        checkPlacement(offset: offset, needs: needs, what: "a buffer of \(length) bytes", call: call)
        notePlaced(needs.size)
        return makeBuffer(length: length, offset: offset, size: needs.size)
    }

    /// Makes a texture in the heap, Metal's `makeTexture(descriptor:)`: nil when no free
    /// range holds it (see ``maxAvailableSize(alignment:)``), the heap was emptied, or this
    /// device cannot make the texture, or none in the heap's memory. The descriptor's storage
    /// mode must be the heap's, and a hazard tracking mode it names the heap's too. Stops on
    /// a placement heap, and for a descriptor `Device.makeTexture(descriptor:)` stops for.
    public func makeTexture(descriptor: TextureDescriptor) -> Texture? {
        let call: StaticString = #function
        guard type == .automatic else {
            misuse("\(call): the \(misuseDescription) is a placement heap; place the texture with makeTexture(descriptor:offset:)")
        }
        guard let (spec, needs) = checkedTexture(descriptor, call: call), let offset = reserve(needs) else { return nil }
        return makeTexture(spec, offset: offset, size: needs.size)
    }

    /// Makes a texture at `offset` in a placement heap, Metal's
    /// `makeTexture(descriptor:offset:)`: it aliases whatever else was placed over the same
    /// bytes. Stops on an automatic heap, and for an offset that is not a multiple of the
    /// texture's alignment or leaves it outside the heap
    /// (``Device/heapTextureSizeAndAlign(descriptor:)``). Nil as for `makeTexture(descriptor:)`.
    public func makeTexture(descriptor: TextureDescriptor, offset: Int) -> Texture? {
        let call: StaticString = #function
        guard type == .placement else {
            misuse("\(call): the \(misuseDescription) is an automatic heap; use makeTexture(descriptor:), or make a placement heap")
        }
        guard let (spec, needs) = checkedTexture(descriptor, call: call) else { return nil }
        checkPlacement(offset: offset, needs: needs, what: "a \(spec.width)×\(spec.height) \(spec.pixelFormat) texture", call: call)
        notePlaced(needs.size)
        return makeTexture(spec, offset: offset, size: needs.size)
    }

    /// A buffer bound at `offset`; the placement gives its bytes back if none can be made.
    private func makeBuffer(length: Int, offset: Int, size: Int) -> Buffer? {
        let placement = HeapPlacement(heap: self, offset: offset, size: size)
        guard let allocation = memory.withLock({ $0.backing }),
              let backing = try? BufferAllocation(heap: allocation, offset: offset, length: length)
        else { return nil }
        let buffer = Buffer(device: device, backing: backing, storageMode: storageMode, hazardTrackingMode: hazardTrackingMode,
                            placement: placement)
        noteResource(buffer)
        return buffer
    }

    /// A texture bound at `offset`, in its resting layout; the placement gives its bytes
    /// back if none can be made.
    private func makeTexture(_ spec: TextureSpec, offset: Int, size: Int) -> Texture? {
        let placement = HeapPlacement(heap: self, offset: offset, size: size)
        guard let allocation = memory.withLock({ $0.backing }),
              let image = try? ImageAllocation(device: device.backend, descriptor: spec, placement: (allocation, offset)),
              (try? device.initializeLayout(of: image)) != nil
        else { return nil }
        let texture = Texture(device: device, spec: spec, backing: image, placement: placement)
        noteResource(texture)
        return texture
    }

    /// The size and alignment of a buffer of `length` bytes with `options` in this heap.
    private func checkedBuffer(length: Int, options: ResourceOptions, call: StaticString) -> SizeAndAlign {
        guard length > 0 else { misuse("\(call) needs a length above 0, got \(length)") }
        checkModes(storage: options.storageMode, tracking: HazardTrackingMode(checking: options, call: call), call: call)
        return device.heapBufferSizeAndAlign(length: length, options: options)
    }

    /// The texture's values and its size and alignment in this heap; nil when this device
    /// cannot make it.
    private func checkedTexture(_ descriptor: TextureDescriptor, call: StaticString) -> (TextureSpec, SizeAndAlign)? {
        var spec = descriptor.spec
        checkModes(storage: spec.storageMode, tracking: spec.hazardTrackingMode, call: call)
        spec.hazardTrackingMode = hazardTrackingMode
        guard (try? device.checkTextureDescriptor(spec, call: "\(call)")) != nil else { return nil }
        return (spec, device.sizeAndAlign(ofImage: spec))
    }

    private func checkModes(storage: StorageMode, tracking: HazardTrackingMode, call: StaticString) {
        guard storage == storageMode else {
            misuse("\(call): storage mode \(storage) is not the heap's \(storageMode) (the \(misuseDescription))")
        }
        guard tracking == .default || tracking == hazardTrackingMode else {
            misuse("\(call): hazard tracking mode \(tracking) is not the heap's \(hazardTrackingMode) (the \(misuseDescription)); "
                + "a heap's resources take the heap's")
        }
    }

    /// Stops unless `offset` is a multiple of `needs.align` and `needs.size` bytes from it
    /// lie in the heap.
    private func checkPlacement(offset: Int, needs: SizeAndAlign, what: String, call: StaticString) {
        guard offset % needs.align == 0 else {
            misuse("\(call): offset \(offset) is not a multiple of the \(needs.align)-byte alignment of \(what)")
        }
        guard offset >= 0, offset <= size, needs.size <= size - offset else {
            misuse("\(call): \(what) takes \(needs.size) bytes, which at offset \(offset) do not fit the \(misuseDescription)")
        }
    }
}
