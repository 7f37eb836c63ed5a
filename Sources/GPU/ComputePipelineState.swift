import SwiftGPUSPIRV
import SwiftGPUSupport

/// A compiled compute pipeline, Metal's `MTLComputePipelineState`, with its layout derived
/// from the function's SPIR-V.
///
/// A function whose local size comes from specialization constants
/// (`layout(local_size_x_id = 0) in;`) runs at any threadgroup size the dispatch asks for,
/// as a Metal kernel does: each size is a variant of the pipeline, made once at its first
/// dispatch and kept.
///
/// `@unchecked Sendable`: every stored property is immutable except the variants, which
/// are behind their lock.
public final class ComputePipelineState: @unchecked Sendable {
    /// The device that made the pipeline.
    public let device: Device
    /// The function's name.
    public let functionName: String
    /// The threadgroup size the shader declares (`local_size_*`, or the defaults of its
    /// specialization constants).
    public let threadsPerThreadgroup: Size
    /// The most threads one threadgroup may have: the device's limit for a function whose
    /// local size comes from specialization constants, else the declared size's threads.
    public var maxTotalThreadsPerThreadgroup: Int {
        specializesLocalSize ? device.limits.maxTotalThreadsPerThreadgroup
            : threadsPerThreadgroup.width * threadsPerThreadgroup.height * threadsPerThreadgroup.depth
    }
    /// Threads the device runs in lockstep (Vulkan's subgroup size), Metal's
    /// `threadExecutionWidth`: a threadgroup width that is a multiple of it keeps every
    /// lane busy, as in Apple's 2-D sizing (`width = threadExecutionWidth`, `height =
    /// maxTotalThreadsPerThreadgroup / width`).
    public var threadExecutionWidth: Int { device.limits.threadExecutionWidth }
    /// Metal's `staticThreadgroupMemoryLength`: the bytes of threadgroup (GLSL `shared`)
    /// memory the kernel declares, each variable at its natural size, without its
    /// `[[threadgroup(n)]]` arguments, whose lengths each dispatch sets. (The reflection counts
    /// each such argument as one element, taken off here at Metal's element size.)
    public var staticThreadgroupMemoryLength: Int {
        max(0, function.entryPoint.workgroupMemorySize - threadgroupArguments.reduce(0) { $0 + $1.stride })
    }
    /// Whether the threadgroup size is chosen at dispatch (some dimension of the local size
    /// is a specialization constant).
    public var specializesLocalSize: Bool { localSizeSpecIds.contains { $0 != nil } }
    /// Resources the shader declares: Metal index, Vulkan binding, descriptor kind.
    let slots: [ResourceSlot]
    /// The pipeline at the declared size.
    let base: ComputeVariant
    /// The Vulkan pipeline at the declared size.
    var backend: PipelineObject { base.backend }
    /// The twin whose small uniform blocks are push constants, when it has any.
    var pushConstants: PushConstantPipeline? { base.pushConstants }
    /// For x, y and z: the `SpecId` that sets the local size there, or nil where it is fixed.
    let localSizeSpecIds: [UInt32?]
    /// Where each dispatch binds the grid's size, for an MSL kernel that reads
    /// `[[threads_per_grid]]` or `[[threadgroups_per_grid]]`.
    let gridSizeIndex: Int?
    /// An MSL kernel's `[[threadgroup(n)]]` arguments, sorted by index: each dispatch
    /// gives their lengths (`ComputeCommandEncoder.setThreadgroupMemoryLength(_:index:)`).
    let threadgroupArguments: [ThreadgroupMemoryArgument]
    /// The function, kept to make variants.
    private let function: Function
    /// What a variant is made for: a threadgroup size and the element counts of the
    /// threadgroup memory arguments.
    private struct VariantKey: Hashable {
        var size: Size
        var threadgroupCounts: [UInt32]
    }
    /// Variants at other sizes and threadgroup memory lengths.
    private let variants = LockedValue<[VariantKey: ComputeVariant]>([:], rank: .leaf("ComputePipelineState.variants"))

    init(device: Device, function: Function) throws(LibraryError) {
        guard function.stage == .compute else {
            throw .unsupportedFunction(name: function.name, reason: "it is a \(function.stage) function, not a compute function")
        }
        let entry = function.entryPoint
        guard let local = entry.localSize else {
            throw .unsupportedFunction(name: function.name, reason: "it declares no local size")
        }
        try Self.check(localSize: local, of: function.name, against: device.limits)
        // A module asking for more shared memory than the device has never reaches the
        // driver, which may not check it (a 1 GiB array made lavapipe's pipeline hang).
        guard entry.workgroupMemorySize <= device.limits.maxThreadgroupMemoryLength else {
            throw .unsupportedModule(name: function.name, reason: "it declares \(entry.workgroupMemorySize) bytes of threadgroup "
                + "(shared) memory, over this device's maxThreadgroupMemoryLength of \(device.limits.maxThreadgroupMemoryLength)")
        }
        try function.checkDeviceSupport(on: device)
        slots = ResourceSlot.ordered(try ResourceSlot.slots(of: function, stage: .compute))
        self.device = device
        self.function = function
        functionName = function.name
        localSizeSpecIds = entry.localSizeSpecIds.count == 3 ? entry.localSizeSpecIds : [nil, nil, nil]
        gridSizeIndex = function.gridSizeIndex
        threadgroupArguments = function.threadgroupArguments
        threadsPerThreadgroup = Size(width: Int(local.x), height: Int(local.y), depth: Int(local.z))
        do {
            base = try ComputeVariant(device: device, function: function, slots: slots,
                                      specialization: function.specialization)
        } catch {
            throw .unsupportedFunction(name: function.name, reason: "\(error)")
        }
        device.pipelineCache.saveIfGrown()
    }

    /// The pipeline for threadgroups of `size` whose threadgroup memory arguments hold
    /// `threadgroupCounts` elements (in ``threadgroupArguments``' order): the declared one,
    /// or a variant made on first use (the caller has checked `size` with
    /// `check(threadsPerThreadgroup:call:)`, and the counts).
    func variant(for size: Size, threadgroupCounts: [UInt32] = []) throws(VulkanError) -> ComputeVariant {
        if size == threadsPerThreadgroup && threadgroupCounts.isEmpty { return base }
        let key = VariantKey(size: size, threadgroupCounts: threadgroupCounts)
        if let made = variants.withLock({ $0[key] }) { return made }
        let values = [size.width, size.height, size.depth]
        func constant(_ id: UInt32, _ value: UInt32) -> SpecializationConstant {
            SpecializationConstant(id: id, bytes: withUnsafeBytes(of: value) { Array($0) })
        }
        let specialization = function.specialization
            + zip(localSizeSpecIds, values).compactMap { id, value in id.map { constant($0, UInt32(value)) } }
            + zip(threadgroupArguments, threadgroupCounts).map { constant($0.countId, $1) }
        // Made outside the lock (pipeline creation is slow); a variant made at the same time
        // on another thread is dropped for the one stored first.
        let made = try ComputeVariant(device: device, function: function, slots: slots, specialization: specialization)
        return variants.withLock { variants in
            if let first = variants[key] { return first }
            variants[key] = made
            return made
        }
    }

    /// The element counts of the threadgroup memory arguments, in their order, for the
    /// lengths set at each index (`lengths[i]`, nil where none is). Stops unless every
    /// argument's length is set and holds an element, and the lengths with the memory the
    /// kernel declares fit the device.
    func threadgroupCounts(lengths: [Int?], call: StaticString) -> [UInt32] {
        var total = staticThreadgroupMemoryLength
        return threadgroupArguments.map { argument in
            guard argument.index < lengths.count, let length = lengths[argument.index] else {
                misuse("\(call): '\(functionName)' has threadgroup memory at index \(argument.index), and no length is set "
                    + "there (setThreadgroupMemoryLength)")
            }
            let count = length / argument.stride
            guard count >= 1 else {
                misuse("\(call): the threadgroup memory length \(length) at index \(argument.index) holds no element of "
                    + "'\(functionName)''s argument there, of \(argument.stride) bytes")
            }
            total += count * argument.stride
            guard total <= device.limits.maxThreadgroupMemoryLength else {
                misuse("\(call): '\(functionName)' would use \(total) bytes of threadgroup memory with the lengths set, over "
                    + "this device's maxThreadgroupMemoryLength of \(device.limits.maxThreadgroupMemoryLength)")
            }
            return UInt32(count)
        }
    }

    /// Stops unless a dispatch may use threadgroups of `size`: the declared size for a fixed
    /// local size; for a specialized one, positive and within the device's limits in every
    /// dimension, the declared size in the fixed dimensions.
    func check(threadsPerThreadgroup size: Size, call: StaticString) {
        guard specializesLocalSize else {
            guard size == threadsPerThreadgroup else {
                misuse("\(call): threadsPerThreadgroup \(size) differs from the \(threadsPerThreadgroup) that "
                    + "'\(functionName)' declares (give the shader local_size_x_id to choose the size at dispatch)")
            }
            return
        }
        let values = [size.width, size.height, size.depth], declared = [
            threadsPerThreadgroup.width, threadsPerThreadgroup.height, threadsPerThreadgroup.depth,
        ]
        let limits = device.limits, max = limits.maxThreadsPerThreadgroup
        let maxima = [max.width, max.height, max.depth]
        for axis in 0..<3 {
            if localSizeSpecIds[axis] == nil, values[axis] != declared[axis] {
                misuse("\(call): threadsPerThreadgroup \(size) differs from '\(functionName)' in \(["x", "y", "z"][axis]), "
                    + "where its local size is fixed at \(declared[axis])")
            }
            guard values[axis] >= 1, values[axis] <= maxima[axis] else {
                misuse("\(call): threadsPerThreadgroup \(size) is outside 1...\(maxima[axis]) in \(["x", "y", "z"][axis])")
            }
        }
        guard values[0] * values[1] * values[2] <= limits.maxTotalThreadsPerThreadgroup else {
            misuse("\(call): threadsPerThreadgroup \(size) has more than maxTotalThreadsPerThreadgroup "
                + "(\(limits.maxTotalThreadsPerThreadgroup)) threads")
        }
    }

    /// Throws unless every dimension of `local` is at least 1 and within the device's
    /// limits, per dimension and in total: a driver given a zero or oversized local size
    /// divides by zero or crashes at dispatch.
    private static func check(localSize local: (x: UInt32, y: UInt32, z: UInt32), of name: String,
                              against limits: DeviceLimits) throws(LibraryError) {
        let size = (Int(local.x), Int(local.y), Int(local.z)), max = limits.maxThreadsPerThreadgroup
        var text: String { "\(size.0)×\(size.1)×\(size.2)" }
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

/// A compute pipeline at one local size, with its push-constant twin when it has one.
///
/// `@unchecked Sendable`: every stored property is immutable.
final class ComputeVariant: BoundPipeline, @unchecked Sendable {
    let backend: PipelineObject
    let pushConstants: PushConstantPipeline?
    let slots: [ResourceSlot]
    let functionLabel: String

    init(device: Device, function: Function, slots: [ResourceSlot],
         specialization: [SpecializationConstant]) throws(VulkanError) {
        backend = try PipelineObject(computeWith: device.backend, words: function.module.words,
                                     entryPoint: function.entryPoint.name,
                                     bindings: slots.map(\.layoutBinding),
                                     specialization: specialization, cache: device.pipelineCache.cache)
        pushConstants = PushConstantPipeline.compute(device: device, function: function, slots: slots,
                                                     specialization: specialization)
        self.slots = slots
        functionLabel = function.name
    }
}

/// One resource a pipeline's shaders declare, in each of the three index spaces.
struct ResourceSlot: Sendable {
    /// The index a Metal app binds it at.
    var metalIndex: MetalIndex
    /// The binding in set 0 that the shader declares.
    var binding: ShaderBinding
    var descriptor: SPIRVDescriptorKind
    var isReadOnly: Bool
    /// For a storage image declared without a format, the accesses the bound texture's
    /// format must support (checked at each dispatch or draw); empty otherwise.
    var accessWithoutFormat: SPIRVFormatlessAccess
    /// Whether nothing need be bound: the function leaves the argument out (Metal's
    /// `[[function_constant(c)]]` with c false) or asks `is_null_texture` of it. Where
    /// nothing is, a null descriptor stands (on a device with null descriptors).
    var mayBeUnbound = false
    /// Where the encoder's table keeps what is bound for it, worked out once here rather
    /// than at every draw.
    var tableSlot: TableSlot
    /// The sampler fixed in the layout here (a function's constant sampler), for a sampler
    /// or a combined image sampler, whose texture alone is then set.
    var constantSampler: SamplerState?

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
            guard binding.set == 0, let index = MetalIndex(ShaderBinding(value: binding.binding), stage: stage),
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
            let samples = binding.kind == .sampler || binding.kind == .combinedImageSampler
            slots.append(ResourceSlot(metalIndex: index, binding: ShaderBinding(value: binding.binding),
                                      descriptor: binding.kind, isReadOnly: binding.isReadOnly,
                                      accessWithoutFormat: binding.accessWithoutFormat,
                                      mayBeUnbound: !function.hasArgument(atBinding: binding.binding) || function.nullableBindings.contains(binding.binding),
                                      tableSlot: index.tableSlot,
                                      constantSampler: samples ? function.constantSamplers[index.value] : nil))
        }
        return slots
    }

    /// `slots` in descriptor-write order: the constant samplers of their own binding last,
    /// since a descriptor set (unlike a push) takes no write for them.
    static func ordered(_ slots: [ResourceSlot]) -> [ResourceSlot] {
        slots.filter { !$0.isConstantSampler } + slots.filter(\.isConstantSampler)
    }

    /// A sampler binding fixed in the layout.
    var isConstantSampler: Bool {
        if case .sampler = descriptor { constantSampler != nil } else { false }
    }

    // The kind tests below match the case rather than compare with `==`: the enum is the
    // SPIR-V module's, and `==` on it is a call into that module's generic conformance,
    // made for every slot of every dispatch and draw.

    /// A uniform buffer (its range is capped at the device's limit, its offset aligned to
    /// the uniform alignment).
    var isUniformBuffer: Bool {
        if case .uniformBuffer = descriptor { true } else { false }
    }

    /// A combined image sampler, whose sampler comes from the sampler table unless constant.
    var isCombinedImageSampler: Bool {
        if case .combinedImageSampler = descriptor { true } else { false }
    }

    /// Whether the shader writes what the slot binds: a storage buffer or storage image it
    /// does not declare read-only.
    var isWritten: Bool {
        guard !isReadOnly else { return false }
        switch descriptor {
        case .storageBuffer, .storageImage: return true
        default: return false
        }
    }
}

extension Device {
    /// Makes a compute pipeline from a compute function. Throws when the function is not a
    /// compute function or declares resources outside the binding convention.
    public func makeComputePipelineState(function: Function) throws(LibraryError) -> ComputePipelineState {
        try ComputePipelineState(device: self, function: function)
    }
}
