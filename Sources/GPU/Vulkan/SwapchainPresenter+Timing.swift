import CVulkan

/// The present-timing extensions a device has enabled, with their entry points:
/// `VK_GOOGLE_display_timing` (when each image was shown, and the refresh cycle) and
/// `VK_KHR_present_id` + `VK_KHR_present_wait` (a wait until an image was shown).
struct VulkanPresentTiming: @unchecked Sendable {   // function pointers, immutable
    var pastPresentationTiming: PFN_vkGetPastPresentationTimingGOOGLE?
    var refreshCycleDuration: PFN_vkGetRefreshCycleDurationGOOGLE?
    var waitForPresent: PFN_vkWaitForPresentKHR?

    /// What the device's extensions allow.
    var support: PresentTimingSupport {
        PresentTimingSupport(displayTiming: pastPresentationTiming != nil && refreshCycleDuration != nil,
                             presentWait: waitForPresent != nil)
    }

    /// The extensions to enable of those `physical` offers, and whether present waits are
    /// possible (they need the presentId and presentWait features too).
    static func extensions(of physical: PhysicalDevice) -> (names: [String], presentWait: Bool) {
        var names: [String] = []
        guard physical.extensions.contains("VK_KHR_swapchain") else { return ([], false) }
        if physical.extensions.contains("VK_GOOGLE_display_timing") { names.append("VK_GOOGLE_display_timing") }
        var presentWait = false
        if physical.extensions.contains("VK_KHR_present_id"), physical.extensions.contains("VK_KHR_present_wait") {
            var wait = VkPhysicalDevicePresentWaitFeaturesKHR()
            wait.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR
            var id = VkPhysicalDevicePresentIdFeaturesKHR()
            id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR
            withUnsafeMutablePointer(to: &wait) { waitPointer in
                id.pNext = UnsafeMutableRawPointer(waitPointer)
                withUnsafeMutablePointer(to: &id) { idPointer in
                    var features = VkPhysicalDeviceFeatures2()
                    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
                    features.pNext = UnsafeMutableRawPointer(idPointer)
                    vkGetPhysicalDeviceFeatures2(physical.handle, &features)
                }
            }
            presentWait = id.presentId != 0 && wait.presentWait != 0
            if presentWait { names += ["VK_KHR_present_id", "VK_KHR_present_wait"] }
        }
        return (names, presentWait)
    }

    /// The entry points of the extensions `enabled` on `device`.
    init(device: VkDevice, enabled: Set<String>) {
        func load<T>(_ name: String, as type: T.Type) -> T? {
            unsafeBitCast(vkGetDeviceProcAddr(device, name), to: T?.self)
        }
        if enabled.contains("VK_GOOGLE_display_timing") {
            pastPresentationTiming = load("vkGetPastPresentationTimingGOOGLE", as: PFN_vkGetPastPresentationTimingGOOGLE.self)
            refreshCycleDuration = load("vkGetRefreshCycleDurationGOOGLE", as: PFN_vkGetRefreshCycleDurationGOOGLE.self)
        }
        if enabled.contains("VK_KHR_present_wait") {
            waitForPresent = load("vkWaitForPresentKHR", as: PFN_vkWaitForPresentKHR.self)
        }
    }
}

extension SwapchainPresenter {
    /// The images shown since the last call, as `VK_GOOGLE_display_timing` reports them:
    /// each present's ID and when it was shown (`CLOCK_MONOTONIC` nanoseconds).
    func pastPresentations() -> [(id: UInt32, shownAt: UInt64)] {
        guard let past = device.presentTiming.pastPresentationTiming else { return [] }
        let vk = device.handle
        var count: UInt32 = 0
        guard past(vk, handle, &count, nil) == VK_SUCCESS, count > 0 else { return [] }
        var timings = [VkPastPresentationTimingGOOGLE](repeating: .init(), count: Int(count))
        let result = past(vk, handle, &count, &timings)
        guard result == VK_SUCCESS || result == VK_INCOMPLETE else { return [] }
        return timings.prefix(Int(count)).map { ($0.presentID, $0.actualPresentTime) }
    }

    /// The display's refresh cycle in nanoseconds, from `VK_GOOGLE_display_timing`.
    func refreshCycle() -> UInt64? {
        guard let refresh = device.presentTiming.refreshCycleDuration else { return nil }
        var properties = VkRefreshCycleDurationGOOGLE()
        guard refresh(device.handle, handle, &properties) == VK_SUCCESS else { return nil }
        return properties.refreshDuration
    }

    /// Waits up to `timeout` nanoseconds for the present with ID `id` to be shown
    /// (`VK_KHR_present_wait`): true when it was, false on timeout or failure.
    func waitForPresent(id: UInt64, timeout: UInt64) -> Bool {
        guard let wait = device.presentTiming.waitForPresent else { return false }
        return wait(device.handle, handle, id, timeout) == VK_SUCCESS
    }
}
