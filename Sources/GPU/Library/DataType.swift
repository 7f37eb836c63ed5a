import SwiftGPUSPIRV

/// The type of a function constant's value, Metal's `MTLDataType` (its scalar cases: the
/// types a SPIR-V specialization constant can have that Metal has too).
public enum DataType: Sendable, Hashable {
    /// A boolean: one byte in ``FunctionConstantValues``, GLSL's `bool`.
    case bool
    /// An 8-bit signed integer (GLSL `int8_t`).
    case char
    /// An 8-bit unsigned integer (GLSL `uint8_t`).
    case uchar
    /// A 16-bit signed integer (GLSL `int16_t`).
    case short
    /// A 16-bit unsigned integer (GLSL `uint16_t`).
    case ushort
    /// A 32-bit signed integer (GLSL `int`).
    case int
    /// A 32-bit unsigned integer (GLSL `uint`).
    case uint
    /// A 64-bit signed integer (GLSL `int64_t`).
    case long
    /// A 64-bit unsigned integer (GLSL `uint64_t`).
    case ulong
    /// A 16-bit float (GLSL `float16_t`).
    case half
    /// A 32-bit float (GLSL `float`).
    case float

    /// The bytes a value of the type takes in memory, as ``FunctionConstantValues`` reads it.
    var size: Int {
        switch self {
        case .bool, .char, .uchar: 1
        case .short, .ushort, .half: 2
        case .int, .uint, .float: 4
        case .long, .ulong: 8
        }
    }

    /// The type of a specialization constant of `type`; nil for a 64-bit float, which
    /// Metal has no type for, and for widths no shader can declare.
    init?(_ type: SPIRVConstantType) {
        switch type {
        case .bool: self = .bool
        case .int(8, let signed): self = signed ? .char : .uchar
        case .int(16, let signed): self = signed ? .short : .ushort
        case .int(32, let signed): self = signed ? .int : .uint
        case .int(64, let signed): self = signed ? .long : .ulong
        case .float(16): self = .half
        case .float(32): self = .float
        default: return nil
        }
    }
}
