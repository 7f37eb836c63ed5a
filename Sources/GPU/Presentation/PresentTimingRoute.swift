/// What a device's present-timing extensions allow on a swapchain.
struct PresentTimingSupport: Sendable, Hashable {
    /// `VK_GOOGLE_display_timing`: each image's actual present time and the refresh cycle.
    var displayTiming: Bool
    /// `VK_KHR_present_id` + `VK_KHR_present_wait`: a wait that returns when an image was
    /// shown.
    var presentWait: Bool
}

/// Where a window layer's presented times come from, chosen when its swapchain is made.
enum PresentTimingRoute: Sendable, Hashable, CustomStringConvertible {
    /// The display server's feedback the app handed the layer (`Layer.usePresentationFeedback`).
    case serverFeedback
    /// `VK_GOOGLE_display_timing`'s actual present times.
    case displayTiming
    /// The host's time when `vkWaitForPresentKHR` returns for the present.
    case presentWait
    /// The host's time when `vkQueuePresentKHR` returned.
    case hostClock

    /// The best route: the server's own feedback when the app gave it, then the driver's
    /// actual present times, then its present waits, then the host's clock.
    static func choose(serverFeedback: Bool, support: PresentTimingSupport) -> PresentTimingRoute {
        if serverFeedback { return .serverFeedback }
        if support.displayTiming { return .displayTiming }
        if support.presentWait { return .presentWait }
        return .hostClock
    }

    /// A readable name.
    var description: String {
        switch self {
        case .serverFeedback: "the display server's feedback"
        case .displayTiming: "VK_GOOGLE_display_timing"
        case .presentWait: "VK_KHR_present_wait"
        case .hostClock: "the host's clock when vkQueuePresentKHR returned"
        }
    }
}
