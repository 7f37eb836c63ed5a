/// 8- and 16-bit integers (`char`, `uchar`, `short`, `ushort` and their vectors) in
/// registers: GLSL holds them in 32-bit `int` and `uint` (SwiftGPU enables no 8- or 16-bit
/// arithmetic), and the translation wraps a value wherever C++ would narrow it, so every
/// value of such a type stays within the type's range. In buffers they are GLSL's 8- and
/// 16-bit storage types, converted to and from the register form as they are read and
/// written. Scalar arithmetic needs no wrapping,
/// since C++ promotes the operands to `int` as GLSL computes; vector arithmetic keeps the
/// vector's type and is wrapped.
extension ScalarType {
    /// Whether it is an 8- or 16-bit integer.
    var isNarrowInteger: Bool { self == .char || self == .uchar || self == .short || self == .ushort }

    /// Whether a buffer holds it in fewer than 32 bits: an 8- or 16-bit integer, `half`, or
    /// `bool` (one byte in Metal).
    var isStoredNarrow: Bool { isNarrowInteger || self == .half || self == .bool }

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
    func narrowInteger(_ program: Program) -> MSLType? { first(program) { $0.isNarrowInteger } }

    /// The first scalar or vector it is or holds that a buffer stores in fewer than 32 bits
    /// (an 8- or 16-bit integer, `half` or `bool`), or nil.
    func storedNarrow(_ program: Program) -> MSLType? { first(program) { $0.isStoredNarrow } }

    /// The first scalar or vector it is or holds whose scalar is `matching`.
    private func first(_ program: Program, _ matching: (ScalarType) -> Bool) -> MSLType? {
        switch self {
        case .scalar(let scalar), .vector(let scalar, _): return matching(scalar) ? self : nil
        case .array(let element, _): return element.first(program, matching)
        case .structure(let name):
            for member in program.structs[name]?.members ?? [] {
                if let found = member.type.first(program, matching) { return found }
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
        let read = target.storage ? Self.registerConversion(target.code, target.type) : target.code
        var step = wrapped("(\(read) \(sign) \(one))", to: target.type)
        if target.storage { step = Self.storageConversion(step, target.type) }
        var stepped = "(\(target.code) = \(step))"
        if target.storage { stepped = Self.registerConversion(stepped, target.type) }
        return prefix ? stepped : wrapped("(\(stepped) \(undo) \(one))", to: target.type)
    }

    /// Refuses 8- and 16-bit integers where another stage or an attachment sees their size:
    /// 16-bit stage inputs and outputs need a device feature SwiftGPU does not enable, and
    /// Vulkan has no 8-bit ones.
    func checkNoNarrowIntegers(_ type: MSLType, in place: String, at location: SourceLocation) throws(Diagnostic) {
        if let narrow = type.narrowInteger(program) {
            let inside = narrow == type ? "" : " in '\(type)'"
            throw .unsupported(location, "8- and 16-bit integers \(place) ('\(narrow)'\(inside); SwiftGPU enables no 8- or 16-bit stage inputs and outputs)")
        }
    }

    /// Whether a variable names a buffer's bytes that hold 8- or 16-bit integers or `half`.
    func inStorage(_ variable: Variable) -> Bool {
        variable.buffer != nil && variable.type.storedNarrow(program) != nil
    }

    /// GLSL's 8- or 16-bit storage type of a narrow scalar or vector (`u8vec4`, `int16_t`,
    /// `f16vec4`).
    static func storageName(_ scalar: ScalarType, _ count: Int?) -> String {
        if scalar == .half { return count.map { "f16vec\($0)" } ?? "float16_t" }
        if scalar == .bool { return count.map { "u8vec\($0)" } ?? "uint8_t" }   // Metal's one byte
        let bits = scalar.size * 8, signed = !scalar.isUnsigned
        guard let count else { return "\(signed ? "int" : "uint")\(bits)_t" }
        return "\(signed ? "i" : "u")\(bits)vec\(count)"
    }

    /// `code`, a narrow scalar or vector in storage, as its 32-bit register form.
    static func registerConversion(_ code: String, _ type: MSLType) -> String {
        switch type {
        case .scalar(.bool): "(uint(\(code)) != 0u)"
        case .vector(.bool, let count): "notEqual(uvec\(count)(\(code)), uvec\(count)(0u))"
        case .scalar(let scalar): "\(scalar.glsl)(\(code))"
        case .vector(let scalar, let count): "\(scalar.glslVectorPrefix)\(count)(\(code))"
        default: code
        }
    }

    /// `code`, a narrow scalar or vector in its register form (within its range), as its
    /// storage type.
    static func storageConversion(_ code: String, _ type: MSLType) -> String {
        switch type {
        case .scalar(.bool): "uint8_t(uint(\(code)))"
        case .vector(.bool, let count): "u8vec\(count)(uvec\(count)(\(code)))"
        case .scalar(let scalar): "\(storageName(scalar, nil))(\(code))"
        case .vector(let scalar, let count): "\(storageName(scalar, count))(\(code))"
        default: code
        }
    }

    /// The GLSL type a buffer block declares `type` with: 8- and 16-bit integers as GLSL's
    /// 8- and 16-bit storage types, a struct that holds one as its storage twin.
    mutating func storageType(_ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> String {
        switch type {
        case .scalar(let scalar) where scalar.isStoredNarrow:
            extensions.insert(scalar.size == 1 ? "GL_EXT_shader_8bit_storage" : "GL_EXT_shader_16bit_storage")
            return Self.storageName(scalar, nil)
        case .vector(let scalar, let count) where scalar.isStoredNarrow:
            extensions.insert(scalar.size == 1 ? "GL_EXT_shader_8bit_storage" : "GL_EXT_shader_16bit_storage")
            return Self.storageName(scalar, count)
        case .structure(let name) where type.storedNarrow(program) != nil:
            try emitStorageStruct(name, at: location)
            return "mslg_storage_" + GLSLNames.identifier(name)
        case .array(let element, let count):
            return try storageType(element, at: location) + "[\(count)]"
        default:
            return try glslType(type, at: location)
        }
    }

    /// Declares the storage twin of struct `name` (which holds an 8- or 16-bit integer):
    /// its members with `storageType`'s types, padded as the struct is.
    mutating func emitStorageStruct(_ name: String, at location: SourceLocation) throws(Diagnostic) {
        guard !emittedStorageStructs.contains(name) else { return }
        emittedStorageStructs.insert(name)
        try emitStruct(name, at: location)
        try declareStruct(name, as: "mslg_storage_" + GLSLNames.identifier(name), storage: true)
    }

    /// `code`, a buffer's bytes of `type` declared with `storageType`'s types, read as the
    /// register form the rest of the translation computes with.
    mutating func load(_ code: String, _ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> String {
        guard type.storedNarrow(program) != nil else { return code }
        switch type {
        case .structure(let name):
            var members: [String] = []
            for member in program.structs[name]?.members ?? [] {
                members.append(try load("\(code).\(GLSLNames.identifier(member.name))", member.type, at: location))
            }
            return try structValue(name, members, at: location)
        case .array(let element, let count):
            var elements: [String] = []
            for index in 0..<count { elements.append(try load("\(code)[\(index)]", element, at: location)) }
            return "\(try glslType(type, at: location))(\(elements.joined(separator: ", ")))"
        default:
            return Self.registerConversion(code, type)
        }
    }

    /// `code`, a value of `type` in its register form, as a buffer's 8- or 16-bit storage
    /// type; a whole struct or array that holds one is refused.
    func store(_ code: String, _ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> String {
        guard type.isScalarOrVector else {
            throw .unsupported(location, "assigning a whole '\(type)' that holds 8- or 16-bit values in a buffer (assign its members)")
        }
        return Self.storageConversion(code, type)
    }
}
