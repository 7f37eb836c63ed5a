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

    /// The Vulkan binding of a stage's slot.
    static func binding(stage: ShaderStage, kind: SlotKind, index: Int) -> UInt32 {
        let base: UInt32 = stage == .fragment ? fragmentBase : 0
        switch kind {
        case .buffer: return base + UInt32(index)
        case .texture: return base + 32 + UInt32(index)
        case .sampler: return base + 48 + UInt32(index)
        }
    }

    /// The slot a reflected binding occupies, or nil when it is outside the convention for
    /// `stage`.
    static func slot(of binding: SPIRVBinding, stage: ShaderStage) -> (kind: SlotKind, index: Int)? {
        let base: UInt32 = stage == .fragment ? fragmentBase : 0
        guard binding.set == 0, binding.binding >= base, binding.binding < base + 64 else { return nil }
        let local = Int(binding.binding - base)
        switch local {
        case 0..<32: return (.buffer, local)
        case 32..<48: return (.texture, local - 32)
        default: return (.sampler, local - 48)
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
