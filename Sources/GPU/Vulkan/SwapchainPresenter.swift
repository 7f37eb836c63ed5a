import CVulkan
import FramePacing

/// A `VkSwapchainKHR` with its images, a binary present semaphore per image (signalled by
/// the submission that presents the image, waited on by `vkQueuePresentKHR`) and the fence
/// an acquire signals.
///
/// Acquires wait on the fence on the acquiring thread, so no acquire semaphore is left
/// signalled when a drawable is dropped unpresented: such an image stays acquired and is
/// handed out again. Present semaphores are per image, never per frame: an image is not
/// acquired again before its previous present has taken its semaphore.
///
/// `@unchecked Sendable`: every stored property is immutable; acquires are made by one
/// thread at a time (the layer's acquire lock) and presents under the device's queue lock.
final class SwapchainPresenter: @unchecked Sendable {
    let device: DeviceBackend
    let surface: PresentationSurface
    let handle: VkSwapchainKHR
    let images: [ImageAllocation]
    let presentSemaphores: [VkSemaphore]
    /// The images' format and size.
    let descriptor: TextureSpec
    /// The mode asked for, or its fallback where the surface does not offer it.
    let mode: PresentMode
    private let fence: VkFence

    /// The result of an acquire.
    enum Acquired {
        /// Image `index` is the caller's; `suboptimal` asks for a new swapchain soon.
        case image(index: Int, suboptimal: Bool)
        /// No image became free in time.
        case timedOut
    }

    /// A swapchain for `surface` in `format` with `count` images (clamped to what the
    /// surface allows) in `mode` or its fallback, sized as the window is, or as
    /// `requestedSize` where the surface leaves that to the swapchain. Replaces `old`, which
    /// is retired even when this fails. Nil when the window has zero size or the surface
    /// does not take `format`.
    static func make(surface: PresentationSurface, device: DeviceBackend, format: PixelFormat, requestedSize: (Int, Int),
                     count: Int, mode: PresentMode, old: SwapchainPresenter?) throws(VulkanError) -> SwapchainPresenter? {
        let capabilities = try surface.capabilities()
        var extent = capabilities.currentExtent
        if extent.width == .max {
            let (minimum, maximum) = (capabilities.minImageExtent, capabilities.maxImageExtent)
            extent = VkExtent2D(width: min(max(UInt32(requestedSize.0), minimum.width), maximum.width),
                                height: min(max(UInt32(requestedSize.1), minimum.height), maximum.height))
        }
        guard extent.width > 0, extent.height > 0 else { return nil }
        guard try surface.formats().contains(where: { $0.format == format.vkFormat }) else { return nil }
        let offered = Set(try surface.presentModes().compactMap(PresentMode.init))
        var imageCount = max(UInt32(count), capabilities.minImageCount)
        if capabilities.maxImageCount > 0 { imageCount = min(imageCount, capabilities.maxImageCount) }
        let descriptor = TextureSpec(pixelFormat: format, width: Int(extent.width), height: Int(extent.height),
                                           usage: .renderTarget)
        var alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
        if capabilities.supportedCompositeAlpha & alpha.rawValue == 0 {
            alpha = VkCompositeAlphaFlagBitsKHR(capabilities.supportedCompositeAlpha & (~capabilities.supportedCompositeAlpha + 1))
        }
        return try SwapchainPresenter(surface: surface, device: device, descriptor: descriptor, minImageCount: Int(imageCount),
                                   mode: mode.fallback(offered: offered),
                                   usage: descriptor.vkUsage & capabilities.supportedUsageFlags,
                                   transform: capabilities.currentTransform, compositeAlpha: alpha, old: old)
    }

    private init(surface: PresentationSurface, device: DeviceBackend, descriptor: TextureSpec, minImageCount: Int,
                 mode: PresentMode, usage: VkImageUsageFlags, transform: VkSurfaceTransformFlagBitsKHR,
                 compositeAlpha: VkCompositeAlphaFlagBitsKHR, old: SwapchainPresenter?) throws(VulkanError) {
        self.device = device
        self.surface = surface
        self.descriptor = descriptor
        self.mode = mode
        let vk = device.handle
        var info = VkSwapchainCreateInfoKHR()
        info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR
        info.surface = surface.handle
        info.minImageCount = UInt32(minImageCount)
        info.imageFormat = descriptor.pixelFormat.vkFormat
        info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR
        info.imageExtent = VkExtent2D(width: UInt32(descriptor.width), height: UInt32(descriptor.height))
        info.imageArrayLayers = 1
        info.imageUsage = usage
        info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.preTransform = transform
        info.compositeAlpha = compositeAlpha
        info.presentMode = mode.vkPresentMode
        info.clipped = VkBool32(VK_TRUE)
        info.oldSwapchain = old?.handle
        var swapchain: VkSwapchainKHR?
        try vkCall(.createSwapchain, device.unretainedFaults) { vkCreateSwapchainKHR(vk, &info, nil, &swapchain) }
        var made: [ImageAllocation] = []
        var semaphores: [VkSemaphore] = []
        var fence: VkFence?
        do throws(VulkanError) {
            var count: UInt32 = 0
            try vkCall(.getSwapchainImages, device.unretainedFaults) { vkGetSwapchainImagesKHR(vk, swapchain, &count, nil) }
            var handles = [VkImage?](repeating: nil, count: Int(count))
            try vkCall(.getSwapchainImages, device.unretainedFaults) { vkGetSwapchainImagesKHR(vk, swapchain, &count, &handles) }
            for image in handles.prefix(Int(count)) {
                made.append(try ImageAllocation(device: device, swapchainImage: image!, descriptor: descriptor))
                var semaphoreInfo = VkSemaphoreCreateInfo()
                semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
                var semaphore: VkSemaphore?
                try vkCall(.createSemaphore, device.unretainedFaults) { vkCreateSemaphore(vk, &semaphoreInfo, nil, &semaphore) }
                semaphores.append(semaphore!)
            }
            var fenceInfo = VkFenceCreateInfo()
            fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
            try vkCall(.createFence, device.unretainedFaults) { vkCreateFence(vk, &fenceInfo, nil, &fence) }
        } catch {
            made.removeAll()
            for semaphore in semaphores { vkDestroySemaphore(vk, semaphore, nil) }
            vkDestroySwapchainKHR(vk, swapchain, nil)
            throw error
        }
        handle = swapchain!
        images = made
        presentSemaphores = semaphores
        self.fence = fence!
    }

    /// Destroys the swapchain; the caller has made sure its presents are done (the queue
    /// is idle) and that no drawable of it is in use.
    deinit {
        let vk = device.handle
        vkDestroyFence(vk, fence, nil)
        for semaphore in presentSemaphores { vkDestroySemaphore(vk, semaphore, nil) }
        vkDestroySwapchainKHR(vk, handle, nil)
    }

    /// Acquires the next image, waiting up to `timeoutNanoseconds` for one to be free and
    /// for the presentation engine to be done with it. Throws `outOfDate` (and
    /// `surfaceLost`) for the caller to recreate the swapchain.
    func acquire(timeoutNanoseconds: UInt64) throws(VulkanError) -> Acquired {
        let vk = device.handle
        let (swapchain, fence) = (handle, fence)
        var index: UInt32 = 0
        let result = try vkCall(.acquireNextImage, device.unretainedFaults) {
            vkAcquireNextImageKHR(vk, swapchain, timeoutNanoseconds, nil, fence, &index)
        }
        if result == VK_TIMEOUT || result == VK_NOT_READY { return .timedOut }
        var fences: VkFence? = fence
        // The fence of a successful acquire is always signalled, if not yet: wait for it.
        try vkCall(.waitForFences, device.unretainedFaults) { vkWaitForFences(vk, 1, &fences, VkBool32(VK_TRUE), .max) }
        try vkCall(.resetFences, device.unretainedFaults) { vkResetFences(vk, 1, &fences) }
        return .image(index: Int(index), suboptimal: result == VK_SUBOPTIMAL_KHR)
    }

    /// Queues image `index` for presentation after its present semaphore, under the
    /// device's queue lock (the one VkQueue is shared with every submission). Returns
    /// whether the swapchain is suboptimal; throws `outOfDate` when the image was not
    /// shown. With `id`, the present carries it for `route`'s extension (`VkPresentIdKHR`
    /// for present waits, `VkPresentTimesInfoGOOGLE` for display timing).
    func present(index: Int, id: UInt64? = nil, route: PresentTimingRoute = .hostClock) throws(VulkanError) -> Bool {
        var swapchain: VkSwapchainKHR? = handle
        var semaphore: VkSemaphore? = presentSemaphores[index]
        var imageIndex = UInt32(index)
        // The present's ID, for the driver's timing report or present wait.
        var presentID = VkPresentIdKHR()
        presentID.sType = VK_STRUCTURE_TYPE_PRESENT_ID_KHR
        var idValue = id ?? 0
        var times = VkPresentTimesInfoGOOGLE()
        times.sType = VK_STRUCTURE_TYPE_PRESENT_TIMES_INFO_GOOGLE
        var time = VkPresentTimeGOOGLE(presentID: UInt32(truncatingIfNeeded: id ?? 0), desiredPresentTime: 0)
        let result = try vkCall(.queuePresent, device.unretainedFaults) {
            var info = VkPresentInfoKHR()
            info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR
            info.waitSemaphoreCount = 1
            info.swapchainCount = 1
            return withUnsafePointer(to: &semaphore) { semaphores in
                withUnsafePointer(to: &swapchain) { swapchains in
                    withUnsafePointer(to: &imageIndex) { indices in
                    withUnsafePointer(to: &idValue) { ids in
                    withUnsafePointer(to: &time) { timePointer in
                        info.pWaitSemaphores = semaphores
                        info.pSwapchains = swapchains
                        info.pImageIndices = indices
                        presentID.swapchainCount = 1
                        presentID.pPresentIds = ids
                        times.swapchainCount = 1
                        times.pTimes = timePointer
                        return withUnsafePointer(to: &presentID) { presentIDPointer in
                        withUnsafePointer(to: &times) { timesPointer in
                            switch (id, route) {
                            case (.some, .presentWait): info.pNext = UnsafeRawPointer(presentIDPointer)
                            case (.some, .displayTiming): info.pNext = UnsafeRawPointer(timesPointer)
                            default: break
                            }
                            return device.withQueue { queue in vkQueuePresentKHR(queue, &info) }
                        }
                        }
                    }
                    }
                    }
                }
            }
        }
        return result == VK_SUBOPTIMAL_KHR
    }
}

extension DeviceBackend {
    /// Blocks until the device's queue has finished everything submitted and presented.
    func waitForQueueIdle() throws(VulkanError) {
        try vkCall(.queueWaitIdle, unretainedFaults) { withQueue { queue in vkQueueWaitIdle(queue) } }
    }
}

extension CommandRecorder {
    /// Ends this command buffer's use of image `index` of `swapchain` in the present layout
    /// and signals the image's present semaphore when the buffer completes.
    func preparePresent(_ swapchain: SwapchainPresenter, index: Int) {
        transition(swapchain.images[index], to: VK_IMAGE_LAYOUT_PRESENT_SRC_KHR)
        presentSignals.append(swapchain.presentSemaphores[index])
    }
}
