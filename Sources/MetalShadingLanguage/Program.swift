/// The declarations of a translation unit with their names resolved: structs with their
/// members' types, enumerators with their values, aliases, global constants and
/// functions. Each entry point is translated from it.
struct Program {
    /// A struct's resolved members.
    struct StructInfo {
        /// One member.
        struct Member {
            /// The member's name.
            var name: String
            /// Its type.
            var type: MSLType
            /// Its attributes (`[[position]]`, `[[attribute(0)]]`).
            var attributes: [Attribute]
            /// Where it is declared.
            var location: SourceLocation
            /// Whether it is a packed vector (`packed_float3`) or an array of them: a vector
            /// in expressions, aligned to its scalar in memory.
            var packed = false
            /// Its default member initializer (`float3 emitted { 0 };`), which value and
            /// aggregate initialization use where they give the member no value.
            var defaultValue: Expression?
        }
        /// The struct's name.
        var name: String
        /// The members in order.
        var members: [Member]
        /// Where it is declared.
        var location: SourceLocation
        /// Whether it is packed (`__attribute__((packed))`): each member right after the
        /// one before, the struct aligned to 1.
        var packed = false
        /// The alignment it asks for (`aligned(n)`, `alignas(n)`), if any.
        var alignment: Int?
    }

    /// A global constant or `constexpr sampler`.
    struct Global {
        /// Its declared type.
        var type: DeclaredType
        /// Its declarator.
        var declarator: Declarator
    }

    var structs: [String: StructInfo] = [:]
    var aliases: [String: DeclaredType] = [:]
    /// Enumerators, by plain and by qualified name (`Index::vertices`).
    var enumerators: [String: (value: Int64, type: ScalarType)] = [:]
    /// Enumeration names, with their underlying types.
    var enumerations: [String: ScalarType] = [:]
    var globals: [String: Global] = [:]
    var functions: [String: [FunctionDeclaration]] = [:]
    /// Functions declared without a body, which Metal links from another file.
    var declaredOnly: Set<String> = []
    var entryPoints: [FunctionDeclaration] = []
    /// Aliases being resolved, to refuse one that names itself.
    private var resolving: Set<String> = []

    /// The program of `declarations`, or the first error in them.
    init(_ declarations: [TopLevelDeclaration]) throws(Diagnostic) {
        for declaration in declarations {
            switch declaration {
            case .structure(let structure):
                try declareStruct(structure)
                for method in structure.methods { try declareFunction(method) }
            case .enumeration(let enumeration):
                try declareEnumeration(enumeration)
            case .alias(let name, let type, let location):
                guard aliases[name] == nil, structs[name] == nil else {
                    if structs[name] != nil, type.base.name == name { continue }
                    throw Diagnostic(location, "redefinition of '\(name)'")
                }
                if type.indirection != .none || type.addressSpace != nil {
                    throw .unsupported(location, "aliases of pointer and reference types")
                }
                aliases[name] = type
            case .variable(let variable):
                for declarator in variable.declarators {
                    guard globals[declarator.name] == nil else {
                        throw Diagnostic(declarator.location, "redefinition of '\(declarator.name)'")
                    }
                    globals[declarator.name] = Global(type: variable.type, declarator: declarator)
                }
            case .function(let function):
                try declareFunction(function)
            }
        }
    }

    /// Declares a function: an entry point, a helper (one of its overloads), or one declared
    /// here and defined elsewhere.
    private mutating func declareFunction(_ function: FunctionDeclaration) throws(Diagnostic) {
        guard function.body != nil else {
            declaredOnly.insert(function.name)
            return
        }
        if function.stage != nil {
            if entryPoints.contains(where: { $0.name == function.name }) {
                throw Diagnostic(function.location, "redefinition of '\(function.name)'")
            }
            entryPoints.append(function)
        } else {
            // Two bodies for one signature: C++'s redefinition, which namespaces
            // joined in the file's scope (0117) also meet.
            func signature(_ declaration: FunctionDeclaration) -> [String] {
                declaration.parameters.map { "\($0.type.base.name) \($0.type.indirection) \($0.declarator.arraySizes.count)" }
            }
            if functions[function.name]?.contains(where: { signature($0) == signature(function) }) == true {
                throw Diagnostic(function.location, "redefinition of '\(function.name)'")
            }
            functions[function.name, default: []].append(function)
        }
    }

    private mutating func declareStruct(_ structure: StructDeclaration) throws(Diagnostic) {
        guard structs[structure.name] == nil else {
            throw Diagnostic(structure.location, "redefinition of '\(structure.name)'")
        }
        var members: [StructInfo.Member] = []
        for (type, declarator) in structure.members {
            if type.indirection != .none {
                throw .unsupported(declarator.location, "pointer and reference members (in '\(structure.name)')")
            }
            if members.contains(where: { $0.name == declarator.name }) {
                throw Diagnostic(declarator.location, "duplicate member '\(declarator.name)'")
            }
            // Packed vectors are members of structs only (vertex data, mostly): elsewhere
            // they stay unsupported.
            var packed = false
            let resolved: MSLType
            if let vector = BuiltinTypeNames.packed[type.base.name], type.base.arguments.isEmpty, structs[type.base.name] == nil {
                packed = true
                resolved = try arrayed(vector, declarator.arraySizes, at: type.base.location)
            } else {
                resolved = try resolve(type.base, sizes: declarator.arraySizes)
            }
            if case .structure(let name) = resolved, name == structure.name {
                throw Diagnostic(declarator.location, "field has incomplete type '\(name)'")
            }
            members.append(StructInfo.Member(name: declarator.name, type: resolved, attributes: declarator.attributes,
                                             location: declarator.location, packed: packed,
                                             defaultValue: declarator.initializer))
        }
        var alignment: Int?
        if let expression = structure.alignment {
            let value = try constantInteger(expression)
            guard value > 0, value & (value - 1) == 0, value <= 4096 else {
                throw Diagnostic(expression.location, "requested alignment \(value) is not a power of 2 in 1...4096")
            }
            alignment = Int(value)
        }
        structs[structure.name] = StructInfo(name: structure.name, members: members, location: structure.location,
                                             packed: structure.packed, alignment: alignment)
    }

    private mutating func declareEnumeration(_ enumeration: EnumDeclaration) throws(Diagnostic) {
        var underlying = ScalarType.int
        if let type = enumeration.underlyingType {
            guard case .scalar(let scalar) = try resolve(type), scalar.isInteger else {
                throw Diagnostic(type.location, "an enumeration's underlying type must be an integer type")
            }
            underlying = scalar
        }
        if let name = enumeration.name { enumerations[name] = underlying }
        var next: Int64 = 0
        for enumerator in enumeration.enumerators {
            if let value = enumerator.value { next = try constantInteger(value) }
            enumerators[enumerator.name] = (next, underlying)
            if let name = enumeration.name { enumerators["\(name)::\(enumerator.name)"] = (next, underlying) }
            next &+= 1
        }
    }

    /// The type of a variable `declarator` declares as `name`: an array whose first size is
    /// left out takes it from its initializer list (`float2 p[] = {…}`), as in C.
    func resolve(_ name: TypeName, for declarator: Declarator) throws(Diagnostic) -> MSLType {
        var sizes = declarator.arraySizes
        if sizes.first == .some(nil), case .initializerList(let elements)? = declarator.initializer?.kind {
            sizes[0] = Expression(kind: .integer("\(elements.count)"), location: declarator.location)
        }
        return try resolve(name, sizes: sizes)
    }

    /// The type `name` names, as an array of `sizes` when there are any.
    func resolve(_ name: TypeName, sizes: [Expression?] = []) throws(Diagnostic) -> MSLType {
        try arrayed(try resolve(name), sizes, at: name.location)
    }

    /// `element` as an array of `sizes` (outermost first), or itself when there are none.
    func arrayed(_ element: MSLType, _ sizes: [Expression?], at location: SourceLocation) throws(Diagnostic) -> MSLType {
        var type = element
        for size in sizes.reversed() {
            guard let size else { throw .unsupported(location, "arrays of unknown size") }
            let count = try constantInteger(size)
            guard count > 0, count <= 1 << 16 else { throw Diagnostic(size.location, "array size \(count) is out of range") }
            type = .array(type, Int(count))
            guard Self.elementCount(type) <= 1 << 16 else {
                throw .unsupported(size.location, "arrays of more than 65,536 elements")
            }
        }
        return type
    }

    /// The scalars, vectors or matrices an array holds in all its dimensions.
    static func elementCount(_ type: MSLType) -> Int {
        if case .array(let element, let count) = type { return count * elementCount(element) }
        return 1
    }

    /// The type `name` names.
    func resolve(_ name: TypeName) throws(Diagnostic) -> MSLType {
        if let numeric = BuiltinTypeNames.numeric[name.name] {
            guard name.arguments.isEmpty else { throw Diagnostic(name.location, "'\(name.name)' takes no template arguments") }
            return numeric
        }
        if let info = structs[name.name] { return .structure(info.name) }
        if let underlying = enumerations[name.name] { return .scalar(underlying) }
        if let alias = aliases[name.name] {
            guard !resolving.contains(name.name) else { throw Diagnostic(name.location, "'\(name.name)' names itself") }
            var copy = self
            copy.resolving.insert(name.name)
            return try copy.resolve(alias.base)
        }
        switch name.name {
        case "void": return .void
        case "sampler": return .sampler
        case "atomic_int": return .atomic(.int)
        case "atomic_uint": return .atomic(.uint)
        case "atomic" where name.arguments.count == 1:
            guard case .type(let element) = name.arguments[0], case .scalar(let scalar) = try resolve(element),
                  scalar == .int || scalar == .uint else {
                throw .unsupported(name.location, "atomics of types other than int and uint")
            }
            return .atomic(scalar)
        case "vec":
            guard name.arguments.count == 2, case .type(let element) = name.arguments[0],
                  case .scalar(let scalar) = try resolve(element), case .value(let size) = name.arguments[1] else {
                throw Diagnostic(name.location, "vec takes a scalar type and a size")
            }
            let count = try constantInteger(size)
            guard (2...4).contains(count) else { throw Diagnostic(size.location, "a vector has 2 to 4 components") }
            return .vector(scalar, Int(count))
        case "array":
            guard name.arguments.count == 2, case .type(let element) = name.arguments[0], case .value(let size) = name.arguments[1] else {
                throw Diagnostic(name.location, "array takes a type and a size")
            }
            return try resolve(element, sizes: [size])
        case "texture2d", "texture2d_array", "texture3d", "texturecube", "depth2d", "texture2d_ms":
            return try texture(name)
        default:
            throw .unsupported(name.location, "the type '\(name.name)'")
        }
    }

    private func texture(_ name: TypeName) throws(Diagnostic) -> MSLType {
        guard let dimension = TextureDimension(rawValue: name.name) else { throw .unsupported(name.location, "the type '\(name.name)'") }
        guard !name.arguments.isEmpty, name.arguments.count <= 2, case .type(let element) = name.arguments[0],
              case .scalar(let scalar) = try resolve(element) else {
            throw Diagnostic(name.location, "\(name.name) takes an element type and an access")
        }
        guard [.float, .half, .int, .uint, .short, .ushort].contains(scalar) else {
            throw Diagnostic(element.location, "\(scalar.rawValue) is not a texture's element type")
        }
        if dimension == .depth2d, scalar != .float {
            throw Diagnostic(element.location, "a depth texture's element type is float")
        }
        var access = TextureAccess.sample
        if name.arguments.count == 2 {
            guard case .value(let value) = name.arguments[1], case .name(let written) = value.kind,
                  written.hasPrefix("access::"), let named = TextureAccess(rawValue: String(written.dropFirst("access::".count))) else {
                throw Diagnostic(name.location, "a texture's access is access::sample, access::read, access::write or access::read_write")
            }
            access = named
        }
        return .texture(dimension, scalar, access)
    }

    /// The value of an integer constant expression: literals, enumerators, integer
    /// `constant`/`constexpr` globals, and arithmetic on them.
    func constantInteger(_ expression: Expression) throws(Diagnostic) -> Int64 {
        var visiting: Set<String> = []
        return try constantInteger(expression, visiting: &visiting)
    }

    private func constantInteger(_ expression: Expression, visiting: inout Set<String>) throws(Diagnostic) -> Int64 {
        let location = expression.location
        switch expression.kind {
        case .integer(let text):
            guard let literal = IntegerLiteral(text), literal.value <= UInt64(UInt32.max) else {
                throw Diagnostic(location, "invalid integer literal '\(text)'")
            }
            return Int64(literal.value)
        case .boolean(let value):
            return value ? 1 : 0
        case .name(let name):
            if let enumerator = enumerators[name] { return enumerator.value }
            if let global = globals[name], global.type.isConst || global.type.isConstexpr || global.type.addressSpace == .constant,
               let initializer = global.declarator.initializer, global.declarator.arraySizes.isEmpty,
               !visiting.contains(name) {
                visiting.insert(name)
                defer { visiting.remove(name) }
                return try constantInteger(initializer, visiting: &visiting)
            }
            throw Diagnostic(location, "'\(name)' is not an integer constant")
        case .prefix(let op, let operand):
            let value = try constantInteger(operand, visiting: &visiting)
            switch op {
            case "-": return 0 &- value
            case "+": return value
            case "~": return ~value
            case "!": return value == 0 ? 1 : 0
            default: break
            }
        case .binary(let op, let left, let right):
            let a = try constantInteger(left, visiting: &visiting), b = try constantInteger(right, visiting: &visiting)
            switch op {
            case "+": return a &+ b
            case "-": return a &- b
            case "*": return a &* b
            case "/", "%":
                guard b != 0 else { throw Diagnostic(right.location, "division by zero in a constant expression") }
                guard !(a == .min && b == -1) else { return op == "/" ? .min : 0 }
                return op == "/" ? a / b : a % b
            case "<<": return b >= 0 && b < 64 ? a << b : 0
            case ">>": return b >= 0 && b < 64 ? a >> b : 0
            case "&": return a & b
            case "|": return a | b
            case "^": return a ^ b
            default: break
            }
        case .cast(_, let value):
            return try constantInteger(value, visiting: &visiting)
        case .construct(_, let values) where values.count == 1:
            return try constantInteger(values[0], visiting: &visiting)
        default:
            break
        }
        throw Diagnostic(location, "expected an integer constant expression")
    }
}
