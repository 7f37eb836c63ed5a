import SwiftGPUSPIRV

/// How Metal's per-stage binding indices map onto Vulkan bindings (all in set 0):
///
/// | stage | buffer index i | texture index i | sampler index i |
/// |---|---|---|---|
/// | compute, vertex | binding i (0–31) | binding 32 + i (32–47) | binding 48 + i (48–63) |
/// | fragment | binding 64 + i | binding 96 + i | binding 112 + i |
///
/// One set, not a set per stage, because a pipeline layout may hold only one
/// push-descriptor set.
enum BindingConvention {
    static let maxBufferIndex = 31
    static let maxTextureIndex = 15
    static let maxSamplerIndex = 15
    /// The last index of `setThreadgroupMemoryLength(_:index:)`, MSL's `[[threadgroup(n)]]`.
    static let maxThreadgroupIndex = 30
    static let fragmentBase: UInt32 = 64

    /// What a Metal slot is.
    enum SlotKind: Sendable, Hashable, CustomStringConvertible {
        case buffer, texture, sampler
        var description: String {
            switch self {
            case .buffer: "buffer"
            case .texture: "texture"
            case .sampler: "sampler"
            }
        }
    }

    /// Whether a descriptor kind fits a slot kind.
    static func accepts(_ kind: SlotKind, _ descriptor: SPIRVDescriptorKind) -> Bool {
        switch (kind, descriptor) {
        case (.buffer, .uniformBuffer), (.buffer, .storageBuffer): true
        case (.texture, .sampledImage), (.texture, .storageImage), (.texture, .combinedImageSampler): true
        case (.sampler, .sampler): true
        default: false
        }
    }
}

// The three index spaces, defined here once.

/// An index as a Metal app writes it: the `index` of `setBuffer(_:offset:index:)`,
/// `setTexture(_:index:)` or `setSamplerState(_:index:)` for one stage (MSL's
/// `[[buffer(i)]]`, `[[texture(i)]]`, `[[sampler(i)]]`).
struct MetalIndex: Hashable, Sendable {
    var stage: ShaderStage
    var kind: BindingConvention.SlotKind
    var value: Int

    /// Where an encoder's binding table for `kind` keeps what is bound here: compute and
    /// vertex indices first, fragment indices after them (buffers at 32, textures and
    /// samplers at 16).
    /// (A `switch`, not `==`: `ShaderStage` lives in another module, where `==` is a call
    /// through its `Equatable` witness on every draw.)
    @inline(__always)
    var tableSlot: TableSlot {
        switch stage {
        case .fragment: TableSlot(value: value + (kind == .buffer ? 32 : 16))
        case .vertex, .compute: TableSlot(value: value)
        }
    }

    /// The binding in descriptor set 0 that the convention gives this index.
    var vulkanBinding: ShaderBinding {
        let base: UInt32 = stage == .fragment ? BindingConvention.fragmentBase : 0
        switch kind {
        case .buffer: return ShaderBinding(value: base + UInt32(value))
        case .texture: return ShaderBinding(value: base + 32 + UInt32(value))
        case .sampler: return ShaderBinding(value: base + 48 + UInt32(value))
        }
    }

    /// An index of `stage`.
    init(stage: ShaderStage, kind: BindingConvention.SlotKind, value: Int) {
        self.stage = stage
        self.kind = kind
        self.value = value
    }

    /// The index a shader's binding in set 0 stands for, or nil when it is outside the
    /// convention for `stage`.
    init?(_ binding: ShaderBinding, stage: ShaderStage) {
        let base: UInt32 = stage == .fragment ? BindingConvention.fragmentBase : 0
        guard binding.value >= base, binding.value < base + 64 else { return nil }
        let local = Int(binding.value - base)
        switch local {
        case 0..<32: self.init(stage: stage, kind: .buffer, value: local)
        case 32..<48: self.init(stage: stage, kind: .texture, value: local - 32)
        default: self.init(stage: stage, kind: .sampler, value: local - 48)
        }
    }
}

/// A position in an encoder's binding table for one kind of resource (see
/// `MetalIndex.tableSlot`).
struct TableSlot: Hashable, Sendable {
    var value: Int
}

/// A binding number in descriptor set 0 of a pipeline's layout, as the SPIR-V declares it.
struct ShaderBinding: Hashable, Sendable {
    var value: UInt32
}
