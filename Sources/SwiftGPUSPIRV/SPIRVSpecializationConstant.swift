/// The scalar type of a specialization constant.
package enum SPIRVConstantType: Sendable, Hashable {
    /// `OpTypeBool`: a value of 4 bytes (a `VkBool32`) specialises it.
    case bool
    /// `OpTypeInt` of `width` bits.
    case int(width: UInt32, signed: Bool)
    /// `OpTypeFloat` of `width` bits.
    case float(width: UInt32)
}

/// A scalar specialization constant the module declares with a `SpecId`: GLSL's
/// `layout(constant_id = N) const T name = default;`.
package struct SPIRVSpecializationConstant: Sendable, Hashable {
    /// The `SpecId` decoration: the constant's id in a pipeline's specialization info.
    package var specId: UInt32
    /// The constant's `OpName`, `""` where the module has none.
    package var name: String
    /// Its scalar type.
    package var type: SPIRVConstantType
}

extension SPIRVReflector {
    /// The scalar specialization constants with a `SpecId`, sorted by it; the first of
    /// several with the same `SpecId` (one constant's uses, declared again) stands for them.
    package func specializationConstants() -> [SPIRVSpecializationConstant] {
        var byId: [UInt32: SPIRVSpecializationConstant] = [:]
        for (id, typeId) in module.specConstantTypes {
            guard let specId = module.decorations[id]?.specId, byId[specId] == nil else { continue }
            let type: SPIRVConstantType
            switch module.types[typeId] {
            case .bool?: type = .bool
            case .int(let width, let signed)?: type = .int(width: width, signed: signed)
            case .float(let width)?: type = .float(width: width)
            default: continue
            }
            byId[specId] = SPIRVSpecializationConstant(specId: specId, name: module.names[id] ?? "", type: type)
        }
        return byId.values.sorted { $0.specId < $1.specId }
    }
}
