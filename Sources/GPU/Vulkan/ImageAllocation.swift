import FramePacing
import CVulkan
import SwiftGPUSPIRV
import SwiftGPUSupport

/// A `VkImage` with its own device-local memory and a view of every level and layer.
///
/// Between command buffers an image rests in one layout chosen from its usage; a command
/// buffer moves it to the layout each use needs (whole image at once) and back to rest
/// before it ends, so command buffers never depend on the order they were encoded in.
///
/// A swapchain's image is borrowed: it has no memory of its own, the swapchain destroys
/// it, and it rests in `PRESENT_SRC_KHR`. It enters the first command buffer that uses it
/// after each acquire as `UNDEFINED` (its contents are undefined then, as a Metal
/// drawable's are) and in its resting layout after that.
///
/// `@unchecked Sendable`: `attachmentViews` and `entersUndefined` are guarded by
/// `viewLock`; the rest is immutable.
final class ImageAllocation: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkImage
    /// Nil for a swapchain's image, a view and an image in a heap's memory.
    let memory: VkDeviceMemory?
    /// The heap whose memory the image is bound in, kept alive with it.
    let heap: HeapAllocation?
    /// The size of `memory` in bytes (0 for a swapchain's image).
    let allocationSize: Int
    /// Whether `memory` can be exported as a file descriptor.
    let isExportable: Bool
    let view: VkImageView
    let descriptor: TextureSpec
    /// Whether the image belongs to a swapchain.
    let isPresentable: Bool
    /// For a texture view, the allocation that owns the image: the view keeps it alive, and
    /// layouts are tracked on it. Nil for an image of its own.
    let base: ImageAllocation?
    /// For a texture view, its first level and layer in the image (0 otherwise): the
    /// view's level and layer numbers start there.
    let levelOffset: Int, layerOffset: Int
    /// What a shader may do through a storage image declared without a format to this
    /// image's view (its format's features): empty unless it has `.shaderWrite` usage.
    let storageAccessWithoutFormat: SPIRVFormatlessAccess
    private let viewLock = ConditionLock(rank: .imageViews)
    private var attachmentViews: [Int: VkImageView] = [:]
    private var entersUndefined = false

    /// A new image; with `exportable` its memory can be exported as an opaque file
    /// descriptor (`VK_KHR_external_memory_fd`) for another API to import. With `placement`
    /// it has no memory of its own: it is bound at the offset in the heap's memory (an
    /// offset its requirements align, checked by the caller), which it keeps alive.
    init(device: DeviceBackend, descriptor: TextureSpec, exportable: Bool = false,
         placement: (heap: HeapAllocation, offset: Int)? = nil) throws(VulkanError) {
        self.device = device
        self.descriptor = descriptor
        let vk = device.handle
        var info = Self.createInfo(descriptor)
        var external = VkExternalMemoryImageCreateInfo()
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO
        external.handleTypes = VkExternalMemoryHandleTypeFlags(VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT.rawValue)
        var image: VkImage?
        try vkCall(.createImage, device.unretainedFaults) {
            withUnsafePointer(to: &external) { external in
                if exportable { info.pNext = UnsafeRawPointer(external) }
                return vkCreateImage(vk, &info, nil, &image)
            }
        }
        guard let image else { throw VulkanError(code: .initializationFailed, callSite: "vkCreateImage") }

        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(vk, image, &requirements)
        let deviceLocal = VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = device.physical.memoryType(
            typeBits: requirements.memoryTypeBits, required: 0, preferred: deviceLocal) ?? 0
        var memory: VkDeviceMemory?
        var view: VkImageView?
        do throws(VulkanError) {
            var export = VkExportMemoryAllocateInfo()
            export.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO
            export.handleTypes = external.handleTypes
            if let placement {
                guard placement.heap.accepts(typeBits: requirements.memoryTypeBits) else {
                    throw VulkanError(code: .formatNotSupported, callSite: "vkBindImageMemory")
                }
                try vkCall(.bindImageMemory, device.unretainedFaults) {
                    vkBindImageMemory(vk, image, placement.heap.memory, VkDeviceSize(placement.offset))
                }
            } else {
                try vkCall(.allocateMemory, device.unretainedFaults) {
                    withUnsafePointer(to: &export) { export in
                        if exportable { allocation.pNext = UnsafeRawPointer(export) }
                        return vkAllocateMemory(vk, &allocation, nil, &memory)
                    }
                }
                try vkCall(.bindImageMemory, device.unretainedFaults) { vkBindImageMemory(vk, image, memory, 0) }
            }
            var viewInfo = VkImageViewCreateInfo()
            viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
            viewInfo.image = image
            viewInfo.viewType = descriptor.vkViewType
            viewInfo.format = info.format
            viewInfo.subresourceRange = VkImageSubresourceRange(
                aspectMask: descriptor.pixelFormat.isDepth
                    ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT.rawValue) : descriptor.pixelFormat.vkAspects,
                baseMipLevel: 0, levelCount: info.mipLevels, baseArrayLayer: 0, layerCount: info.arrayLayers)
            try vkCall(.createImageView, device.unretainedFaults) { vkCreateImageView(vk, &viewInfo, nil, &view) }
        } catch {
            if let memory { vkFreeMemory(vk, memory, nil) }
            vkDestroyImage(vk, image, nil)
            throw error
        }
        handle = image
        allocationSize = Int(requirements.size)
        isExportable = exportable
        self.memory = memory
        heap = placement?.heap
        self.view = view!
        isPresentable = false
        base = nil
        levelOffset = 0
        layerOffset = 0
        storageAccessWithoutFormat = descriptor.usage.contains(.shaderWrite)
            ? device.physical.storageAccessWithoutFormat(descriptor.pixelFormat.vkFormat) : []
    }

    /// The create info of an image of `descriptor`.
    static func createInfo(_ descriptor: TextureSpec) -> VkImageCreateInfo {
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.flags = descriptor.vkCreateFlags
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = descriptor.pixelFormat.vkFormat
        info.extent = VkExtent3D(width: UInt32(descriptor.width), height: UInt32(descriptor.height), depth: 1)
        info.mipLevels = UInt32(descriptor.mipmapLevelCount)
        info.arrayLayers = UInt32(descriptor.layerCount)
        info.samples = VkSampleCountFlagBits(UInt32(descriptor.sampleCount))
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = descriptor.vkUsage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        return info
    }

    /// Wraps image `handle` of a swapchain, whose views this object owns.
    init(device: DeviceBackend, swapchainImage handle: VkImage, descriptor: TextureSpec) throws(VulkanError) {
        self.device = device
        self.descriptor = descriptor
        self.handle = handle
        memory = nil
        heap = nil
        allocationSize = 0
        isExportable = false
        isPresentable = true
        base = nil
        levelOffset = 0
        layerOffset = 0
        storageAccessWithoutFormat = []
        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = handle
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = descriptor.pixelFormat.vkFormat
        viewInfo.subresourceRange = VkImageSubresourceRange(aspectMask: descriptor.pixelFormat.vkAspects, baseMipLevel: 0,
                                                            levelCount: 1, baseArrayLayer: 0, layerCount: 1)
        var view: VkImageView?
        let vk = device.handle
        try vkCall(.createImageView, device.unretainedFaults) { vkCreateImageView(vk, &viewInfo, nil, &view) }
        self.view = view!
    }

    /// A texture view of `image` (itself not a view): `descriptor`'s format, type, levels
    /// and layers, from level `baseLevel` and layer `baseLayer` of the image.
    init(viewOf image: ImageAllocation, descriptor: TextureSpec, baseLevel: Int, baseLayer: Int) throws(VulkanError) {
        device = image.device
        self.descriptor = descriptor
        handle = image.handle
        memory = nil
        heap = nil
        allocationSize = 0
        isExportable = false
        isPresentable = false
        base = image
        levelOffset = baseLevel
        layerOffset = baseLayer
        storageAccessWithoutFormat = image.descriptor.usage.contains(.shaderWrite)
            ? image.device.physical.storageAccessWithoutFormat(descriptor.pixelFormat.vkFormat) : []
        var usageInfo = VkImageViewUsageCreateInfo()
        usageInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO
        usageInfo.usage = device.physical.viewUsage(image.descriptor.vkUsage, format: descriptor.pixelFormat.vkFormat)
        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = handle
        viewInfo.viewType = descriptor.vkViewType
        viewInfo.format = descriptor.pixelFormat.vkFormat
        viewInfo.subresourceRange = VkImageSubresourceRange(
            aspectMask: descriptor.pixelFormat.isDepth
                ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT.rawValue) : descriptor.pixelFormat.vkAspects,
            baseMipLevel: UInt32(baseLevel), levelCount: UInt32(descriptor.mipmapLevelCount),
            baseArrayLayer: UInt32(baseLayer), layerCount: UInt32(descriptor.layerCount))
        var view: VkImageView?
        let vk = device.handle
        try vkCall(.createImageView, device.unretainedFaults) {
            withUnsafePointer(to: &usageInfo) { usage in
                viewInfo.pNext = UnsafeRawPointer(usage)
                return vkCreateImageView(vk, &viewInfo, nil, &view)
            }
        }
        self.view = view!
    }

    /// The allocation whose image this is: `base` for a texture view, else itself. Layouts
    /// are tracked, and barriers recorded, on it.
    var imageOwner: ImageAllocation { base ?? self }

    deinit {
        let vk = device.handle
        for view in attachmentViews.values { vkDestroyImageView(vk, view, nil) }
        vkDestroyImageView(vk, view, nil)
        if heap != nil { vkDestroyImage(vk, handle, nil) }
        guard let memory else { return }
        vkDestroyImage(vk, handle, nil)
        vkFreeMemory(vk, memory, nil)
    }

    /// Marks a swapchain image just acquired: its next command buffer enters it as `UNDEFINED`.
    func noteAcquired() { viewLock.withLock { entersUndefined = true } }

    /// The layout the image is in when a command buffer first uses it: the resting layout,
    /// or `UNDEFINED` for a swapchain image's first use after an acquire (which this ends).
    func takeEntryLayout() -> VkImageLayout {
        guard isPresentable else { return restingLayout }
        return viewLock.withLock {
            defer { entersUndefined = false }
            return entersUndefined ? VK_IMAGE_LAYOUT_UNDEFINED : restingLayout
        }
    }

    /// A 2D view of one level and layer, for rendering into; made once, kept with the image.
    func attachmentView(level: Int, layer: Int) throws(VulkanError) -> VkImageView {
        let key = level << 16 | layer
        return try viewLock.withLock { () throws(VulkanError) -> VkImageView in
            if let view = attachmentViews[key] { return view }
            var info = VkImageViewCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
            info.image = handle
            info.viewType = VK_IMAGE_VIEW_TYPE_2D
            info.format = descriptor.pixelFormat.vkFormat
            info.subresourceRange = VkImageSubresourceRange(aspectMask: descriptor.pixelFormat.vkAspects,
                                                            baseMipLevel: UInt32(levelOffset + level), levelCount: 1,
                                                            baseArrayLayer: UInt32(layerOffset + layer), layerCount: 1)
            var view: VkImageView?
            let vk = device.handle
            try vkCall(.createImageView, device.unretainedFaults) { vkCreateImageView(vk, &info, nil, &view) }
            attachmentViews[key] = view!
            return view!
        }
    }

    /// The layout the image takes as a render-pass attachment.
    var attachmentLayout: VkImageLayout {
        guard descriptor.pixelFormat.isDepth else { return VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL }
        return descriptor.pixelFormat.hasStencil ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                                 : VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL
    }

    /// The layout the image rests in between command buffers (a view's: its image's).
    var restingLayout: VkImageLayout {
        if let base { return base.restingLayout }
        if isPresentable { return VK_IMAGE_LAYOUT_PRESENT_SRC_KHR }
        let usage = descriptor.usage
        if usage.contains(.shaderWrite) { return VK_IMAGE_LAYOUT_GENERAL }
        if usage.contains(.shaderRead) { return VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL }
        if usage.contains(.renderTarget) {
            return descriptor.pixelFormat.isDepth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                                  : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        }
        return VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
    }

    /// Every level and layer, all aspects (a view's: those it shows).
    var wholeRange: VkImageSubresourceRange {
        VkImageSubresourceRange(aspectMask: descriptor.pixelFormat.vkAspects, baseMipLevel: UInt32(levelOffset),
                                levelCount: UInt32(descriptor.mipmapLevelCount), baseArrayLayer: UInt32(layerOffset),
                                layerCount: UInt32(descriptor.layerCount))
    }
}

extension CommandRecorder {
    /// Moves a new image from `UNDEFINED` to its resting layout.
    func initializeLayout(_ image: ImageAllocation) {
        layoutBarrier(image, from: VK_IMAGE_LAYOUT_UNDEFINED, to: image.restingLayout, range: image.wholeRange)
    }

    /// Moves `image` (all of it; for a texture view, all of its image) to `layout` for the
    /// next command, if it is not there.
    func transition(_ image: ImageAllocation, to layout: VkImageLayout) {
        let image = image.imageOwner
        if let index = imageLayouts.firstIndex(where: { $0.image === image }) {
            let current = imageLayouts[index].layout
            guard current != layout else { return }
            layoutBarrier(image, from: current, to: layout, range: image.wholeRange)
            imageLayouts[index].layout = layout
        } else {
            let entry = image.takeEntryLayout()
            guard entry != layout else { return }
            layoutBarrier(image, from: entry, to: layout, range: image.wholeRange)
            imageLayouts.append((image, layout))
        }
    }

    /// Returns every image this command buffer moved to its resting layout.
    @inline(__always)
    func restoreRestingLayouts() {
        guard !imageLayouts.isEmpty else { return }   // a compute-only buffer: no call, no walk
        restoreMovedLayouts()
    }

    /// `restoreRestingLayouts()` for a buffer that moved images.
    private func restoreMovedLayouts() {
        for (image, layout) in imageLayouts where layout != image.restingLayout {
            layoutBarrier(image, from: layout, to: image.restingLayout, range: image.wholeRange)
        }
        imageLayouts.removeAll(keepingCapacity: true)
    }

    /// A layout change of `range` that also orders every earlier access before every later one.
    func layoutBarrier(_ image: ImageAllocation, from old: VkImageLayout, to new: VkImageLayout, range: VkImageSubresourceRange) {
        var barrier = VkImageMemoryBarrier2()
        barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
        barrier.srcStageMask = VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        barrier.srcAccessMask = old == VK_IMAGE_LAYOUT_UNDEFINED ? 0 : VkAccessFlags2(VK_ACCESS_2_MEMORY_WRITE_BIT)
        barrier.dstStageMask = VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        barrier.dstAccessMask = VkAccessFlags2(VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)
        barrier.oldLayout = old
        barrier.newLayout = new
        barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.image = image.handle
        barrier.subresourceRange = range
        withUnsafePointer(to: &barrier) { pointer in
            var info = VkDependencyInfo()
            info.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            info.imageMemoryBarrierCount = 1
            info.pImageMemoryBarriers = pointer
            vkCmdPipelineBarrier2(commandBuffer, &info)
        }
    }

    /// Copies between a buffer and one level (and layer) of an image.
    func copy(buffer: VkBuffer, offset: Int, bytesPerRow: Int, image: ImageAllocation, level: Int, layer: Int,
              origin: Origin, size: Size, toImage: Bool) {
        var region = VkBufferImageCopy()
        region.bufferOffset = UInt64(offset)
        region.bufferRowLength = UInt32(bytesPerRow / image.descriptor.pixelFormat.bytesPerPixel)
        region.bufferImageHeight = 0
        region.imageSubresource = VkImageSubresourceLayers(
            aspectMask: image.descriptor.pixelFormat.vkCopyAspect, mipLevel: UInt32(image.levelOffset + level),
            baseArrayLayer: UInt32(image.layerOffset + layer), layerCount: 1)
        region.imageOffset = VkOffset3D(x: Int32(origin.x), y: Int32(origin.y), z: 0)
        region.imageExtent = VkExtent3D(width: UInt32(size.width), height: UInt32(size.height), depth: 1)
        if toImage {
            transition(image, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
            vkCmdCopyBufferToImage(commandBuffer, buffer, image.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
        } else {
            transition(image, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
            vkCmdCopyImageToBuffer(commandBuffer, image.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region)
        }
    }

    /// Copies one whole level and layer between images of the same format and size.
    func copy(image source: ImageAllocation, level sourceLevel: Int, layer sourceLayer: Int,
              to destination: ImageAllocation, level destinationLevel: Int, layer destinationLayer: Int, size: Size) {
        var region = VkImageCopy()
        region.srcSubresource = VkImageSubresourceLayers(
            aspectMask: source.descriptor.pixelFormat.vkAspects, mipLevel: UInt32(source.levelOffset + sourceLevel),
            baseArrayLayer: UInt32(source.layerOffset + sourceLayer), layerCount: 1)
        region.dstSubresource = VkImageSubresourceLayers(
            aspectMask: destination.descriptor.pixelFormat.vkAspects,
            mipLevel: UInt32(destination.levelOffset + destinationLevel),
            baseArrayLayer: UInt32(destination.layerOffset + destinationLayer), layerCount: 1)
        region.extent = VkExtent3D(width: UInt32(size.width), height: UInt32(size.height), depth: 1)
        transition(source, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
        transition(destination, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
        vkCmdCopyImage(commandBuffer, source.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.handle,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
    }

    /// Fills every level after the first by a linear downsample of the level above. Each
    /// source level moves to TRANSFER_SRC as it is read; the whole image ends there, or, for
    /// a texture view, back in TRANSFER_DST with the levels it does not show.
    func generateMipmaps(_ image: ImageAllocation) {
        let d = image.descriptor, owner = image.imageOwner
        let firstLevel = image.levelOffset, layers = (first: UInt32(image.layerOffset), count: UInt32(d.layerCount))
        transition(owner, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
        func extent(_ level: Int) -> VkOffset3D {
            VkOffset3D(x: Int32(max(d.width >> level, 1)), y: Int32(max(d.height >> level, 1)), z: 1)
        }
        func levelRange(_ level: Int) -> VkImageSubresourceRange {
            VkImageSubresourceRange(aspectMask: d.pixelFormat.vkAspects, baseMipLevel: UInt32(firstLevel + level), levelCount: 1,
                                    baseArrayLayer: layers.first, layerCount: layers.count)
        }
        func subresource(_ level: Int) -> VkImageSubresourceLayers {
            VkImageSubresourceLayers(aspectMask: d.pixelFormat.vkAspects, mipLevel: UInt32(firstLevel + level),
                                     baseArrayLayer: layers.first, layerCount: layers.count)
        }
        for level in 1..<d.mipmapLevelCount {
            layoutBarrier(owner, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                          range: levelRange(level - 1))
            var blit = VkImageBlit()
            blit.srcSubresource = subresource(level - 1)
            blit.dstSubresource = subresource(level)
            blit.srcOffsets = (VkOffset3D(x: 0, y: 0, z: 0), extent(level - 1))
            blit.dstOffsets = (VkOffset3D(x: 0, y: 0, z: 0), extent(level))
            vkCmdBlitImage(commandBuffer, owner.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, owner.handle,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR)
        }
        layoutBarrier(owner, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      range: levelRange(d.mipmapLevelCount - 1))
        // A view's levels rejoin the rest of the image, so that one layout holds for all of it.
        let layout = image.base == nil ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
        if image.base != nil {
            layoutBarrier(owner, from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to: layout, range: image.wholeRange)
        }
        if let index = imageLayouts.firstIndex(where: { $0.image === owner }) {
            imageLayouts[index].layout = layout
        }
    }
}
