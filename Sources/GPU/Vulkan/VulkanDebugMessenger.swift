import CVulkan

/// Whether the process's Vulkan instance was made with the validation layer on.
func validationLayerIsEnabled() -> Bool { (try? BackendInstance.shared().validation) ?? false }

/// The C callback the debug messenger calls for each warning or error.
let debugMessengerCallback: PFN_vkDebugUtilsMessengerCallbackEXT = { severity, _, data, _ in
    let isError = severity.rawValue & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue != 0
    let id = data?.pointee.pMessageIdName.map { String(cString: $0) } ?? ""
    let text = data?.pointee.pMessage.map { String(cString: $0) } ?? ""
    Validation.record(ValidationMessage(severity: isError ? "error" : "warning", id: id, text: text),
                      isError: isError)
    return VkBool32(VK_FALSE)
}
