import CVulkan

/// A uniform block that a `PushConstantPipeline` reads from push constants: the encoder
/// table entry whose `setBytes` data feeds it, and where the data goes.
struct PushConstantSlot {
    var tableIndex: Int
    var stages: VkShaderStageFlags
    var offset: UInt32
    var size: UInt32
}

/// The twin of a render pipeline whose small uniform blocks (those that fit the device's
/// push-constant space, at most 128 bytes in all) are push constants. A draw uses it when
/// every such block is fed by `setVertexBytes` / `setFragmentBytes` with at least the
/// block's size; a block bound to a `Buffer` sends the draw to the original pipeline. The
/// shaders are the same but for the blocks' storage class (`SPIRVModule.movingUniformBlock`),
/// so both pipelines draw the same pixels.
///
/// `@unchecked Sendable`: every stored property is immutable.
final class PushConstantPipeline: BoundPipeline, @unchecked Sendable {
    let backend: VulkanPipeline
    /// The slots still fed through descriptors.
    let slots: [ResourceSlot]
    /// The slots fed through push constants.
    let pushSlots: [PushConstantSlot]
    let functionLabel: String

    private init(backend: VulkanPipeline, slots: [ResourceSlot], pushSlots: [PushConstantSlot], functionLabel: String) {
        self.backend = backend
        self.slots = slots
        self.pushSlots = pushSlots
        self.functionLabel = functionLabel
    }

    /// Whether `table` feeds every push slot with `setBytes` data of at least its size.
    @inline(__always)
    func canDraw(with table: UnsafeMutableBufferPointer<BufferBinding>) -> Bool {
        for slot in pushSlots {
            let binding = table[slot.tableIndex]
            guard binding.bytes != nil, binding.bound.range >= UInt64(slot.size) else { return false }
        }
        return true
    }

    /// The twin of the pipeline made from `configuration`, whose resources are `slots`;
    /// nil when no uniform block can move (none fits, or a shader uses one in a way the
    /// rewrite declines), or when the device does not feed bytes through push constants.
    static func make(device: Device, configuration: RenderPipelineConfiguration, slots: [ResourceSlot],
                     vertex: Function, fragment: Function?, label: String) -> PushConstantPipeline? {
        guard device.feedsBytesThroughPushConstants else { return nil }
        let limit = min(Int(device.backend.physical.limits.maxPushConstantsSize), 128)
        var words: [ShaderStage: [UInt32]] = [.vertex: configuration.vertexWords]
        words[.fragment] = configuration.fragment?.words
        var end = 0
        var pushSlots: [PushConstantSlot] = []
        var remaining: [ResourceSlot] = []
        var ranges: [ShaderStage: (start: UInt32, end: UInt32)] = [:]
        for slot in slots {
            let module = slot.stage == .vertex ? vertex.module : fragment?.module
            let start = (end + 15) & ~15
            guard slot.descriptor == .uniformBuffer, let size = module?.uniformBlockSizes[slot.binding], size > 0,
                  case let rounded = (size + 3) & ~3, start + rounded <= limit,
                  let moved = words[slot.stage].flatMap({
                      SPIRVModule.movingUniformBlock(in: $0, atBinding: slot.binding, toPushConstantOffset: UInt32(start))
                  })
            else {
                remaining.append(slot)
                continue
            }
            words[slot.stage] = moved
            end = start + rounded
            pushSlots.append(PushConstantSlot(tableIndex: slot.tableIndex, stages: VkShaderStageFlags(slot.stage.vkStage.rawValue),
                                              offset: UInt32(start), size: UInt32(rounded)))
            let range = ranges[slot.stage] ?? (UInt32(start), UInt32(end))
            ranges[slot.stage] = (range.start, UInt32(end))
        }
        guard !pushSlots.isEmpty else { return nil }
        var twin = configuration
        twin.vertexWords = words[.vertex]!
        twin.fragment = configuration.fragment.map { (words[.fragment]!, $0.entry) }
        twin.bindings = remaining.map(\.layoutBinding)
        twin.pushConstantRanges = ranges.map { stage, range in
            VkPushConstantRange(stageFlags: VkShaderStageFlags(stage.vkStage.rawValue), offset: range.start,
                                size: range.end - range.start)
        }
        guard let backend = try? VulkanPipeline.render(device: device.backend, configuration: twin,
                                                       cache: device.pipelineCache.cache)
        else { return nil }
        return PushConstantPipeline(backend: backend, slots: remaining, pushSlots: pushSlots, functionLabel: label)
    }
}

extension ResourceSlot {
    /// The slot's binding in a pipeline's descriptor-set layout.
    var layoutBinding: VulkanPipeline.LayoutBinding {
        VulkanPipeline.LayoutBinding(binding: binding, type: descriptor.vkDescriptorType,
                                     stages: VkShaderStageFlags(stage.vkStage.rawValue))
    }
}
