import SwiftGPUSPIRV

/// A compiled compute pipeline, Metal's `MTLComputePipelineState`, with its layout derived
/// from the function's SPIR-V.
///
/// `@unchecked Sendable`: every stored property is immutable.
public final class ComputePipelineState: @unchecked Sendable {
    let backend: VulkanPipeline
    /// The device that made the pipeline.
    public let device: Device
    /// The function's name.
    public let functionName: String
    /// The threadgroup size the shader declares (`local_size_*`); dispatches must use it.
    public let threadsPerThreadgroup: Size
    /// Threads in one threadgroup.
    public var maxTotalThreadsPerThreadgroup: Int {
        threadsPerThreadgroup.width * threadsPerThreadgroup.height * threadsPerThreadgroup.depth
    }
    /// Resources the shader declares: Metal index, Vulkan binding, descriptor kind.
    let slots: [ResourceSlot]
    /// The twin whose small uniform blocks are push constants, when it has any.
    let pushConstants: PushConstantPipeline?

    init(device: Device, function: Function) throws(LibraryError) {
        guard function.stage == .compute else {
            throw .unsupportedFunction(name: function.name, reason: "it is a \(function.stage) function, not a compute function")
        }
        let entry = function.entryPoint
        guard let local = entry.localSize else {
            throw .unsupportedFunction(name: function.name, reason: "it declares no local size")
        }
        try Self.check(localSize: local, of: function.name, against: device.limits)
        slots = try ResourceSlot.slots(of: function, stage: .compute)
        self.device = device
        functionName = function.name
        threadsPerThreadgroup = Size(width: Int(local.x), height: Int(local.y), depth: Int(local.z))
        do {
            backend = try VulkanPipeline(computeWith: device.backend, words: function.module.words,
                                         entryPoint: entry.name, bindings: slots.map(\.layoutBinding),
                                         cache: device.pipelineCache.cache)
        } catch {
            throw .unsupportedFunction(name: function.name, reason: "\(error)")
        }
        pushConstants = PushConstantPipeline.compute(device: device, function: function, slots: slots)
        device.pipelineCache.saveIfGrown()
    }

    /// Throws unless every dimension of `local` is at least 1 and within the device's
    /// limits, per dimension and in total: a driver given a zero or oversized local size
    /// divides by zero or crashes at dispatch.
    private static func check(localSize local: (x: UInt32, y: UInt32, z: UInt32), of name: String,
                              against limits: DeviceLimits) throws(LibraryError) {
        let size = (Int(local.x), Int(local.y), Int(local.z)), max = limits.maxThreadsPerThreadgroup
        let text = "\(size.0)×\(size.1)×\(size.2)"
        guard size.0 > 0, size.1 > 0, size.2 > 0 else {
            throw .unsupportedFunction(name: name, reason: "its local size \(text) has a zero dimension")
        }
        guard size.0 <= max.width, size.1 <= max.height, size.2 <= max.depth else {
            throw .unsupportedFunction(name: name, reason:
                "its local size \(text) exceeds this device's maximum \(max.width)×\(max.height)×\(max.depth)")
        }
        let total = size.0 * size.1 * size.2
        guard total <= limits.maxTotalThreadsPerThreadgroup else {
            throw .unsupportedFunction(name: name, reason:
                "its local size \(text) has \(total) invocations, over this device's maximum of "
                + "\(limits.maxTotalThreadsPerThreadgroup) per threadgroup")
        }
    }
}

/// One resource a pipeline's shaders declare, in each of the three index spaces.
struct ResourceSlot: Sendable, Hashable {
    /// The index a Metal app binds it at.
    var metalIndex: MetalIndex
    /// The binding in set 0 that the shader declares.
    var binding: VulkanBinding
    var descriptor: SPIRVDescriptorKind
    var isReadOnly: Bool
    /// Where the encoder's table keeps what is bound for it, worked out once here rather
    /// than at every draw.
    var tableSlot: TableSlot

    var stage: ShaderStage { metalIndex.stage }
    var kind: BindingConvention.SlotKind { metalIndex.kind }
    var index: Int { metalIndex.value }

    /// Checks `function`'s bindings against the convention and returns its slots.
    static func slots(of function: Function, stage: ShaderStage) throws(LibraryError) -> [ResourceSlot] {
        let entry = function.entryPoint
        if entry.pushConstantSize > 0 {
            throw .unsupportedFunction(name: function.name, reason:
                "it declares push constants; declare a uniform block at a buffer index and use setBytes instead")
        }
        var slots: [ResourceSlot] = []
        for binding in entry.bindings {
            guard binding.set == 0, let index = MetalIndex(VulkanBinding(value: binding.binding), stage: stage),
                  BindingConvention.accepts(index.kind, binding.kind)
            else {
                throw .unsupportedFunction(name: function.name, reason:
                    "'\(binding.name)' at set \(binding.set) binding \(binding.binding) (\(binding.kind)) is outside "
                    + "SwiftGPU's binding convention (set 0; buffers at 0–31, textures at 32–47, samplers at 48–63"
                    + (stage == .fragment ? ", plus 64 for fragment functions)" : ")"))
            }
            guard binding.count == 1 else {
                throw .unsupportedFunction(name: function.name, reason: "'\(binding.name)' is an array of descriptors")
            }
            slots.append(ResourceSlot(metalIndex: index, binding: VulkanBinding(value: binding.binding),
                                      descriptor: binding.kind, isReadOnly: binding.isReadOnly, tableSlot: index.tableSlot))
        }
        return slots
    }
}

extension Device {
    /// Makes a compute pipeline from a compute function. Throws when the function is not a
    /// compute function or declares resources outside the binding convention.
    public func makeComputePipelineState(function: Function) throws(LibraryError) -> ComputePipelineState {
        try ComputePipelineState(device: self, function: function)
    }
}
