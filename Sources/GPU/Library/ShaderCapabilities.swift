import SPIRVValidation

/// The SPIR-V capabilities and extensions a module may declare: those Vulkan 1.3 grants
/// without a device feature (among them reads and writes of storage images without a format,
/// which Vulkan 1.3 grants for each format whose features include
/// `STORAGE_READ_WITHOUT_FORMAT` or `STORAGE_WRITE_WITHOUT_FORMAT`: each dispatch and draw
/// checks the bound texture's format),
/// and physical storage buffer addresses (buffer references),
/// whose feature Vulkan 1.3 requires and SwiftGPU enables; and, where the device offers
/// their features, 8- and 16-bit integers in buffers (checked when a pipeline is made).
/// SwiftGPU enables no other shader feature (no 64-bit or 16-bit arithmetic, geometry,
/// tessellation, subgroup operations, ...), and a driver given a module that declares one
/// may crash or miscompile, so such a module is refused before any driver call.
enum ShaderCapabilities {
    /// Capabilities by number, with their names.
    static let allowed: [UInt32: String] = [
        0: "Matrix", 1: "Shader", 40: "InputAttachment", 43: "Sampled1D", 44: "Image1D", 46: "SampledBuffer",
        47: "ImageBuffer", 50: "ImageQuery", 51: "DerivativeControl", 55: "StorageImageReadWithoutFormat",
        56: "StorageImageWriteWithoutFormat",
        4437: "DeviceGroup",
        5347: "PhysicalStorageBufferAddresses",
    ]

    /// Extensions that bring no capability of their own, or only allowed ones.
    static let allowedExtensions: Set<String> = [
        "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_non_semantic_info", "SPV_KHR_terminate_invocation",
        "SPV_GOOGLE_decorate_string", "SPV_GOOGLE_hlsl_functionality1", "SPV_GOOGLE_user_type", "SPV_KHR_device_group",
        "SPV_KHR_physical_storage_buffer", "SPV_EXT_physical_storage_buffer", "SPV_KHR_8bit_storage", "SPV_KHR_16bit_storage",
    ]

    /// Capabilities allowed where the device enabled a feature, with the feature's name:
    /// 8- and 16-bit integers in storage and uniform buffers.
    static let deviceFeatureCapabilities: [UInt32: (capability: String, feature: String)] = [
        4433: ("StorageBuffer16BitAccess", "storageBuffer16BitAccess"),
        4434: ("UniformAndStorageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess"),
        4448: ("StorageBuffer8BitAccess", "storageBuffer8BitAccess"),
        4449: ("UniformAndStorageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess"),
    ]

    /// Names of capabilities a module might declare and SwiftGPU refuses, for the message.
    private static let refusedNames: [UInt32: String] = [
        2: "Geometry", 3: "Tessellation", 9: "Float16", 10: "Float64", 11: "Int64", 12: "Int64Atomics",
        22: "Int16", 24: "GeometryPointSize", 25: "ImageGatherExtended", 27: "StorageImageMultisample",
        32: "ClipDistance", 33: "CullDistance", 35: "SampleRateShading", 39: "Int8", 49: "StorageImageExtendedFormats",
        54: "GeometryStreams",
        61: "GroupNonUniform", 4427: "DrawParameters", 4439: "MultiView", 5301: "ShaderNonUniform",
        5345: "VulkanMemoryModel",
    ]

    /// Why `words` cannot run on a SwiftGPU device, or nil: the first capability or
    /// extension outside the allowed sets, with the word it is at.
    static func problem(in words: [UInt32]) -> String? {
        var at = 5
        while at < words.count {
            let count = Int(words[at] >> 16), opcode = words[at] & 0xFFFF
            guard count > 0, at + count <= words.count else { return nil } // the validator reports it
            if opcode == 17, count == 2, allowed[words[at + 1]] == nil, deviceFeatureCapabilities[words[at + 1]] == nil {
                let capability = words[at + 1]
                return "word \(at): it declares the capability \(refusedNames[capability] ?? "number \(capability)"), which "
                    + "needs a device feature SwiftGPU does not enable (it runs shaders with the capabilities "
                    + "\(allowed.keys.sorted().map { allowed[$0]! }.joined(separator: ", ")))"
            }
            if opcode == 10 {
                let name = literalString(words[(at + 1)..<(at + count)])
                if !allowedExtensions.contains(name) {
                    return "word \(at): it uses the extension \(name), which SwiftGPU does not enable"
                }
            }
            // Capabilities and extensions come first in a module: stop at the memory model.
            if opcode == 14 { return nil }
            at += count
        }
        return nil
    }

    /// Why `words` cannot run on a device that enabled `features` (Vulkan feature names): the
    /// first capability it declares whose feature is not among them, or nil.
    static func featureProblem(in words: [UInt32], enabled features: Set<String>) -> String? {
        var at = 5
        while at < words.count {
            let count = Int(words[at] >> 16), opcode = words[at] & 0xFFFF
            guard count > 0, at + count <= words.count, opcode != 14 else { return nil }
            if opcode == 17, count == 2, let needed = deviceFeatureCapabilities[words[at + 1]], !features.contains(needed.feature) {
                return "it declares the capability \(needed.capability), which needs the device feature \(needed.feature) "
                    + "that this device does not offer"
            }
            at += count
        }
        return nil
    }

    /// Whether `words` declares the capability to reach buffers through device addresses.
    static func declaresPhysicalStorageBuffers(_ words: [UInt32]) -> Bool {
        var at = 5
        while at < words.count {
            let count = Int(words[at] >> 16), opcode = words[at] & 0xFFFF
            guard count > 0, at + count <= words.count, opcode != 14 else { return false }
            if opcode == 17, count == 2, words[at + 1] == 5347 { return true }
            at += count
        }
        return false
    }

    /// Why `words` cannot run on a device that does (`deviceOffers`) or does not offer the
    /// scalar block layout: nil when it does, or when the module's blocks follow the
    /// std430/std140 rules. Validation at load allows the scalar rules (the layout has no
    /// capability of its own to declare), so a module that breaks only the stricter rules
    /// lays a block out by the scalar ones.
    static func scalarBlockLayoutProblem(in words: [UInt32], deviceOffers: Bool) -> String? {
        guard !deviceOffers, SPIRVValidator.problem(in: words, scalarBlockLayout: false) != nil else { return nil }
        return "it lays a buffer out by the scalar block layout (offsets std430 and std140 do not allow, as for "
            + "Metal's packed vectors), which needs the device feature scalarBlockLayout that this device does not offer"
    }

    /// A SPIR-V literal string: UTF-8 in little-endian words, ending at a zero byte.
    private static func literalString(_ words: ArraySlice<UInt32>) -> String {
        var bytes: [UInt8] = []
        for word in words {
            for shift in stride(from: 0, to: 32, by: 8) {
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
                if byte == 0 { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
