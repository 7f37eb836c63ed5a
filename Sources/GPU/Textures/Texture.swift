import Logging
import SwiftGPUSupport

/// An image resource, Metal's `MTLTexture`.
///
/// `@unchecked Sendable`: `lastWriter` is guarded by `lock`, the memory and purgeable state
/// and the label are in `LockedValue`s; everything else is immutable.
public final class Texture: @unchecked Sendable {
    let memory: LockedValue<PurgeableMemory<ImageAllocation>>
    /// Whether the memory can be exported (a shared texture), fixed when it was made.
    let isExportable: Bool
    /// Whether the image is a swapchain's (a drawable's texture).
    let isDrawable: Bool
    /// The device that made it.
    public let device: Device
    /// What it was made from, copied from the descriptor when it was made (a view's: its
    /// own format, type, levels and slices).
    let spec: TextureSpec
    /// For a texture view, the texture it was made from, Metal's `parent`; nil otherwise.
    public let parent: Texture?
    /// For a texture view, its first level in ``parent``, Metal's `parentRelativeLevel`.
    public let parentRelativeLevel: Int
    /// For a texture view, its first slice in ``parent``, Metal's `parentRelativeSlice`.
    public let parentRelativeSlice: Int
    /// For a texture view, the texture whose image it shows (the first that is no view):
    /// hazards and the last writer are tracked on it.
    private let imageParent: Texture?
    private let lock = ConditionLock(rank: .leaf("Texture.lock"))
    /// The last committed, unfinished command buffer that writes the texture: set by its
    /// commit, cleared when it finishes (a strong reference only while it runs, and no
    /// weak one, which would keep the buffer from being recycled).
    private var lastWriter: CommandBuffer?
    /// How many uncommitted command buffers render into the texture (guarded by `lock`).
    private var renderers = 0
    /// A drawable's present asked for while buffers rendered into its texture (guarded by
    /// `lock`): made by the last of them to commit.
    private var deferredPresent: DeferredPresent?

    /// Where the texture sits in its heap; nil for a texture of its own (and for a view).
    let placement: HeapPlacement?
    /// What the hazard record names the texture's accesses by: the texture (a view's: its
    /// image's texture), or its tracked heap (whose resources may alias); nil when untracked.
    let hazardID: ObjectIdentifier?

    init(device: Device, spec: TextureSpec, backing: ImageAllocation,
         viewOf parent: (texture: Texture, level: Int, slice: Int)? = nil, placement: HeapPlacement? = nil) {
        self.device = device
        self.spec = spec
        self.parent = parent?.texture
        parentRelativeLevel = parent?.level ?? 0
        parentRelativeSlice = parent?.slice ?? 0
        imageParent = parent?.texture.imageTexture
        memory = LockedValue(PurgeableMemory(backing: backing), rank: .leaf("Texture.memory"))
        isExportable = backing.isExportable
        isDrawable = backing.isPresentable
        self.placement = placement
        // The memory lock lives as long as the texture: its identity is the texture's.
        hazardID = if let imageParent { imageParent.hazardID } else if spec.hazardTrackingMode == .untracked { nil } else {
            placement.map { ObjectIdentifier($0.heap) } ?? ObjectIdentifier(memory)
        }
    }

    /// Whether SwiftGPU orders the GPU's accesses to the texture: `.tracked` or
    /// `.untracked` (a heap's resources take the heap's mode; a view its texture's), Metal's
    /// `hazardTrackingMode`.
    public var hazardTrackingMode: HazardTrackingMode { spec.hazardTrackingMode }
    /// The heap the texture was made from, Metal's `heap`; nil otherwise.
    public var heap: Heap? { placement?.heap }
    /// The texture's offset in its heap's memory, Metal's `heapOffset` (0 outside a heap).
    public var heapOffset: Int { placement?.offset ?? 0 }
    /// The bytes of memory the texture takes, Metal's `allocatedSize`: in a heap, the size
    /// its placement needs (`Device.heapTextureSizeAndAlign(descriptor:)`); 0 for a view,
    /// which shares its texture's, and for a drawable's texture.
    public var allocatedSize: Int { placement?.size ?? memory.withLock { $0.backing?.allocationSize ?? 0 } }

    /// Lets a heap hand the texture's memory to later resources, Metal's `makeAliasable()`:
    /// the texture stays usable, and the app orders its last use before the new resources'
    /// first. Does nothing for a texture that is not in an automatic heap.
    public func makeAliasable() { placement?.makeAliasable() }

    /// Whether ``makeAliasable()`` let the heap reuse the texture's memory, Metal's
    /// `isAliasable()`.
    public func isAliasable() -> Bool { placement?.isAliasable ?? false }

    /// A name for debugging, Metal's `label`: misuse messages name the texture by it.
    public var label: String? {
        get { labelStorage.withLock { $0 } }
        set { labelStorage.withLock { $0 = newValue } }
    }
    private let labelStorage = LockedValue<String?>(nil, rank: .leaf("Texture.label"))

    /// The image now, for encoding by `call`: an encoder retains it
    /// (`retainBacking(in:call:)`), so that discarding the contents frees it only after the
    /// GPU is done with it. Stops, naming the call and the texture, once the contents are
    /// discarded.
    func backing(_ call: StaticString = #function) -> ImageAllocation { currentBacking(call) }

    /// The texture in misuse messages: `texture 'label' (64×64 rgba8Unorm)`.
    var misuseDescription: String {
        "texture\(label.map { " '\($0)'" } ?? "") (\(spec.width)×\(spec.height) \(spec.pixelFormat))"
    }

    /// The image now, kept alive with the texture by `context`'s command buffer until it
    /// completes. Rebinding the texture bound last uses the image read then, already
    /// retained, with no lock (as buffers do, decision 0062); any other texture takes one
    /// lock and two appends into reserved capacity: no allocation per draw.
    func retainBacking(in context: CommandRecorder, call: StaticString) -> ImageAllocation {
        if let last = context.encoding.lastTexture, last.texture == ObjectIdentifier(self) {
            // Both stay in `retained` until the command buffer completes, so the identifier
            // cannot name another texture.
            return last.image.takeUnretainedValue()
        }
        let image = backing(call)
        context.encoding.retained.append(self)
        context.encoding.retained.append(image)
        context.encoding.lastTexture = (ObjectIdentifier(self), Unmanaged.passUnretained(image))
        return image
    }

    /// A descriptor of the texture: a new one on each call, as changing it changes nothing.
    public var descriptor: TextureDescriptor { TextureDescriptor(spec) }
    /// The texel format.
    public var pixelFormat: PixelFormat { spec.pixelFormat }
    /// Width of level 0.
    public var width: Int { spec.width }
    /// Height of level 0.
    public var height: Int { spec.height }
    /// Mipmap levels.
    public var mipmapLevelCount: Int { spec.mipmapLevelCount }
    /// Slices (of a 2D array).
    public var arrayLength: Int { spec.arrayLength }
    /// Samples per texel.
    public var sampleCount: Int { spec.sampleCount }
    /// 2D, 2D array or cube.
    public var textureType: TextureType { spec.textureType }
    /// Declared uses.
    public var usage: TextureUsage { spec.usage }

    /// The size of mipmap `level`.
    public func size(ofLevel level: Int) -> Size {
        Size(width: max(width >> level, 1), height: max(height >> level, 1))
    }

    /// Records that `commandBuffer`, being committed, writes this texture, so `getBytes`
    /// waits for it.
    func noteCommittedWriter(_ commandBuffer: CommandBuffer) {
        lock.withLock { lastWriter = commandBuffer }
    }

    /// An uncommitted command buffer began rendering into the texture.
    func noteRenderer() { lock.withLock { renderers += 1 } }

    /// Keeps `present` of this texture's drawable until the buffers rendering into it are
    /// committed; false (the present goes ahead) when none is.
    func deferPresent(_ present: DeferredPresent) -> Bool {
        lock.withLock {
            guard renderers > 0 else { return false }
            deferredPresent = present
            return true
        }
    }

    /// The deferred present, for the last uncommitted renderer to make.
    func takeDeferredPresent() -> DeferredPresent? {
        lock.withLock { renderers == 1 ? deferredPresent.take() : nil }
    }

    /// A renderer was committed or dropped: the deferred present to make now, when it was
    /// the last and did not make it.
    func rendererLeft() -> DeferredPresent? {
        lock.withLock {
            renderers -= 1
            return renderers == 0 ? deferredPresent.take() : nil
        }
    }

    /// The texture whose image this is: the parent of a view, else itself. Hazard records
    /// and the last writer name it, so that a view and its texture share them.
    var imageTexture: Texture { imageParent ?? self }

    /// The committed, unfinished command buffer that wrote the texture (or, for a view, its
    /// parent) last, if any.
    var committedWriter: CommandBuffer? {
        if let imageParent { return imageParent.committedWriter }
        return lock.withLock { lastWriter }
    }

    /// Forgets `commandBuffer`, which has finished, unless a later writer replaced it.
    func forgetWriter(_ commandBuffer: CommandBuffer) {
        lock.withLock { if lastWriter === commandBuffer { lastWriter = nil } }
    }

    /// Copies texels from memory into `region` of `mipmapLevel` (and `slice`). Returns
    /// when the texels are in the texture. Like Metal's, it does not wait for GPU work that
    /// uses the texture, and it does not throw: SwiftGPU copies through a staging buffer
    /// on the GPU, and if that fails (memory ran out, the device was lost) the texture is
    /// left as it was and the failure is logged (label `SwiftGPU`).
    public func replace(region: Region, mipmapLevel: Int, slice: Int = 0, withBytes bytes: UnsafeRawPointer,
                        bytesPerRow: Int) {
        let call = #function
        checkHasContents(call)
        checkRegion(region, level: mipmapLevel, slice: slice, bytesPerRow: bytesPerRow, call: call)
        let length = checkedProduct(bytesPerRow, region.size.height, call: call, what: "bytesPerRow × height")
        do {
            let staging = try device.makeBuffer(length: length)
            staging.contents().copyMemory(from: bytes, byteCount: extent(of: region, bytesPerRow: bytesPerRow))
            try device.runInternally { (commandBuffer) throws(GPUError) in
                let blit = try commandBuffer.makeBlitCommandEncoder()
                blit.copy(from: staging, sourceOffset: 0, sourceBytesPerRow: bytesPerRow, sourceSize: region.size,
                          to: self, destinationSlice: slice, destinationLevel: mipmapLevel, destinationOrigin: region.origin)
                blit.endEncoding()
            }
        } catch {
            Self.logger.error("\(call) failed, the texture is unchanged: \(error)")
        }
    }

    /// Copies texels of `region` of `mipmapLevel` (and `slice`) into memory, after waiting
    /// for the last committed command buffer that wrote the texture. Like Metal's, it does
    /// not throw: if the GPU copy through a staging buffer fails (memory ran out, the
    /// device was lost), `bytes` is left as it was and the failure is logged (label
    /// `SwiftGPU`).
    public func getBytes(_ bytes: UnsafeMutableRawPointer, bytesPerRow: Int, from region: Region, mipmapLevel: Int,
                         slice: Int = 0) {
        let call = #function
        checkHasContents(call)
        checkRegion(region, level: mipmapLevel, slice: slice, bytesPerRow: bytesPerRow, call: call)
        let length = checkedProduct(bytesPerRow, region.size.height, call: call, what: "bytesPerRow × height")
        committedWriter?.waitUntilCompleted()
        do {
            let staging = try device.makeBuffer(length: length)
            try device.runInternally { (commandBuffer) throws(GPUError) in
                let blit = try commandBuffer.makeBlitCommandEncoder()
                blit.copy(from: self, sourceSlice: slice, sourceLevel: mipmapLevel, sourceOrigin: region.origin,
                          sourceSize: region.size, to: staging, destinationOffset: 0, destinationBytesPerRow: bytesPerRow)
                blit.endEncoding()
            }
            bytes.copyMemory(from: staging.contents(), byteCount: extent(of: region, bytesPerRow: bytesPerRow))
        } catch {
            Self.logger.error("\(call) failed, the bytes are unchanged: \(error)")
        }
    }

    private static let logger = Logger(label: "SwiftGPU")

    /// The bytes the caller's memory holds for `region` at `bytesPerRow`, as Metal counts
    /// them: whole rows but the last, which ends with its last texel.
    private func extent(of region: Region, bytesPerRow: Int) -> Int {
        (region.size.height - 1) * bytesPerRow + region.size.width * pixelFormat.bytesPerPixel
    }

    /// Stops unless `region` lies in the level (a 2D region: depth 1 at z 0) and the row
    /// pitch holds a row. The comparisons are written so that no value, however large,
    /// overflows.
    func checkRegion(_ region: Region, level: Int, slice: Int, bytesPerRow: Int, call: String) {
        guard (0..<mipmapLevelCount).contains(level) else {
            misuse("\(call): mipmap level \(level) is outside 0..<\(mipmapLevelCount) of the \(misuseDescription)")
        }
        guard (0..<spec.layerCount).contains(slice) else {
            misuse("\(call): slice \(slice) is outside 0..<\(spec.layerCount) of the \(misuseDescription)")
        }
        let levelSize = size(ofLevel: level)
        guard region.origin.x >= 0, region.origin.y >= 0, region.size.width > 0, region.size.height > 0,
              region.origin.x <= levelSize.width, region.size.width <= levelSize.width - region.origin.x,
              region.origin.y <= levelSize.height, region.size.height <= levelSize.height - region.origin.y,
              region.origin.z == 0, region.size.depth == 1
        else {
            misuse("\(call): region \(region.origin.x),\(region.origin.y) \(region.size) is outside level \(level)'s \(levelSize) of the \(misuseDescription)")
        }
        let bytesPerPixel = pixelFormat.bytesPerPixel
        guard bytesPerRow >= region.size.width * bytesPerPixel, bytesPerRow % bytesPerPixel == 0 else {
            misuse("\(call): bytesPerRow \(bytesPerRow) is not a multiple of \(bytesPerPixel) holding \(region.size.width) texels of the \(misuseDescription)")
        }
    }
}

extension Device {
    /// Makes a texture; its contents are undefined until written. A descriptor that breaks
    /// the API's rules (a size or count below 1, an array length on a texture that is not
    /// an array, too many mipmap levels for the size) stops with a misuse message; one this
    /// device cannot make (a format and usage pair it lacks, a size or slice count over its
    /// limits) throws ``GPUError/unsupportedTexture(_:)``.
    public func makeTexture(descriptor: TextureDescriptor) throws(GPUError) -> Texture {
        try makeTexture(descriptor: descriptor, call: #function, shared: false)
    }

    /// A texture as `makeTexture(descriptor:)`, or with memory another API can import
    /// (`shared`).
    func makeTexture(descriptor: TextureDescriptor, call: String, shared: Bool) throws(GPUError) -> Texture {
        var descriptor = descriptor.spec
        descriptor.hazardTrackingMode = descriptor.hazardTrackingMode.resolved(default: .tracked)
        try checkTextureDescriptor(descriptor, call: call)
        let backing: ImageAllocation
        do {
            backing = try ImageAllocation(device: backend, descriptor: descriptor, exportable: shared)
        } catch {
            throw .vulkan(error)
        }
        try initializeLayout(of: backing)
        return Texture(device: self, spec: descriptor, backing: backing)
    }

    /// Stops for a descriptor that breaks the API's rules; throws for one this device
    /// cannot make (see `makeTexture(descriptor:)`).
    func checkTextureDescriptor(_ descriptor: TextureSpec, call: String) throws(GPUError) {
        guard descriptor.width > 0, descriptor.height > 0, descriptor.arrayLength > 0 else {
            misuse("\(call): width, height and arrayLength must be above 0, got \(descriptor.width)×\(descriptor.height) "
                + "with arrayLength \(descriptor.arrayLength)")
        }
        guard descriptor.textureType != .type2D || descriptor.arrayLength == 1 else {
            misuse("\(call): arrayLength \(descriptor.arrayLength) on a .type2D texture; use .type2DArray")
        }
        let maxLevels = Int.bitWidth - max(descriptor.width, descriptor.height).leadingZeroBitCount
        guard (1...maxLevels).contains(descriptor.mipmapLevelCount) else {
            misuse("\(call): mipmapLevelCount \(descriptor.mipmapLevelCount) is outside 1...\(maxLevels)")
        }
        guard descriptor.sampleCount == 1 || (descriptor.sampleCount == 4 && descriptor.mipmapLevelCount == 1) else {
            misuse("\(call): sampleCount must be 1, or 4 with one mipmap level")
        }
        guard descriptor.textureType != .typeCube || descriptor.width == descriptor.height else {
            misuse("\(call): cube textures must be square")
        }
        try checkSupported(descriptor, call: call)
    }

    /// Moves a new image from undefined to its resting layout, and waits for it.
    func initializeLayout(of image: ImageAllocation) throws(GPUError) {
        try runInternally { (commandBuffer) throws(GPUError) in
            let blit = try commandBuffer.makeBlitCommandEncoder()
            blit.initializeLayout(of: image)
            blit.endEncoding()
        }
    }

    /// Throws unless this device makes textures of `descriptor`'s format, type and usage
    /// at its size, slice count, level count and sample count.
    private func checkSupported(_ descriptor: TextureSpec, call: String) throws(GPUError) {
        // Only an error names the texture: describing its enumerations costs more than the checks.
        var what: String { "\(descriptor.pixelFormat) \(descriptor.textureType) texture with usage \(descriptor.usage)" }
        guard let capabilities = backend.physical.imageCapabilities(for: descriptor) else {
            throw .unsupportedTexture("\(call): this device cannot make a \(what)")
        }
        guard descriptor.width <= capabilities.maxWidth, descriptor.height <= capabilities.maxHeight else {
            throw .unsupportedTexture("\(call): \(descriptor.width)×\(descriptor.height) is over this device's maximum of "
                + "\(capabilities.maxWidth)×\(capabilities.maxHeight) for a \(what)")
        }
        let layers = descriptor.textureType == .typeCube ? capabilities.maxLayerCount / 6 : capabilities.maxLayerCount
        guard descriptor.arrayLength <= layers else {
            throw .unsupportedTexture("\(call): arrayLength \(descriptor.arrayLength) is over this device's maximum of "
                + "\(layers) for a \(what)")
        }
        guard descriptor.mipmapLevelCount <= capabilities.maxMipmapLevelCount else {
            throw .unsupportedTexture("\(call): mipmapLevelCount \(descriptor.mipmapLevelCount) is over this device's maximum "
                + "of \(capabilities.maxMipmapLevelCount) for a \(what)")
        }
        guard capabilities.sampleCounts.contains(descriptor.sampleCount) else {
            throw .unsupportedTexture("\(call): sampleCount \(descriptor.sampleCount) is not supported for a \(what) "
                + "(supported: \(capabilities.sampleCounts.sorted().map(String.init).joined(separator: ", ")))")
        }
    }
}
