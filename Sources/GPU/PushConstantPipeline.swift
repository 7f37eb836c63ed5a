import SPIRVValidation
import SwiftGPUSPIRV

/// A uniform block that a `PushConstantPipeline` reads from push constants: the encoder
/// table entry whose `setBytes` data feeds it, and where the data goes.
struct PushConstantSlot {
    var tableSlot: TableSlot
    var stage: ShaderStage
    var offset: UInt32
    var size: UInt32
}

/// The push-constant bytes one stage reads: a range of a pipeline layout.
struct PushConstantRange {
    var stage: ShaderStage
    var offset: UInt32
    var size: UInt32
}

/// The twin of a render or compute pipeline whose small uniform blocks (those that fit the
/// device's push-constant space, at most 128 bytes in all) are push constants. A draw or
/// dispatch uses it when every such block is fed by `setBytes` (or `setVertexBytes` /
/// `setFragmentBytes`) with at least the block's size; a block bound to a `Buffer` sends
/// the command to the original pipeline. The shaders are the same but for the blocks'
/// storage class (`SPIRVModule.movingUniformBlock`), so both pipelines give the same
/// results.
///
/// `@unchecked Sendable`: every stored property is immutable.
final class PushConstantPipeline: BoundPipeline, @unchecked Sendable {
    let backend: PipelineObject
    /// The slots still fed through descriptors.
    let slots: [ResourceSlot]
    /// The slots fed through push constants.
    let pushSlots: [PushConstantSlot]
    /// Their buffer table slots (bit n: slot n).
    let pushSlotMask: UInt64
    let functionLabel: String

    private init(backend: PipelineObject, slots: [ResourceSlot], pushSlots: [PushConstantSlot], functionLabel: String) {
        self.backend = backend
        self.slots = slots
        self.pushSlots = pushSlots
        pushSlotMask = pushSlots.reduce(0) { $0 | 1 << UInt64($1.tableSlot.value) }
        self.functionLabel = functionLabel
    }

    /// Whether `table` feeds every push slot with `setBytes` data of at least its size.
    @inline(__always)
    func canDraw(with table: UnsafeMutableBufferPointer<BufferBinding>) -> Bool {
        for slot in pushSlots {
            let binding = table[slot.tableSlot.value]
            guard binding.bytes != nil, binding.bound.range >= UInt64(slot.size) else { return false }
        }
        return true
    }

    /// Where a pipeline's small uniform blocks go in push constants, and the shaders
    /// rewritten for it.
    private struct Plan {
        var words: [ShaderStage: [UInt32]]
        var pushSlots: [PushConstantSlot] = []
        var remaining: [ResourceSlot] = []
        var ranges: [PushConstantRange] = []
    }

    /// The plan for `slots` of the functions' `modules`; nil when no uniform block can move
    /// (none fits, or a shader uses one in a way the rewrite declines), or when the device
    /// does not feed bytes through push constants.
    private static func plan(device: Device, slots: [ResourceSlot], modules: [ShaderStage: SPIRVModule]) -> Plan? {
        guard device.feedsBytesThroughPushConstants else { return nil }
        let limit = min(device.limits.maxPushConstantBytes, 128)
        var plan = Plan(words: modules.mapValues(\.words))
        var end = 0
        var ranges: [ShaderStage: (start: Int, end: Int)] = [:]
        for slot in slots {
            let start = (end + 15) & ~15
            guard slot.descriptor == .uniformBuffer, let size = modules[slot.stage]?.uniformBlockSizes[slot.binding.value], size > 0,
                  case let rounded = (size + 3) & ~3, start + rounded <= limit,
                  let moved = plan.words[slot.stage].flatMap({
                      SPIRVModule.movingUniformBlock(in: $0, atBinding: slot.binding.value, toPushConstantOffset: UInt32(start))
                  })
            else {
                plan.remaining.append(slot)
                continue
            }
            plan.words[slot.stage] = moved
            end = start + rounded
            plan.pushSlots.append(PushConstantSlot(tableSlot: slot.tableSlot, stage: slot.stage,
                                                   offset: UInt32(start), size: UInt32(rounded)))
            ranges[slot.stage] = (ranges[slot.stage]?.start ?? start, end)
        }
        guard !plan.pushSlots.isEmpty else { return nil }
        // The rewrite is SwiftGPU's own: a module it got wrong goes to no driver.
        for stage in Set(plan.pushSlots.map(\.stage)) {
            if SPIRVValidator.problem(in: plan.words[stage]!) != nil { return nil }
        }
        plan.ranges = ranges.map { stage, range in
            PushConstantRange(stage: stage, offset: UInt32(range.start), size: UInt32(range.end - range.start))
        }
        return plan
    }

    /// The twin of the render pipeline made from `configuration`, whose resources are
    /// `slots`; nil where `plan` finds nothing to move or the twin cannot be made.
    static func render(device: Device, configuration: RenderPipelineConfiguration, slots: [ResourceSlot],
                       vertex: Function, fragment: Function?, label: String) -> PushConstantPipeline? {
        var modules: [ShaderStage: SPIRVModule] = [.vertex: vertex.module]
        modules[.fragment] = fragment?.module
        guard let plan = plan(device: device, slots: slots, modules: modules) else { return nil }
        var twin = configuration
        twin.vertexWords = plan.words[.vertex]!
        twin.fragment = configuration.fragment.map { (plan.words[.fragment]!, $0.entry) }
        twin.bindings = plan.remaining.map(\.layoutBinding)
        twin.pushConstantRanges = plan.ranges
        guard let backend = try? PipelineObject.render(device: device.backend, configuration: twin,
                                                       cache: device.pipelineCache.cache)
        else { return nil }
        return PushConstantPipeline(backend: backend, slots: plan.remaining, pushSlots: plan.pushSlots, functionLabel: label)
    }

    /// The twin of the compute pipeline of `function`, whose resources are `slots`; nil
    /// where `plan` finds nothing to move or the twin cannot be made; `specialization` as the
    /// pipeline's.
    static func compute(device: Device, function: Function, slots: [ResourceSlot],
                        specialization: [SpecializationConstant]) -> PushConstantPipeline? {
        guard let plan = plan(device: device, slots: slots, modules: [.compute: function.module]),
              let backend = try? PipelineObject(computeWith: device.backend, words: plan.words[.compute]!,
                                                entryPoint: function.entryPoint.name,
                                                bindings: plan.remaining.map(\.layoutBinding),
                                                pushConstantRanges: plan.ranges, specialization: specialization,
                                                cache: device.pipelineCache.cache)
        else { return nil }
        return PushConstantPipeline(backend: backend, slots: plan.remaining, pushSlots: plan.pushSlots,
                                    functionLabel: function.name)
    }
}
