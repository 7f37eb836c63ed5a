import CRenderDoc
import CVulkan

/// A physical device that meets SwiftGPU's needs, with the facts read from it once.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`.
final class PhysicalDevice: @unchecked Sendable {
    let instance: BackendInstance
    let handle: VkPhysicalDevice
    let name: String
    let type: VkPhysicalDeviceType
    let driverVersion: UInt32
    let vendorID: UInt32
    let deviceID: UInt32
    let pipelineCacheUUID: [UInt8]
    let limits: VkPhysicalDeviceLimits
    let memory: VkPhysicalDeviceMemoryProperties
    let queueFamily: UInt32
    let extensions: Set<String>

    /// Nil when the device lacks Vulkan 1.3 or a graphics+compute queue family.
    init?(instance: BackendInstance, handle: VkPhysicalDevice) {
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(handle, &properties)
        guard properties.apiVersion >= vulkanAPIVersion1_3 || Self.offersVulkan13UnderRenderDoc(handle, properties.apiVersion)
        else { return nil }
        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: .init(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, &families)
        let wanted = VK_QUEUE_GRAPHICS_BIT.rawValue | VK_QUEUE_COMPUTE_BIT.rawValue
        guard let family = families.firstIndex(where: { $0.queueFlags & wanted == wanted }) else { return nil }

        self.instance = instance
        self.handle = handle
        name = fixedString(properties.deviceName)
        type = properties.deviceType
        driverVersion = properties.driverVersion
        vendorID = properties.vendorID
        deviceID = properties.deviceID
        pipelineCacheUUID = withUnsafeBytes(of: properties.pipelineCacheUUID) { Array($0) }
        limits = properties.limits
        queueFamily = UInt32(family)
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(handle, &memory)
        self.memory = memory
        // A device whose extensions cannot be listed (a negative result) is used without any.
        let extensionProperties = (try? enumerated(initialCapacity: 256, filler: VkExtensionProperties()) { count, items in
            let result = vkEnumerateDeviceExtensionProperties(handle, nil, &count, items)
            if result.rawValue < 0 { count = 0 }
            return result
        }) ?? []
        extensions = Set(extensionProperties.map { fixedString($0.extensionName) })
    }

    /// Whether `handle`, which reports Vulkan `apiVersion` below 1.3, is a 1.3 device seen
    /// through RenderDoc's layer: RenderDoc 1.24 reports 1.2 for it while passing 1.3's
    /// commands and features through (decision 0088). Such a device is taken when RenderDoc
    /// is in the process and the device answers the 1.3 features SwiftGPU enables.
    private static func offersVulkan13UnderRenderDoc(_ handle: VkPhysicalDevice, _ apiVersion: UInt32) -> Bool {
        guard apiVersion >= vulkanAPIVersion1_2, swiftgpu_renderdoc_is_loaded() != 0 else { return false }
        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        Self.readFeatures(of: handle, into: &features13)
        return features13.synchronization2 != 0 && features13.dynamicRendering != 0 && features13.maintenance4 != 0
    }

    /// Fills `features`, one structure of Vulkan's feature chain (its `sType` set), from
    /// the device `handle`.
    static func readFeatures<Features>(of handle: VkPhysicalDevice, into features: inout Features) {
        var features2 = VkPhysicalDeviceFeatures2()
        features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
        withUnsafeMutablePointer(to: &features) { pointer in
            features2.pNext = UnsafeMutableRawPointer(pointer)
            vkGetPhysicalDeviceFeatures2(handle, &features2)
        }
    }

    /// True for CPU implementations such as lavapipe (llvmpipe).
    var isSoftware: Bool { type == VK_PHYSICAL_DEVICE_TYPE_CPU }

    /// Sort key for the default choice: discrete, integrated, virtual, then CPU.
    var preference: Int {
        switch type {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: 0
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: 1
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: 2
        case VK_PHYSICAL_DEVICE_TYPE_CPU: 3
        default: 4
        }
    }

    /// The index of a memory type allowed by `typeBits` that has `required` properties,
    /// preferring one that also has `preferred`.
    func memoryType(typeBits: UInt32, required: VkMemoryPropertyFlags, preferred: VkMemoryPropertyFlags) -> UInt32? {
        let types = withUnsafeBytes(of: memory.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let candidates = (0..<Int(memory.memoryTypeCount)).filter {
            typeBits & (1 << UInt32($0)) != 0 && types[$0].propertyFlags & required == required
        }
        let best = candidates.first { types[$0].propertyFlags & preferred == preferred } ?? candidates.first
        return best.map(UInt32.init)
    }
}
