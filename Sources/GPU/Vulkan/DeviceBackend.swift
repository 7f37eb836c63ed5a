import FramePacing
import CVulkan
import SwiftGPUSupport

/// A logical device with its one queue, the extension entry points SwiftGPU uses, and the
/// fault injector every call on it passes through.
///
/// `@unchecked Sendable`: handles and facts are immutable after `init`; the `VkQueue`,
/// which Vulkan requires to be externally synchronised, is used only inside `withQueue`.
final class DeviceBackend: @unchecked Sendable {
    let physical: PhysicalDevice
    let handle: VkDevice
    let faults = FaultInjector()
    /// `faults` as the funnel (`vkCall`) takes it: unretained, since the backend holds it
    /// for its whole life.
    var unretainedFaults: Unmanaged<FaultInjector> { .passUnretained(faults) }
    /// `vkCmdPushDescriptorSetKHR` when the device offers push descriptors and they are not
    /// turned off; nil means descriptor sets come from per-command-buffer pools.
    let pushDescriptorSet: PFN_vkCmdPushDescriptorSetKHR?
    /// `VK_EXT_debug_utils`'s label commands, where the instance enabled it.
    let debugLabels: (begin: PFN_vkCmdBeginDebugUtilsLabelEXT, end: PFN_vkCmdEndDebugUtilsLabelEXT,
                      insert: PFN_vkCmdInsertDebugUtilsLabelEXT)?
    /// Host CLOCK_MONOTONIC nanoseconds minus device timestamp nanoseconds (ticks × period),
    /// when calibrated timestamps are offered.
    let timestampToHostOffset: Int64?
    /// Whether command buffers write GPU timestamps. Off on software devices (lavapipe
    /// flushes its rasterizer for each timestamp, about 55 µs per command buffer, more than
    /// the work of a small one) unless GPU_TIMESTAMPS=1; GPU_TIMESTAMPS=0 turns them off
    /// everywhere. Without them GPU times are the host's kernel times.
    let recordsTimestamps: Bool
    /// Whether anisotropic filtering was enabled (when the device offers it).
    let samplerAnisotropy: Bool
    /// Whether queries may be reset from the host (`hostQueryReset`, enabled where offered):
    /// a counter sample buffer's queries start reset.
    let hostQueryReset: Bool
    /// Whether a descriptor may be null (`VK_EXT_robustness2`'s `nullDescriptor`, enabled
    /// where offered): an argument a false function constant leaves out is then bound as
    /// nothing, as Metal lets an app leave it unbound.
    let nullDescriptors: Bool
    /// Whether buffers have device addresses (`bufferDeviceAddress`, enabled where offered):
    /// every buffer is then made so that shaders may reach it through its address.
    let bufferDeviceAddresses: Bool
    /// Whether blocks may be laid out by the scalar rules (`scalarBlockLayout`, enabled where
    /// offered): the Metal Shading Language front end lays out a buffer of Metal's packed
    /// vectors, or of structs whose sizes std430 rounds up, with them.
    let scalarBlockLayout: Bool
    /// The 8- and 16-bit storage features enabled (those offered of
    /// `storageBuffer8BitAccess`, `uniformAndStorageBuffer8BitAccess`,
    /// `storageBuffer16BitAccess` and `uniformAndStorageBuffer16BitAccess`), by name: the
    /// Metal Shading Language front end declares `char` and `short` buffer members with them.
    let narrowStorageFeatures: Set<String>
    /// Whether pipeline statistics queries are offered (`pipelineStatisticsQuery`, enabled
    /// where offered): Metal's statistic counter set.
    let pipelineStatistics: Bool
    /// `vkGetCalibratedTimestampsEXT`, where the device offers calibrated timestamps.
    private let getCalibratedTimestamps: PFN_vkGetCalibratedTimestampsEXT?
    /// Whether occlusion queries count samples exactly (`occlusionQueryPrecise`, enabled
    /// where the device offers it): Metal's `.counting` visibility results.
    let preciseOcclusion: Bool
    /// The device extensions enabled.
    let enabledExtensions: Set<String>
    /// Whether the device can present to windows: its instance has `VK_KHR_surface` and it
    /// has `VK_KHR_swapchain`.
    var presents: Bool { enabledExtensions.contains("VK_KHR_swapchain") }

    /// Why the device cannot present to a window, or nil when it can.
    var whyNoPresentation: String? {
        if presents { return nil }
        if physical.instance.enabledExtensions.contains("VK_KHR_surface") {
            return "this device cannot present to a window: its driver offers no VK_KHR_swapchain"
        }
        return "this device cannot present to a window: it was made on a host's VkInstance without VK_KHR_surface; make "
            + "the instance with the extensions Device.requiredVulkanInstanceExtensions(for:) names for the window system"
    }
    /// The present-timing extensions enabled, where the device offers them.
    let presentTiming: VulkanPresentTiming
    private let queue: VkQueue
    private let queueLock = ConditionLock(rank: .leaf("DeviceBackend.queueLock"))
    /// How many `VkSubmitInfo2` the queue accepted. Guarded by `queueLock`.
    private var acceptedSubmitInfos = 0

    init(physical: PhysicalDevice, usePushDescriptors: Bool) throws(VulkanError) {
        self.physical = physical
        let wantPush = usePushDescriptors && physical.extensions.contains("VK_KHR_push_descriptor")
        var extensions: [String] = []
        if wantPush { extensions.append("VK_KHR_push_descriptor") }
        let calibrated = physical.extensions.contains("VK_EXT_calibrated_timestamps")
        if calibrated { extensions.append("VK_EXT_calibrated_timestamps") }
        // Presentation only on an instance that can make surfaces: a host's headless
        // instance has no VK_KHR_surface, and the swapchain extension depends on it.
        let presents = physical.instance.enabledExtensions.contains("VK_KHR_surface")
            && physical.extensions.contains("VK_KHR_swapchain")
        if presents { extensions.append("VK_KHR_swapchain") }
        // Shared textures: memory exported as a file descriptor for another API (GL) to import.
        if physical.extensions.contains("VK_KHR_external_memory_fd") { extensions.append("VK_KHR_external_memory_fd") }
        // Null descriptors, for arguments a function constant leaves out; only that feature
        // of the extension (no robust buffer or image access, which would cost every access).
        var robustness2 = VkPhysicalDeviceRobustness2FeaturesEXT()
        robustness2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT
        if physical.extensions.contains("VK_EXT_robustness2") {
            PhysicalDevice.readFeatures(of: physical.handle, into: &robustness2)
            robustness2.pNext = nil
            robustness2.robustBufferAccess2 = VkBool32(VK_FALSE)
            robustness2.robustImageAccess2 = VkBool32(VK_FALSE)
        }
        nullDescriptors = robustness2.nullDescriptor != 0
        if nullDescriptors { extensions.append("VK_EXT_robustness2") }
        let timing = presents ? VulkanPresentTiming.extensions(of: physical) : (names: [], presentWait: false)
        extensions += timing.names
        enabledExtensions = Set(extensions)
        // Present waits need their two features, chained after Vulkan 1.3's.
        var presentWaitFeatures = VkPhysicalDevicePresentWaitFeaturesKHR()
        presentWaitFeatures.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR
        presentWaitFeatures.presentWait = VkBool32(VK_TRUE)
        var presentIdFeatures = VkPhysicalDevicePresentIdFeaturesKHR()
        presentIdFeatures.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR
        presentIdFeatures.presentId = VkBool32(VK_TRUE)

        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        features13.synchronization2 = VkBool32(VK_TRUE)
        features13.dynamicRendering = VkBool32(VK_TRUE)
        features13.maintenance4 = VkBool32(VK_TRUE)
        var features12 = VkPhysicalDeviceVulkan12Features()
        features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES
        features12.timelineSemaphore = VkBool32(VK_TRUE)
        var supported12 = VkPhysicalDeviceVulkan12Features()
        supported12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES
        PhysicalDevice.readFeatures(of: physical.handle, into: &supported12)
        // Buffer device addresses (`Buffer.gpuAddress`, shaders' buffer references): Vulkan
        // 1.3 requires every driver to offer them, but a layer may hide them (RenderDoc 1.24
        // does where the driver lacks capture replay for them).
        bufferDeviceAddresses = supported12.bufferDeviceAddress != 0
        features12.bufferDeviceAddress = supported12.bufferDeviceAddress
        hostQueryReset = supported12.hostQueryReset != 0
        features12.hostQueryReset = supported12.hostQueryReset
        scalarBlockLayout = supported12.scalarBlockLayout != 0
        features12.scalarBlockLayout = supported12.scalarBlockLayout
        features12.storageBuffer8BitAccess = supported12.storageBuffer8BitAccess
        features12.uniformAndStorageBuffer8BitAccess = supported12.uniformAndStorageBuffer8BitAccess
        var features11 = VkPhysicalDeviceVulkan11Features()
        features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES
        var supported11 = VkPhysicalDeviceVulkan11Features()
        supported11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES
        PhysicalDevice.readFeatures(of: physical.handle, into: &supported11)
        features11.storageBuffer16BitAccess = supported11.storageBuffer16BitAccess
        features11.uniformAndStorageBuffer16BitAccess = supported11.uniformAndStorageBuffer16BitAccess
        narrowStorageFeatures = Set([
            ("storageBuffer8BitAccess", supported12.storageBuffer8BitAccess),
            ("uniformAndStorageBuffer8BitAccess", supported12.uniformAndStorageBuffer8BitAccess),
            ("storageBuffer16BitAccess", supported11.storageBuffer16BitAccess),
            ("uniformAndStorageBuffer16BitAccess", supported11.uniformAndStorageBuffer16BitAccess),
        ].filter { $0.1 != 0 }.map(\.0))

        var supported = VkPhysicalDeviceFeatures()
        vkGetPhysicalDeviceFeatures(physical.handle, &supported)
        samplerAnisotropy = supported.samplerAnisotropy != 0
        preciseOcclusion = supported.occlusionQueryPrecise != 0
        pipelineStatistics = supported.pipelineStatisticsQuery != 0
        var features = VkPhysicalDeviceFeatures()
        features.samplerAnisotropy = supported.samplerAnisotropy
        features.occlusionQueryPrecise = supported.occlusionQueryPrecise
        features.pipelineStatisticsQuery = supported.pipelineStatisticsQuery
        // Metal's indirect draw arguments carry a baseInstance: Vulkan needs this feature
        // for one other than 0.
        features.drawIndirectFirstInstance = supported.drawIndirectFirstInstance
        var features2 = VkPhysicalDeviceFeatures2()
        features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
        features2.features = features

        var priority: Float = 1
        var queueInfo = VkDeviceQueueCreateInfo()
        queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
        queueInfo.queueFamilyIndex = physical.queueFamily
        queueInfo.queueCount = 1

        var created: VkDevice?
        let faults = self.faults
        // The feature chain: features2 → Vulkan 1.1 → 1.2 → 1.3 (→ robustness 2)
        // (→ present id → present wait).
        try withUnsafeMutablePointer(to: &presentWaitFeatures) { (pWait) throws(VulkanError) in
        presentIdFeatures.pNext = UnsafeMutableRawPointer(pWait)
        try withUnsafeMutablePointer(to: &presentIdFeatures) { (pId) throws(VulkanError) in
        let presentChain = timing.presentWait ? UnsafeMutableRawPointer(pId) : nil
        robustness2.pNext = presentChain
        let chainsRobustness = robustness2.nullDescriptor != 0
        try withUnsafeMutablePointer(to: &robustness2) { (pRobustness) throws(VulkanError) in
        features13.pNext = chainsRobustness ? UnsafeMutableRawPointer(pRobustness) : presentChain
        try withUnsafeMutablePointer(to: &features13) { (p13) throws(VulkanError) in
            features12.pNext = UnsafeMutableRawPointer(p13)
            try withUnsafeMutablePointer(to: &features12) { (p12) throws(VulkanError) in
                features11.pNext = UnsafeMutableRawPointer(p12)
                try withUnsafeMutablePointer(to: &features11) { (p11) throws(VulkanError) in
                features2.pNext = UnsafeMutableRawPointer(p11)
                try withUnsafeMutablePointer(to: &features2) { (p2) throws(VulkanError) in
                    try withUnsafePointer(to: &priority) { (priorityPointer) throws(VulkanError) in
                        queueInfo.pQueuePriorities = priorityPointer
                        try withUnsafePointer(to: &queueInfo) { (queuePointer) throws(VulkanError) in
                            _ = try vkCall(.createDevice, .passUnretained(faults)) {
                                withCStrings(extensions) { names in
                                    var info = VkDeviceCreateInfo()
                                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                                    info.pNext = UnsafeRawPointer(p2)
                                    info.queueCreateInfoCount = 1
                                    info.pQueueCreateInfos = queuePointer
                                    info.enabledExtensionCount = UInt32(extensions.count)
                                    info.ppEnabledExtensionNames = names
                                    return vkCreateDevice(physical.handle, &info, nil, &created)
                                }
                            }
                        }
                    }
                }
                }
            }
        }
        }
        }
        }
        guard let created else { throw VulkanError(code: .initializationFailed, callSite: "vkCreateDevice") }
        handle = created
        // Again after the first device: a driver may register its own exit-time teardown as
        // late as this, and the handler must run before it.
        ServiceActivity.installExitHandler(after: "first device")
        var queue: VkQueue?
        vkGetDeviceQueue(created, physical.queueFamily, 0, &queue)
        self.queue = queue!
        pushDescriptorSet = wantPush
            ? unsafeBitCast(vkGetDeviceProcAddr(created, "vkCmdPushDescriptorSetKHR"), to: PFN_vkCmdPushDescriptorSetKHR?.self)
            : nil
        debugLabels = DeviceBackend.labelFunctions(device: created, instance: physical.instance)
        presentTiming = VulkanPresentTiming(device: created, enabled: enabledExtensions)
        getCalibratedTimestamps = calibrated
            ? unsafeBitCast(vkGetDeviceProcAddr(created, "vkGetCalibratedTimestampsEXT"), to: PFN_vkGetCalibratedTimestampsEXT?.self)
            : nil
        timestampToHostOffset = Self.calibratedTimestamps(getCalibratedTimestamps, device: created, faults: faults).map { read in
            Int64(bitPattern: read.host) - Int64(Double(read.device) * Double(physical.limits.timestampPeriod))
        }
        let requested = environment("GPU_TIMESTAMPS")
        recordsTimestamps = timestampToHostOffset != nil && (requested == "1" || (requested != "0" && !physical.isSoftware))
    }

    deinit {
        vkDeviceWaitIdle(handle)
        vkDestroyDevice(handle, nil)
    }

    /// The debug-label commands, when the instance enabled `VK_EXT_debug_utils`.
    private static func labelFunctions(device: VkDevice, instance: BackendInstance)
        -> (begin: PFN_vkCmdBeginDebugUtilsLabelEXT, end: PFN_vkCmdEndDebugUtilsLabelEXT, insert: PFN_vkCmdInsertDebugUtilsLabelEXT)? {
        guard instance.enabledExtensions.contains("VK_EXT_debug_utils"),
              let begin = unsafeBitCast(vkGetDeviceProcAddr(device, "vkCmdBeginDebugUtilsLabelEXT"), to: PFN_vkCmdBeginDebugUtilsLabelEXT?.self),
              let end = unsafeBitCast(vkGetDeviceProcAddr(device, "vkCmdEndDebugUtilsLabelEXT"), to: PFN_vkCmdEndDebugUtilsLabelEXT?.self),
              let insert = unsafeBitCast(vkGetDeviceProcAddr(device, "vkCmdInsertDebugUtilsLabelEXT"), to: PFN_vkCmdInsertDebugUtilsLabelEXT?.self)
        else { return nil }
        return (begin, end, insert)
    }

    /// The Vulkan API version the device was made for.
    static let apiVersion = vulkanAPIVersion1_3

    /// Runs `body` with exclusive use of the device's queue.
    func withQueue<T, E: Error>(_ body: (VkQueue) throws(E) -> T) throws(E) -> T {
        try queueLock.withLock { () throws(E) -> T in try body(queue) }
    }

    /// `vkQueueSubmit2` of `count` submissions, with exclusive use of the queue.
    func queueSubmit(_ submits: UnsafePointer<VkSubmitInfo2>?, count: UInt32) -> VkResult {
        withQueue { queue in
            let result = vkQueueSubmit2(queue, count, submits, nil)
            if result == VK_SUCCESS { acceptedSubmitInfos += Int(count) }
            return result
        }
    }

    /// How many `VkSubmitInfo2` the queue has accepted: the submissions the driver handled,
    /// which tests compare with the command buffers that went.
    var submitInfoCount: Int { queueLock.withLock { acceptedSubmitInfos } }

    /// A device timestamp (ticks) and CLOCK_MONOTONIC (nanoseconds) read together, where
    /// the device offers calibrated timestamps.
    func calibratedTimestamps() -> (device: UInt64, host: UInt64)? {
        Self.calibratedTimestamps(getCalibratedTimestamps, device: handle, faults: faults)
    }

    private static func calibratedTimestamps(_ get: PFN_vkGetCalibratedTimestampsEXT?, device vk: VkDevice,
                                             faults: FaultInjector) -> (device: UInt64, host: UInt64)? {
        guard let get else { return nil }
        var infos = [VkCalibratedTimestampInfoEXT](repeating: .init(), count: 2)
        infos[0].sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT
        infos[0].timeDomain = VK_TIME_DOMAIN_DEVICE_EXT
        infos[1].sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT
        infos[1].timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT
        var values: [UInt64] = [0, 0]
        var deviation: UInt64 = 0
        guard (try? vkCall(.getCalibratedTimestamps, .passUnretained(faults), { get(vk, 2, &infos, &values, &deviation) })) != nil
        else { return nil }
        return (values[0], values[1])
    }
}
