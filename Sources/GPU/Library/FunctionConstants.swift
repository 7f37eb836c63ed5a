import SwiftGPUSPIRV

/// A constant a function declares, Metal's `MTLFunctionConstant`: in GLSL,
/// `layout(constant_id = index) const type name = default;`, a Vulkan specialization
/// constant.
public struct FunctionConstant: Sendable, Hashable {
    /// The constant's name in the shader; its index as a decimal string (`"3"`) where the
    /// module keeps no names.
    public let name: String
    /// The type of its value.
    public let type: DataType
    /// Its index: the `constant_id` (SPIR-V's `SpecId`).
    public let index: Int
    /// Whether the function cannot be made without a value for it: never, since every
    /// GLSL (and SPIR-V) specialization constant has a default, which stands where no value
    /// is given.
    public let required: Bool
}

/// One specialization constant's value, as a pipeline's specialization info takes it: its
/// `SpecId` and its bytes (4 for a boolean, a `VkBool32`; the type's size otherwise).
struct SpecializationConstant: Sendable, Hashable {
    var id: UInt32
    var bytes: [UInt8]
}

extension Function {
    /// Whether the argument at `binding` is present: it has no `[[function_constant]]`, or
    /// its constant's value is true (not zero; an unset constant is zero).
    func hasArgument(atBinding binding: UInt32) -> Bool {
        guard let id = conditionalBindings[binding] else { return true }
        return specialization.first { $0.id == id }?.bytes.contains { $0 != 0 } ?? false
    }
}

extension Function {
    /// The constants the function declares, Metal's `functionConstantsDictionary`, by
    /// name. The constants a compute function's local size comes from
    /// (`local_size_x_id`) are not among them: each dispatch's threadgroup size sets them;
    /// nor are those its `[[threadgroup(n)]]` arguments' lengths come from.
    /// A constant of a type Metal has no name for (a 64-bit float) is not listed and keeps
    /// its default.
    ///
    /// The constants are the module's: a module with several entry points lists the same
    /// constants for each.
    public var functionConstantsDictionary: [String: FunctionConstant] {
        Dictionary(functionConstants.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The constants the function declares, sorted by index, without the local size's and
    /// its threadgroup memory's.
    var functionConstants: [FunctionConstant] {
        let setByDispatch = Set(entryPoint.localSizeSpecIds.compactMap { $0 } + threadgroupArguments.map(\.countId))
        return module.specializationConstants.compactMap { constant in
            guard !setByDispatch.contains(constant.specId), let type = DataType(constant.type) else { return nil }
            return FunctionConstant(name: constant.name.isEmpty ? "\(constant.specId)" : constant.name, type: type,
                                    index: Int(constant.specId), required: false)
        }
    }
}

extension Library {
    /// The function named `name` specialised with `constantValues`, Metal's
    /// `makeFunction(name:constantValues:)`. Each of the function's constants takes the
    /// value set at its index, else the one set under its name, else keeps the default the
    /// shader gives it (no GLSL constant is required: see ``FunctionConstant/required``).
    /// Pipelines made from the result run with those values; functions specialised
    /// differently make distinct pipelines.
    ///
    /// Throws ``LibraryError/unsupportedFunction(name:reason:)`` when a value's type differs
    /// from its constant's, or when a value is set at the index of a constant the function's
    /// local size comes from (each dispatch's threadgroup size sets those); the other errors
    /// of ``makeFunction(name:)``.
    public func makeFunction(name: String, constantValues: FunctionConstantValues) throws(LibraryError) -> Function {
        var function = try makeFunction(name: name)
        for id in function.entryPoint.localSizeSpecIds.compactMap({ $0 }) where constantValues.byIndex[Int(id)] != nil {
            throw .unsupportedFunction(name: function.name, reason:
                "constant index \(id) sets its local size, which each dispatch's threadsPerThreadgroup chooses")
        }
        for argument in function.threadgroupArguments where constantValues.byIndex[Int(argument.countId)] != nil {
            throw .unsupportedFunction(name: function.name, reason: "constant index \(argument.countId) sets the length of its "
                + "threadgroup memory at index \(argument.index), which setThreadgroupMemoryLength chooses")
        }
        var specialization: [SpecializationConstant] = []
        for constant in function.functionConstants {
            guard let value = constantValues.value(index: constant.index, name: constant.name) else { continue }
            guard value.type == constant.type else {
                throw .unsupportedFunction(name: function.name, reason:
                    "function constant '\(constant.name)' (index \(constant.index)) is of type \(constant.type); "
                    + "the value given for it is of type \(value.type)")
            }
            let bytes = constant.type == .bool ? [value.bytes[0] == 0 ? 0 : 1, 0, 0, 0] : value.bytes
            specialization.append(SpecializationConstant(id: UInt32(constant.index), bytes: bytes))
        }
        function.specialization = specialization
        return function
    }
}
