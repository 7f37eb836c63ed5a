import FramePacing
import CVulkan
import Glibc
import SwiftGPUSupport

/// A `VkInstance`: the process's own, made on first use with the validation layer when
/// `GPU_VALIDATION` asks for it and the window-system extensions the loader offers; or one
/// a host made and lends (`adopting:`), which SwiftGPU never destroys.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`.
final class BackendInstance: @unchecked Sendable {
    let handle: VkInstance
    let validation: Bool
    let enabledExtensions: Set<String>
    /// Whether SwiftGPU made the instance (the shared one, which lives as long as the process).
    let isOwn: Bool
    /// Whether the instance is destroyed with this object: only an own instance that is
    /// not the shared one.
    private let destroysOnDeinit: Bool
    private let messenger: VkDebugUtilsMessengerEXT?

    /// The extensions SwiftGPU's own instance enables where the loader offers them: every
    /// window system's surfaces, and debug labels.
    static let wantedExtensions = ["VK_KHR_surface", "VK_KHR_xcb_surface", "VK_KHR_xlib_surface",
                                   "VK_KHR_wayland_surface", "VK_KHR_get_surface_capabilities2", "VK_EXT_debug_utils"]

    private static let lock = ConditionLock(rank: .vulkanInstance)
    private nonisolated(unsafe) static var instance: BackendInstance?
    /// The adopted wrappers of host instances that are alive.
    static let adopted = ReleaseRegistry()

    /// The shared instance, made on first call.
    static func shared() throws(GPUError) -> BackendInstance {
        try lock.withLock { () throws(GPUError) -> BackendInstance in
            if let instance { return instance }
            let made = try BackendInstance()
            instance = made
            return made
        }
    }

    /// Makes SwiftGPU's own instance with the `wanted` extensions the loader offers.
    /// `destroysOnDeinit` is false for the shared instance, which lives as long as the
    /// process.
    init(wanted: [String] = wantedExtensions, destroysOnDeinit: Bool = false) throws(GPUError) {
        let mode = Validation.mode
        let validationLayer = "VK_LAYER_KHRONOS_validation"
        if mode != .off && !Self.availableLayers().contains(validationLayer) {
            throw GPUError.validationLayerMissing
        }
        // Without validation (an app's launch), asked for all at once first: listing the
        // loader's extensions beforehand loads and asks every driver, as long again as
        // making the instance. Only a loader without one of them (a window system it was
        // built without) costs the listing and a second try with the extensions it has.
        // With validation on, the list comes first: the messenger would report the
        // loader's refusal of a missing extension as an error.
        var extensions = mode == .off ? wanted : wanted.filter(Self.availableExtensions().contains)
        var created: VkInstance?
        var result = Self.create(extensions: extensions, layer: mode != .off ? validationLayer : nil, mode: mode,
                                 into: &created)
        if result == VK_ERROR_EXTENSION_NOT_PRESENT, mode == .off {
            let available = Self.availableExtensions()
            extensions = wanted.filter(available.contains)
            result = Self.create(extensions: extensions, layer: mode != .off ? validationLayer : nil, mode: mode,
                                 into: &created)
        }
        do {
            try vkCall(.createInstance, nil) { result }
        } catch {
            throw GPUError.vulkan(error)
        }
        guard let created else { throw GPUError.vulkan(VulkanError(code: .initializationFailed, callSite: "vkCreateInstance")) }
        handle = created
        validation = mode != .off
        enabledExtensions = Set(extensions)
        isOwn = true
        self.destroysOnDeinit = destroysOnDeinit
        if mode != .off { Validation.installExitCheck() }
        ServiceActivity.installExitHandler(after: "instance")
        messenger = mode != .off ? Self.makeMessenger(on: created) : nil
    }

    /// One `vkCreateInstance` with `extensions` (debug labels, which tools such as RenderDoc
    /// read, and every window system's surfaces), and `layer` with its messenger (and
    /// synchronization validation where `mode` asks for it).
    private static func create(extensions: [String], layer: String?, mode: Validation.Mode,
                               into created: inout VkInstance?) -> VkResult {
        var appInfo = VkApplicationInfo()
        appInfo.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        appInfo.apiVersion = vulkanAPIVersion1_3
        appInfo.engineVersion = 1

        var messengerInfo = messengerCreateInfo()
        var syncFeature = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
        var features = VkValidationFeaturesEXT()
        features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT
        features.enabledValidationFeatureCount = 1

        return withCStrings(extensions) { extensionNames in
            withCStrings(layer.map { [$0] } ?? []) { layerNames in
                "SwiftGPU".withCString { engineName in
                    appInfo.pEngineName = engineName
                    return withUnsafePointer(to: &appInfo) { app in
                        withUnsafeMutablePointer(to: &syncFeature) { syncPointer in
                            withUnsafeMutablePointer(to: &messengerInfo) { messengerPointer in
                                features.pEnabledValidationFeatures = UnsafePointer(syncPointer)
                                features.pNext = UnsafeRawPointer(messengerPointer)
                                return withUnsafeMutablePointer(to: &features) { featuresPointer in
                                    var info = VkInstanceCreateInfo()
                                    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                                    info.pApplicationInfo = app
                                    info.enabledExtensionCount = UInt32(extensions.count)
                                    info.ppEnabledExtensionNames = extensionNames
                                    info.enabledLayerCount = layer == nil ? 0 : 1
                                    info.ppEnabledLayerNames = layerNames
                                    switch mode {
                                    case .off: break
                                    case .standard: info.pNext = UnsafeRawPointer(messengerPointer)
                                    case .synchronization: info.pNext = UnsafeRawPointer(featuresPointer)
                                    }
                                    return vkCreateInstance(&info, nil, &created)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adopts `handle`, an instance the host made with `extensions` and `layers` enabled.
    /// Where it has the validation layer and `VK_EXT_debug_utils`, the layer's messages
    /// reach `Validation` through a messenger of SwiftGPU's, destroyed with this object.
    init(adopting handle: VkInstance, extensions: [String], layers: [String]) {
        self.handle = handle
        enabledExtensions = Set(extensions)
        validation = layers.contains("VK_LAYER_KHRONOS_validation")
        isOwn = false
        destroysOnDeinit = false
        if validation { Validation.installExitCheck() }
        ServiceActivity.installExitHandler(after: "instance")
        messenger = validation && enabledExtensions.contains("VK_EXT_debug_utils") ? Self.makeMessenger(on: handle) : nil
        Self.adopted.retain(handle)
    }

    deinit {
        // An adopted instance is released here, and the host destroys it after this; the
        // shared one is never destroyed.
        if let messenger,
           let destroy = unsafeBitCast(vkGetInstanceProcAddr(handle, "vkDestroyDebugUtilsMessengerEXT"),
                                       to: PFN_vkDestroyDebugUtilsMessengerEXT?.self) {
            destroy(handle, messenger, nil)
        }
        if !isOwn { Self.adopted.release(handle) }
        if destroysOnDeinit { vkDestroyInstance(handle, nil) }
    }

    /// A messenger that hands the validation layer's messages to `Validation`.
    private static func makeMessenger(on instance: VkInstance) -> VkDebugUtilsMessengerEXT? {
        var messenger: VkDebugUtilsMessengerEXT?
        let create = unsafeBitCast(vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"),
                                   to: PFN_vkCreateDebugUtilsMessengerEXT?.self)
        var info = messengerCreateInfo()
        _ = create?(instance, &info, nil, &messenger)
        return messenger
    }

    /// The pointer a capture tool knows the instance by: its loader dispatch table, the
    /// first word of every dispatchable handle (RenderDoc's
    /// `RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE`). The same for every device made on it.
    var captureDevicePointer: UnsafeMutableRawPointer {
        UnsafeRawPointer(handle).load(as: UnsafeMutableRawPointer.self)
    }

    /// Physical devices that offer Vulkan 1.3 and a queue family with graphics and compute.
    func physicalDevices() throws(GPUError) -> [PhysicalDevice] {
        do {
            let handles = try enumerated(initialCapacity: 8, filler: nil) { (count, handles) throws(VulkanError) in
                try vkCall(.enumeratePhysicalDevices, nil) { vkEnumeratePhysicalDevices(handle, &count, handles) }
            }
            return handles.compactMap { $0 }.compactMap { PhysicalDevice(instance: self, handle: $0) }
        } catch {
            throw GPUError.vulkan(error)
        }
    }

    static func messengerCreateInfo() -> VkDebugUtilsMessengerCreateInfoEXT {
        var info = VkDebugUtilsMessengerCreateInfoEXT()
        info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        info.messageSeverity = VkDebugUtilsMessageSeverityFlagsEXT(
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue)
        info.messageType = VkDebugUtilsMessageTypeFlagsEXT(
            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
                | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue)
        info.pfnUserCallback = debugMessengerCallback
        return info
    }

    private static func availableLayers() -> Set<String> {
        var count: UInt32 = 0
        vkEnumerateInstanceLayerProperties(&count, nil)
        var properties = [VkLayerProperties](repeating: VkLayerProperties(), count: Int(count))
        vkEnumerateInstanceLayerProperties(&count, &properties)
        return Set(properties.prefix(Int(count)).map { fixedString($0.layerName) })
    }

    static func availableExtensions() -> Set<String> {
        var count: UInt32 = 0
        vkEnumerateInstanceExtensionProperties(nil, &count, nil)
        var properties = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        vkEnumerateInstanceExtensionProperties(nil, &count, &properties)
        return Set(properties.prefix(Int(count)).map { fixedString($0.extensionName) })
    }
}

/// `VK_API_VERSION_1_2` and `VK_API_VERSION_1_3`: the macros do not import into Swift.
let vulkanAPIVersion1_2: UInt32 = (1 << 22) | (2 << 12)
let vulkanAPIVersion1_3: UInt32 = (1 << 22) | (3 << 12)

/// Reads a fixed-size C `char` array imported as a tuple.
func fixedString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

/// Calls `body` with a C array of C strings that lives for the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let duplicates = strings.map { strdup($0) }
    defer { duplicates.forEach { free($0) } }
    let pointers = duplicates.map { UnsafePointer<CChar>($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
