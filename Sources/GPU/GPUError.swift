/// Runtime conditions that stop a device, resource or pipeline from being made.
public enum GPUError: Error, Sendable, CustomStringConvertible {
    /// A Vulkan call failed.
    case vulkan(VulkanError)
    /// No Vulkan 1.3 device with a graphics and compute queue was found.
    case noDevice
    /// `GPU_DEVICE` named no device; lists the devices there are.
    case noMatchingDevice(selector: String, available: [String])
    /// `GPU_VALIDATION` asked for the validation layer, but it is not installed.
    case validationLayerMissing
    /// A command buffer SwiftGPU ran for the call (an upload or a read-back) failed: the
    /// device was lost, memory ran out, and so on.
    case commandBuffer(CommandBufferError)
    /// This device cannot make the texture asked for: a format and usage pair it lacks, or
    /// a size, slice, level or sample count over its limits. The message names the limit.
    case unsupportedTexture(String)
    /// This device cannot make a buffer this long (over ``Device/maxBufferLength``).
    case bufferTooLong(length: Int, maximum: Int)
    /// A host's `VkInstance` cannot carry a SwiftGPU device: the message says why (its API
    /// version, or a physical device that does not qualify).
    case unsuitableHostInstance(String)
    /// This device cannot present to a window: it was made on a host's `VkInstance` that
    /// lacks `VK_KHR_surface`, or its physical device lacks `VK_KHR_swapchain`.
    case presentationUnavailable(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .vulkan(let error): "\(error)"
        case .noDevice:
            "no Vulkan 1.3 device with a graphics and compute queue was found "
                + "(for a software device: apt-get install mesa-vulkan-drivers)"
        case .noMatchingDevice(let selector, let available):
            "GPU_DEVICE=\(selector) matches no device; devices: "
                + available.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: ", ")
        case .validationLayerMissing:
            "GPU_VALIDATION is set but VK_LAYER_KHRONOS_validation is not installed "
                + "(apt-get install vulkan-validationlayers)"
        case .commandBuffer(let error): "SwiftGPU's command buffer failed: \(error)"
        case .unsupportedTexture(let message): message
        case .bufferTooLong(let length, let maximum):
            "a buffer of \(length) bytes is longer than this device's maxBufferLength of \(maximum) bytes"
        case .unsuitableHostInstance(let message): message
        case .presentationUnavailable(let message): message
        }
    }
}
