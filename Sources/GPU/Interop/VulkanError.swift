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

        /// `VK_ERROR_UNKNOWN`.
        public static let unknown = Code(rawValue: -13)

        /// The Vulkan name of the code (every `VkResult` of the headers SwiftGPU was built
        /// with), or `VkResult(<n>)` for a newer one.
        public var description: String { Self.names[rawValue] ?? "VkResult(\(rawValue))" }

        /// Every `VkResult` the headers name.
        private static let names: [Int32: String] = [
            0: "VK_SUCCESS",
            1: "VK_NOT_READY",
            2: "VK_TIMEOUT",
            3: "VK_EVENT_SET",
            4: "VK_EVENT_RESET",
            5: "VK_INCOMPLETE",
            -1: "VK_ERROR_OUT_OF_HOST_MEMORY",
            -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
            -3: "VK_ERROR_INITIALIZATION_FAILED",
            -4: "VK_ERROR_DEVICE_LOST",
            -5: "VK_ERROR_MEMORY_MAP_FAILED",
            -6: "VK_ERROR_LAYER_NOT_PRESENT",
            -7: "VK_ERROR_EXTENSION_NOT_PRESENT",
            -8: "VK_ERROR_FEATURE_NOT_PRESENT",
            -9: "VK_ERROR_INCOMPATIBLE_DRIVER",
            -10: "VK_ERROR_TOO_MANY_OBJECTS",
            -11: "VK_ERROR_FORMAT_NOT_SUPPORTED",
            -12: "VK_ERROR_FRAGMENTED_POOL",
            -13: "VK_ERROR_UNKNOWN",
            -1000069000: "VK_ERROR_OUT_OF_POOL_MEMORY",
            -1000072003: "VK_ERROR_INVALID_EXTERNAL_HANDLE",
            -1000161000: "VK_ERROR_FRAGMENTATION",
            -1000257000: "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS",
            1000297000: "VK_PIPELINE_COMPILE_REQUIRED",
            -1000000000: "VK_ERROR_SURFACE_LOST_KHR",
            -1000000001: "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR",
            1000001003: "VK_SUBOPTIMAL_KHR",
            -1000001004: "VK_ERROR_OUT_OF_DATE_KHR",
            -1000003001: "VK_ERROR_INCOMPATIBLE_DISPLAY_KHR",
            -1000011001: "VK_ERROR_VALIDATION_FAILED_EXT",
            -1000012000: "VK_ERROR_INVALID_SHADER_NV",
            -1000023000: "VK_ERROR_IMAGE_USAGE_NOT_SUPPORTED_KHR",
            -1000023001: "VK_ERROR_VIDEO_PICTURE_LAYOUT_NOT_SUPPORTED_KHR",
            -1000023002: "VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR",
            -1000023003: "VK_ERROR_VIDEO_PROFILE_FORMAT_NOT_SUPPORTED_KHR",
            -1000023004: "VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR",
            -1000023005: "VK_ERROR_VIDEO_STD_VERSION_NOT_SUPPORTED_KHR",
            -1000158000: "VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT",
            -1000174001: "VK_ERROR_NOT_PERMITTED_KHR",
            -1000255000: "VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT",
            1000268000: "VK_THREAD_IDLE_KHR",
            1000268001: "VK_THREAD_DONE_KHR",
            1000268002: "VK_OPERATION_DEFERRED_KHR",
            1000268003: "VK_OPERATION_NOT_DEFERRED_KHR",
            -1000338000: "VK_ERROR_COMPRESSION_EXHAUSTED_EXT",
        ]
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
