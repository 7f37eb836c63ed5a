import Dispatch
import FramePacing
import SwiftGPUSupport

/// A GPU: Metal's `MTLDevice` on a Vulkan 1.3 physical device.
///
/// Each `makeDefault()` call opens the device anew (its own `VkDevice`), so independent
/// parts of a program, and tests, do not share queues or injected faults.
///
/// `@unchecked Sendable`: every stored property is immutable, except the internal queue,
/// guarded by its lock, and the validation kernel's pipeline, in a locked value.
public final class Device: @unchecked Sendable {
    let backend: DeviceBackend
    /// The device's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    public let name: String
    /// The lifecycle whose gate this device's queues obey.
    public let lifecycle: AppLifecycle
    let gate: LifecycleGate
    let pipelineCache: PipelineCacheStore
    private let internalQueueLock = ConditionLock(rank: .deviceInternalQueue)
    /// Made on first use by `internalQueue()`; guarded by `internalQueueLock`.
    private var internalQueueStorage: CommandQueue?
    /// The indirect-argument validation kernel's pipeline, made on first use by
    /// `indirectValidationPipeline()`.
    let indirectValidationPipelineStorage = LockedValue<PipelineObject?>(nil, rank: .leaf("Device.indirectValidationPipeline"))

    /// Serialises device creation: vkCreateDevice is thread-safe, but concurrent creation
    /// through the validation layer has crashed inside the layer.
    private static let creationLock = ConditionLock(rank: .deviceCreation)

    /// Whether render pipelines feed small uniform blocks given by `setVertexBytes` /
    /// `setFragmentBytes` through push constants (see `PushConstantPipeline`). On unless
    /// the environment sets GPU_PUSH_CONSTANTS=0.
    let feedsBytesThroughPushConstants: Bool
    /// The limits arguments are checked against.
    let limits: DeviceLimits

    init(physical: PhysicalDevice, lifecycle: AppLifecycle, usePushDescriptors: Bool,
         pushConstantBytes: Bool = environment("GPU_PUSH_CONSTANTS") != "0", cacheDirectory: String?) throws(GPUError) {
        feedsBytesThroughPushConstants = pushConstantBytes
        do {
            backend = try Self.creationLock.withLock { () throws(VulkanError) -> DeviceBackend in
                try DeviceBackend(physical: physical, usePushDescriptors: usePushDescriptors)
            }
            pipelineCache = try PipelineCacheStore(device: backend, directory: cacheDirectory)
        } catch {
            throw .vulkan(error)
        }
        name = physical.name
        limits = physical.deviceLimits()
        self.lifecycle = lifecycle
        gate = LifecycleGate(lifecycle: lifecycle)
    }

    /// True for a CPU implementation such as lavapipe.
    public var isSoftware: Bool { backend.physical.isSoftware }

    /// Whether `gpuStartTime`/`gpuEndTime` come from GPU timestamps. False on software
    /// devices, where each timestamp flushes the rasterizer (about 55 µs per command
    /// buffer on lavapipe); there they are the host's kernel times. The environment
    /// variable GPU_TIMESTAMPS=1 turns timestamps on anyway, GPU_TIMESTAMPS=0 off.
    public var recordsGPUTimestamps: Bool { backend.recordsTimestamps }

    /// Whether descriptors are pushed (`VK_KHR_push_descriptor`) rather than allocated per
    /// command buffer.
    public var usesPushDescriptors: Bool { backend.pushDescriptorSet != nil }

    /// The default device: the one `GPU_DEVICE` names (an index into ``all(lifecycle:)`` or a
    /// case-insensitive substring of a name), else the first discrete, integrated, virtual
    /// or CPU device, in that order.
    public static func makeDefault(lifecycle: AppLifecycle = .shared) throws(GPUError) -> Device {
        try makeDefault(lifecycle: lifecycle, usePushDescriptors: true, cacheDirectory: PipelineCacheStore.defaultDirectory)
    }

    static func makeDefault(lifecycle: AppLifecycle, usePushDescriptors: Bool,
                            pushConstantBytes: Bool = environment("GPU_PUSH_CONSTANTS") != "0",
                            cacheDirectory: String?) throws(GPUError) -> Device {
        let chosen = try choose(from: physicalDevices(), selector: environment("GPU_DEVICE"))
        return try Device(physical: chosen, lifecycle: lifecycle, usePushDescriptors: usePushDescriptors,
                          pushConstantBytes: pushConstantBytes, cacheDirectory: cacheDirectory)
    }

    /// The device `selector` names (an index, or a case-insensitive name substring), or the
    /// first candidate when there is no selector.
    static func choose(from candidates: [PhysicalDevice], selector: String?) throws(GPUError) -> PhysicalDevice {
        guard !candidates.isEmpty else { throw .noDevice }
        guard let selector else { return candidates[0] }
        if let index = Int(selector), candidates.indices.contains(index) { return candidates[index] }
        if let match = candidates.first(where: { $0.name.lowercased().contains(selector.lowercased()) }) { return match }
        throw .noMatchingDevice(selector: selector, available: candidates.map(\.name))
    }

    /// Every usable device, in the default order, each opened anew.
    public static func all(lifecycle: AppLifecycle = .shared) throws(GPUError) -> [Device] {
        var devices: [Device] = []
        for physical in try physicalDevices() {
            devices.append(try Device(physical: physical, lifecycle: lifecycle, usePushDescriptors: true,
                                      cacheDirectory: PipelineCacheStore.defaultDirectory))
        }
        return devices
    }

    static func physicalDevices() throws(GPUError) -> [PhysicalDevice] {
        try ordered(BackendInstance.shared().physicalDevices())
    }

    /// `found` in the default order: discrete, integrated, virtual, then CPU devices, each
    /// kind in the instance's order.
    static func ordered(_ found: [PhysicalDevice]) -> [PhysicalDevice] {
        found.enumerated().sorted { ($0.element.preference, $0.offset) < ($1.element.preference, $1.offset) }.map(\.element)
    }

    /// Makes a command queue. `makeCommandBuffer()` blocks while `maxCommandBufferCount`
    /// buffers are alive and not yet completed. `qos` schedules the queue's
    /// completion thread, which runs completed handlers.
    public func makeCommandQueue(maxCommandBufferCount: Int = 64, label: String? = nil,
                                 qos: DispatchQoS.QoSClass = .default) throws(GPUError) -> CommandQueue {
        try makeCommandQueue(maxCommandBufferCount: maxCommandBufferCount, label: label, qos: qos,
                             candidateClock: Recycler.candidateClock)
    }

    /// `makeCommandQueue`, with the clock of its recycler's give-up timer (tests pass a
    /// virtual one).
    func makeCommandQueue(maxCommandBufferCount: Int = 64, label: String? = nil, qos: DispatchQoS.QoSClass = .default,
                          candidateClock: any DisplayClock) throws(GPUError) -> CommandQueue {
        guard maxCommandBufferCount > 0 else {
            misuse("makeCommandQueue(maxCommandBufferCount:) needs a count above 0, got \(maxCommandBufferCount)")
        }
        let queue = try CommandQueue(device: self, maxCommandBufferCount: maxCommandBufferCount, label: label, qos: qos,
                                     candidateClock: candidateClock)
        gate.add(queue.engine)
        return queue
    }

    /// Runs `body`'s commands on the device's own queue and waits for them; used to fill
    /// and read resources (`makeTexture`, `replace`, `getBytes`, `makeBuffer(bytes:)`). A
    /// failure reaches the caller as what it is (`GPUError.commandBuffer`).
    func runInternally(_ body: (CommandBuffer) throws(GPUError) -> Void) throws(GPUError) {
        let commandBuffer = try internalQueue().makeCommandBuffer(options: CommandBufferOptions(isInternal: true))
        try body(commandBuffer)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        if let error = commandBuffer.error { throw .commandBuffer(error) }
    }

    /// The device's own queue, made on first use. It holds the device unowned: the device
    /// holds it, and it goes with the device.
    func internalQueue() throws(GPUError) -> CommandQueue {
        try internalQueueLock.withLock { () throws(GPUError) -> CommandQueue in
            if let queue = internalQueueStorage { return queue }
            let queue = try CommandQueue(device: self, maxCommandBufferCount: 4, label: "SwiftGPU.internal",
                                         qos: .default, ownedByDevice: true)
            gate.add(queue.engine)
            internalQueueStorage = queue
            return queue
        }
    }
}
