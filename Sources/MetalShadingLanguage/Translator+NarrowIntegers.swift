/// 8- and 16-bit integers (`char`, `uchar`, `short`, `ushort` and their vectors) in
/// registers: GLSL holds them in 32-bit `int` and `uint` (SwiftGPU enables no 8- or 16-bit
/// arithmetic), and the translation wraps a value wherever C++ would narrow it, so every
/// value of such a type stays within the type's range. Scalar arithmetic needs no wrapping,
/// since C++ promotes the operands to `int` as GLSL computes; vector arithmetic keeps the
/// vector's type and is wrapped.
extension ScalarType {
    /// Whether it is an 8- or 16-bit integer.
    var isNarrowInteger: Bool { self == .char || self == .uchar || self == .short || self == .ushort }

    /// The range of its values, for the integers and `bool`.
    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .bool: 0...1
        case .char: -128...127
        case .uchar: 0...255
        case .short: -32768...32767
        case .ushort: 0...65535
        case .int: Int64(Int32.min)...Int64(Int32.max)
        case .uint: 0...Int64(UInt32.max)
        case .half, .float: nil
        }
    }

    /// Whether every value of `self` is a value of `target`, which converting then keeps.
    func fits(in target: ScalarType) -> Bool {
        guard let from = integerRange, let to = target.integerRange else { return false }
        return to.contains(from.lowerBound) && to.contains(from.upperBound)
    }
}

extension MSLType {
    /// The first 8- or 16-bit integer scalar or vector it is or holds (in an array, or a
    /// struct's member, structs looked up in `program`), or nil.
    func narrowInteger(_ program: Program) -> MSLType? {
        switch self {
        case .scalar(let scalar), .vector(let scalar, _): return scalar.isNarrowInteger ? self : nil
        case .array(let element, _): return element.narrowInteger(program)
        case .structure(let name):
            for member in program.structs[name]?.members ?? [] {
                if let found = member.type.narrowInteger(program) { return found }
            }
            return nil
        default: return nil
        }
    }
}

extension Translator {
    /// `code`, a 32-bit GLSL value, wrapped to `type`'s range when `type` is (a vector of) an
    /// 8- or 16-bit integer: the low bits, sign-extended for `char` and `short`.
    func wrapped(_ code: String, to type: MSLType) -> String {
        switch type.scalar {
        case .uchar?: "(\(code) & 0xFFu)"
        case .ushort?: "(\(code) & 0xFFFFu)"
        case .char?: "((\(code) << 24) >> 24)"
        case .short?: "((\(code) << 16) >> 16)"
        default: code
        }
    }

    /// `++x`, `--x`, `x++` or `x--` of an 8- or 16-bit integer (or vector), wrapped: the
    /// postfix forms give the old value by undoing the step, wrapped again.
    func narrowIncrement(_ target: Value, _ op: String, prefix: Bool) -> String {
        let sign = op == "++" ? "+" : "-", undo = op == "++" ? "-" : "+"
        let one = target.type.scalar!.isUnsigned ? "1u" : "1"
        let stepped = "(\(target.code) = \(wrapped("(\(target.code) \(sign) \(one))", to: target.type)))"
        return prefix ? stepped : wrapped("(\(stepped) \(undo) \(one))", to: target.type)
    }

    /// Refuses 8- and 16-bit integers where memory or another stage sees their size: their
    /// storage needs device features SwiftGPU does not enable.
    func checkNoNarrowIntegers(_ type: MSLType, in place: String, at location: SourceLocation) throws(Diagnostic) {
        if let narrow = type.narrowInteger(program) {
            let inside = narrow == type ? "" : " in '\(type)'"
            throw .unsupported(location, "8- and 16-bit integers \(place) ('\(narrow)'\(inside); SwiftGPU enables no 8- or 16-bit storage)")
        }
    }
}
