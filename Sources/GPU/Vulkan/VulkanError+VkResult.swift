import CVulkan

/// The public error's codes from and to the headers' `VkResult`.
extension VulkanError.Code {
    /// The code of `result`.
    init(_ result: VkResult) { self.init(rawValue: result.rawValue) }

    /// The code as a `VkResult`.
    var vkResult: VkResult { VkResult(rawValue: rawValue) }
}
