import CVulkan

/// A failed Vulkan call: the `VkResult` it returned and the call site that made it.
///
/// An open struct in the manner of swift-system's `Errno`: named codes for the results
/// a caller may meet, and any other value kept as it is.
public struct VulkanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `VkResult` value.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The raw `VkResult`.
        public var rawValue: Int32
        /// Wraps a raw `VkResult`.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `VK_ERROR_OUT_OF_HOST_MEMORY`.
        public static let outOfHostMemory = Code(rawValue: -1)
        /// `VK_ERROR_OUT_OF_DEVICE_MEMORY`.
        public static let outOfDeviceMemory = Code(rawValue: -2)
        /// `VK_ERROR_INITIALIZATION_FAILED`.
        public static let initializationFailed = Code(rawValue: -3)
        /// `VK_ERROR_DEVICE_LOST`.
        public static let deviceLost = Code(rawValue: -4)
        /// `VK_ERROR_MEMORY_MAP_FAILED`.
        public static let memoryMapFailed = Code(rawValue: -5)
        /// `VK_ERROR_LAYER_NOT_PRESENT`.
        public static let layerNotPresent = Code(rawValue: -6)
        /// `VK_ERROR_EXTENSION_NOT_PRESENT`.
        public static let extensionNotPresent = Code(rawValue: -7)
        /// `VK_ERROR_FEATURE_NOT_PRESENT`.
        public static let featureNotPresent = Code(rawValue: -8)
        /// `VK_ERROR_INCOMPATIBLE_DRIVER`.
        public static let incompatibleDriver = Code(rawValue: -9)
        /// `VK_ERROR_TOO_MANY_OBJECTS`.
        public static let tooManyObjects = Code(rawValue: -10)
        /// `VK_ERROR_FORMAT_NOT_SUPPORTED`.
        public static let formatNotSupported = Code(rawValue: -11)
        /// `VK_ERROR_FRAGMENTED_POOL`.
        public static let fragmentedPool = Code(rawValue: -12)
        /// `VK_ERROR_OUT_OF_POOL_MEMORY`.
        public static let outOfPoolMemory = Code(rawValue: -1_000_069_000)
        /// `VK_ERROR_SURFACE_LOST_KHR`.
        public static let surfaceLost = Code(rawValue: -1_000_000_000)
        /// `VK_ERROR_OUT_OF_DATE_KHR`.
        public static let outOfDate = Code(rawValue: -1_000_001_004)
        /// `VK_TIMEOUT`.
        public static let timeout = Code(rawValue: 2)
        /// `VK_SUBOPTIMAL_KHR`.
        public static let suboptimal = Code(rawValue: 1_000_001_003)

        init(_ result: VkResult) { rawValue = result.rawValue }

        var vkResult: VkResult { VkResult(rawValue: rawValue) }

        /// The Vulkan name of the code, or `VkResult(<n>)` for one without a name here.
        public var description: String {
            switch self {
            case .outOfHostMemory: "VK_ERROR_OUT_OF_HOST_MEMORY"
            case .outOfDeviceMemory: "VK_ERROR_OUT_OF_DEVICE_MEMORY"
            case .initializationFailed: "VK_ERROR_INITIALIZATION_FAILED"
            case .deviceLost: "VK_ERROR_DEVICE_LOST"
            case .memoryMapFailed: "VK_ERROR_MEMORY_MAP_FAILED"
            case .layerNotPresent: "VK_ERROR_LAYER_NOT_PRESENT"
            case .extensionNotPresent: "VK_ERROR_EXTENSION_NOT_PRESENT"
            case .featureNotPresent: "VK_ERROR_FEATURE_NOT_PRESENT"
            case .incompatibleDriver: "VK_ERROR_INCOMPATIBLE_DRIVER"
            case .tooManyObjects: "VK_ERROR_TOO_MANY_OBJECTS"
            case .formatNotSupported: "VK_ERROR_FORMAT_NOT_SUPPORTED"
            case .fragmentedPool: "VK_ERROR_FRAGMENTED_POOL"
            case .outOfPoolMemory: "VK_ERROR_OUT_OF_POOL_MEMORY"
            case .surfaceLost: "VK_ERROR_SURFACE_LOST_KHR"
            case .outOfDate: "VK_ERROR_OUT_OF_DATE_KHR"
            case .timeout: "VK_TIMEOUT"
            case .suboptimal: "VK_SUBOPTIMAL_KHR"
            default: "VkResult(\(rawValue))"
            }
        }
    }

    /// What the call returned.
    public var code: Code
    /// The call site that failed, e.g. `vkAllocateMemory`.
    public var callSite: String

    /// Makes an error for `code` at `callSite`.
    public init(code: Code, callSite: String) {
        self.code = code
        self.callSite = callSite
    }

    /// `"vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY"`.
    public var description: String { "\(callSite) failed: \(code)" }
}
