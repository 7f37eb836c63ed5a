extension Texture {
    /// A view of the texture in another pixel format, Metal's `makeTextureView(pixelFormat:)`:
    /// the same image, every level and slice, read and written as `pixelFormat`.
    ///
    /// See ``makeTextureView(pixelFormat:textureType:levels:slices:)`` for the rules.
    public func makeTextureView(pixelFormat: PixelFormat) throws(GPUError) -> Texture {
        try makeView(pixelFormat: pixelFormat, textureType: textureType, levels: 0..<mipmapLevelCount,
                     slices: 0..<spec.layerCount, call: #function)
    }

    /// A view of some of the texture's levels and slices, as another type and pixel format,
    /// Metal's `makeTextureView(pixelFormat:textureType:levels:slices:)`. The view shows the
    /// texture's image: what one writes the other reads, and commands that use either are
    /// ordered as commands that use the texture itself (a view shares its hazard tracking,
    /// and ``getBytes(_:bytesPerRow:from:mipmapLevel:slice:)`` on either waits for writes
    /// through both). Its level 0 is level `levels.lowerBound` of the texture, its slice 0
    /// slice `slices.lowerBound` (a cube's slices are its faces, six a cube); its usage,
    /// sample count and storage mode are the texture's. A view keeps the texture's image
    /// alive, and cannot be made volatile or empty itself.
    ///
    /// Metal's rules hold, and breaking one stops with a misuse message: `pixelFormat` of
    /// the texture's size class (a colour format of as many bytes a texel; a depth format
    /// only as itself), and the texture made with ``TextureUsage/pixelFormatView`` when the
    /// format differs; `levels` and `slices` non-empty and within the texture; one slice
    /// for a `.type2D` view, whole cubes of a square texture for a `.typeCube` one (of a
    /// cube, or of a 2D array of at least six slices), one sample a texel unless the view
    /// is `.type2D`; no drawable's texture. Throws ``GPUError/vulkan(_:)`` when the driver
    /// cannot make the view.
    public func makeTextureView(pixelFormat: PixelFormat, textureType: TextureType, levels: Range<Int>,
                                slices: Range<Int>) throws(GPUError) -> Texture {
        try makeView(pixelFormat: pixelFormat, textureType: textureType, levels: levels, slices: slices, call: #function)
    }

    private func makeView(pixelFormat format: PixelFormat, textureType type: TextureType, levels: Range<Int>,
                          slices: Range<Int>, call: StaticString) throws(GPUError) -> Texture {
        checkView(pixelFormat: format, textureType: type, levels: levels, slices: slices, call: call)
        let image = backing(call)
        var viewSpec = spec
        viewSpec.pixelFormat = format
        viewSpec.textureType = type
        viewSpec.width = max(spec.width >> levels.lowerBound, 1)
        viewSpec.height = max(spec.height >> levels.lowerBound, 1)
        viewSpec.mipmapLevelCount = levels.count
        viewSpec.arrayLength = type == .typeCube ? slices.count / 6 : slices.count
        let view: ImageAllocation
        do {
            view = try ImageAllocation(viewOf: image.imageOwner, descriptor: viewSpec,
                                       baseLevel: image.levelOffset + levels.lowerBound,
                                       baseLayer: image.layerOffset + slices.lowerBound)
        } catch {
            throw .vulkan(error)
        }
        return Texture(device: device, spec: viewSpec, backing: view,
                       viewOf: (self, levels.lowerBound, slices.lowerBound))
    }

    /// Stops unless Metal's rules allow the view (see
    /// ``makeTextureView(pixelFormat:textureType:levels:slices:)``).
    private func checkView(pixelFormat format: PixelFormat, textureType type: TextureType, levels: Range<Int>,
                           slices: Range<Int>, call: StaticString) {
        if isDrawable { misuse("\(call): the \(misuseDescription) is a drawable's; the swapchain's images have no views") }
        if format != pixelFormat {
            guard !format.isDepth, !pixelFormat.isDepth, format.bytesPerPixel == pixelFormat.bytesPerPixel else {
                misuse("\(call): \(format) is not in the size class of the \(misuseDescription) (a colour format of "
                    + "\(pixelFormat.bytesPerPixel) bytes a texel\(pixelFormat.isDepth ? "; a depth format only as itself" : ""))")
            }
            guard usage.contains(.pixelFormatView) else {
                misuse("\(call): the \(misuseDescription) was made without .pixelFormatView usage, which a view of "
                    + "another format (\(format)) needs")
            }
        }
        guard !levels.isEmpty, levels.lowerBound >= 0, levels.upperBound <= mipmapLevelCount else {
            misuse("\(call): levels \(levels) are empty or outside the \(misuseDescription)'s 0..<\(mipmapLevelCount)")
        }
        guard !slices.isEmpty, slices.lowerBound >= 0, slices.upperBound <= spec.layerCount else {
            misuse("\(call): slices \(slices) are empty or outside the \(misuseDescription)'s 0..<\(spec.layerCount)")
        }
        switch type {
        case .type2D where slices.count != 1:
            misuse("\(call): a .type2D view shows one slice; slices \(slices) hold \(slices.count)")
        case .typeCube:
            let root = imageTexture.spec
            let cubeCompatible = root.textureType == .typeCube
                || (root.textureType == .type2DArray && root.width == root.height && root.arrayLength >= 6)
            guard cubeCompatible, slices.count % 6 == 0 else {
                misuse("\(call): a .typeCube view needs whole cubes (slices in sixes; \(slices) holds \(slices.count)) "
                    + "of a cube texture or a square 2D array of at least six slices")
            }
        default:
            break
        }
        if sampleCount > 1, type != .type2D {
            misuse("\(call): a view of the multisampled \(misuseDescription) must be .type2D")
        }
    }
}
