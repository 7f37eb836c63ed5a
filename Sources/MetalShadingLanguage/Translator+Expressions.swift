extension Translator {
    /// An expression as a value: a pointer is refused, a block becomes its struct.
    mutating func rvalue(_ expression: Expression) throws(Diagnostic) -> Value {
        try materialize(try self.expression(expression), at: expression.location)
    }

    /// `value` usable as a value: a buffer's struct is built from its block's members.
    mutating func materialize(_ value: Value, at location: SourceLocation) throws(Diagnostic) -> Value {
        if value.pointer {
            throw .unsupported(location, "pointers used as values (passing pointers to functions, choosing one with ?:, casting them)")
        }
        if value.storage, !value.block { return Value(code: try load(value.code, value.type, at: location), type: value.type) }
        guard value.block, case .structure(let name) = value.type else { return value }
        var members: [String] = []
        for member in program.structs[name]?.members ?? [] {
            members.append(try load("\(value.code).\(GLSLNames.identifier(member.name))", member.type, at: location))
        }
        return Value(code: try structValue(name, members, at: location), type: value.type)
    }

    mutating func expression(_ node: Expression) throws(Diagnostic) -> Value {
        let location = node.location
        switch node.kind {
        case .integer(let text):
            guard let literal = IntegerLiteral(text), literal.value <= UInt64(UInt32.max) else {
                throw Diagnostic(location, "integer literal '\(text)' is too large")
            }
            let hexOrOctal = text.hasPrefix("0") && text.count > 1
            let unsigned = literal.unsigned || (literal.value > UInt64(Int32.max) && hexOrOctal)
            guard unsigned || literal.value <= UInt64(Int32.max) else {
                throw .unsupported(location, "64-bit integer literals ('\(text)')")
            }
            return Value(code: "\(literal.value)\(unsigned ? "u" : "")", type: .scalar(unsigned ? .uint : .int),
                         literal: Int64(literal.value))
        case .floating(let text):
            var digits = Substring(text)
            var scalar = ScalarType.float
            if let last = digits.last, "fFhH".contains(last), !(digits.hasPrefix("0x") || digits.hasPrefix("0X")) {
                if last == "h" || last == "H" { scalar = .half }
                digits = digits.dropLast()
            }
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") { throw .unsupported(location, "hexadecimal floating-point literals") }
            guard Float(String(digits)) != nil else { throw Diagnostic(location, "invalid floating-point literal '\(text)'") }
            var code = String(digits)
            if !code.contains(".") && !code.contains("e") && !code.contains("E") { code += ".0" }
            if code.hasSuffix(".") { code += "0" }
            return Value(code: code, type: .scalar(scalar))
        case .boolean(let value):
            return Value(code: value ? "true" : "false", type: .scalar(.bool))
        case .name(let name):
            return try nameValue(name, at: location)
        case .prefix(let op, let operand):
            return try prefix(op, operand, at: location)
        case .postfix(let op, let operand):
            let value = try self.expression(operand)
            if value.pointer { return try stepPointer(value, op, prefix: false, at: location) }
            try checkIncrement(value, op, at: location)
            if value.type.scalar?.isNarrowInteger == true || value.storage {
                return Value(code: narrowIncrement(value, op, prefix: false), type: value.type)
            }
            return Value(code: "(\(value.code)\(op))", type: value.type)
        case .binary(let op, let left, let right):
            let a = try self.expression(left), b = try self.expression(right)
            if a.pointer || b.pointer { return try pointerArithmetic(op, a, b, at: location) }
            return try binary(op, try materialize(a, at: left.location), try materialize(b, at: right.location), at: location,
                              rightLocation: right.location)
        case .assignment(let op, let target, let value):
            return try assignment(op, target, value, at: location)
        case .conditional(let condition, let then, let otherwise):
            let test = try rvalue(condition)
            guard case .scalar = test.type else { throw .unsupported(condition.location, "?: with a vector condition (use select)") }
            let yes = try rvalue(then), no = try rvalue(otherwise)
            let type: MSLType
            if yes.type == no.type {
                type = yes.type
            } else if yes.type.isScalarOrVector && no.type.isScalarOrVector {
                type = try arithmeticType(yes.type, no.type, "?:", at: location)
            } else {
                throw Diagnostic(location, "incompatible operand types ('\(yes.type)' and '\(no.type)')")
            }
            let code = "(\(try convert(test, to: .scalar(.bool), at: condition.location)) ? "
                + "\(try convert(yes, to: type, at: then.location)) : \(try convert(no, to: type, at: otherwise.location)))"
            return Value(code: code, type: type)
        case .call(let callee, let arguments):
            return try call(callee, arguments, at: location)
        case .construct(let typeName, let arguments):
            return try construct(try resolve(typeName), arguments, at: location)
        case .cast(let typeName, let operand):
            let type = try resolve(typeName)
            let value = try rvalue(operand)
            return Value(code: try convert(value, to: type, at: location, explicit: true), type: type)
        case .sizeOfType(let typeName):
            return try sizeOf(try resolve(typeName), at: location)
        case .sizeOfValue(let operand):
            // C++ leaves the operand unevaluated: only its type is used.
            let value = try expression(operand)
            if value.pointer { throw .unsupported(location, "sizeof of a pointer") }
            return try sizeOf(value.type, at: location)
        case .bitcast(let typeName, let operand):
            return try bitcast(try resolve(typeName), try rvalue(operand), at: location)
        case .member(let base, let name):
            return try member(try self.expression(base), name, at: location)
        case .arrow(let base, let name):
            if case .name("this") = base.kind, function?.declaration.methodOf != nil, let this = lookUp("this") {
                return try member(value(of: this), name, at: location)
            }
            let pointer = try self.expression(base)
            guard pointer.pointer else { throw Diagnostic(location, "member reference type '\(pointer.type)' is not a pointer") }
            return try member(element(of: pointer, "0"), name, at: location)
        case .index(let base, let index):
            if case .member(let matrix, "columns") = base.kind {
                // simd's `m.columns[i]`: column i, as `m[i]`.
                let value = try self.expression(matrix)
                if case .matrix = value.type { return try subscripted(value, index, at: location) }
            }
            return try subscripted(try self.expression(base), index, at: location)
        case .initializerList:
            throw Diagnostic(location, "an initializer list cannot be used here")
        case .designated:
            throw Diagnostic(location, "a designated initializer initializes a struct's member")
        }
    }

    func resolve(_ name: TypeName) throws(Diagnostic) -> MSLType {
        try program.resolve(name)
    }


    mutating func nameValue(_ name: String, at location: SourceLocation) throws(Diagnostic) -> Value {
        if name == "this", function?.declaration.methodOf == nil {
            throw Diagnostic(location, "invalid use of 'this' outside of a member function")
        }
        if let variable = lookUp(name) {
            return value(of: variable)
        }
        // In a member function, the struct's members come before the file's names.
        if let structure = function?.declaration.methodOf, let this = lookUp("this"),
           program.structs[structure]?.members.contains(where: { $0.name == name }) == true {
            return try member(value(of: this), name, at: location)
        }
        if let variable = emittedGlobals[name] {
            return value(of: variable)
        }
        if program.globals[name] != nil {
            return value(of: try emitGlobal(name))
        }
        if let enumerator = program.enumerators[name] {
            let unsigned = enumerator.type.isUnsigned
            return Value(code: "\(enumerator.value)\(unsigned ? "u" : "")", type: .scalar(unsigned ? .uint : .int),
                         literal: enumerator.value)
        }
        if program.functions[name] != nil || Self.isBuiltinFunction(name) {
            throw Diagnostic(location, "'\(name)' is a function; call it")
        }
        if let constant = Self.scopedConstants[name] {
            return Value(code: "\(constant)", type: .scalar(.int), literal: constant)
        }
        if name.hasPrefix("M_"), name.hasSuffix("_F") || name.hasSuffix("_H"), let constant = Self.mathConstants[String(name.dropLast(2))] {
            return Value(code: constant, type: .scalar(name.hasSuffix("_F") ? .float : .half))
        }
        throw Diagnostic(location, "use of undeclared identifier '\(name)'")
    }

    /// The standard library's math constants (`M_PI_F`, `M_PI_H`, … without the suffix).
    static let mathConstants: [String: String] = [
        "M_E": "2.718281828459045", "M_LOG2E": "1.4426950408889634", "M_LOG10E": "0.4342944819032518",
        "M_LN2": "0.6931471805599453", "M_LN10": "2.302585092994046", "M_PI": "3.141592653589793",
        "M_PI_2": "1.5707963267948966", "M_PI_4": "0.7853981633974483", "M_1_PI": "0.3183098861837907",
        "M_2_PI": "0.6366197723675814", "M_2_SQRTPI": "1.1283791670955126", "M_SQRT2": "1.4142135623730951",
        "M_SQRT1_2": "0.7071067811865476",
    ]

    /// Values of the standard library's enumerations that a call reads as a constant.
    static let scopedConstants: [String: Int64] = [
        "mem_flags::mem_none": 0, "mem_flags::mem_device": 1, "mem_flags::mem_threadgroup": 2, "mem_flags::mem_texture": 4,
    ]

    func value(of variable: Variable) -> Value {
        let lvalue = LValue(readOnly: variable.mutable ? nil : "'\(variable.code)' is read-only", space: variable.space,
                            buffer: variable.buffer)
        switch variable.kind {
        case .value: return Value(code: variable.code, type: variable.type, lvalue: lvalue, storage: inStorage(variable))
        case .bufferArray:
            return Value(code: variable.code, type: variable.type, lvalue: lvalue, pointer: true, offset: variable.offset,
                         offsetVariable: variable.offset, storage: inStorage(variable))
        case .block: return Value(code: variable.code, type: variable.type, lvalue: lvalue, block: true, storage: inStorage(variable))
        }
    }

    /// `sizeof` a value of `type`: its size in Metal's layout, a `size_t` (which SwiftGPU
    /// holds in 32 bits) constant.
    func sizeOf(_ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> Value {
        switch type {
        case .texture, .sampler, .void: throw .unsupported(location, "sizeof of '\(type)'")
        default: break
        }
        let size = layouts.metal(type).size
        return Value(code: "\(size)u", type: .scalar(.uint), literal: Int64(size))
    }

    /// Element `index` of a pointer's buffer, after the pointer's offset.
    func element(of pointer: Value, _ index: String) -> Value {
        let position = pointer.offset.map { index == "0" ? $0 : "(\($0) + int(\(index)))" } ?? index
        return Value(code: "\(pointer.code)[\(position)]", type: pointer.type, lvalue: pointer.lvalue, storage: pointer.storage)
    }

    mutating func prefix(_ op: String, _ operand: Expression, at location: SourceLocation) throws(Diagnostic) -> Value {
        switch op {
        case "*":
            let pointer = try expression(operand)
            guard pointer.pointer else { throw Diagnostic(location, "indirection requires a pointer operand ('\(pointer.type)' invalid)") }
            return element(of: pointer, "0")
        case "&":
            return try address(of: operand, at: location)
        case "++", "--":
            let value = try expression(operand)
            if value.pointer { return try stepPointer(value, op, prefix: true, at: location) }
            try checkIncrement(value, op, at: location)
            if value.type.scalar?.isNarrowInteger == true || value.storage {
                return Value(code: narrowIncrement(value, op, prefix: true), type: value.type)
            }
            return Value(code: "(\(op)\(value.code))", type: value.type)
        default:
            break
        }
        var value = try rvalue(operand)
        if case .scalar(let scalar) = value.type, scalar.isNarrowInteger, op != "!" {
            // C++ promotes the operand to int.
            value = Value(code: try convert(value, to: .scalar(.int), at: location), type: .scalar(.int), literal: value.literal)
        }
        switch op {
        case "-", "+":
            guard let scalar = value.type.scalar, scalar != .bool else {
                throw Diagnostic(location, "invalid argument type '\(value.type)' to unary expression")
            }
            return Value(code: op == "+" ? value.code : wrapped("(-\(value.code))", to: value.type), type: value.type,
                         literal: op == "-" ? value.literal.map { 0 - $0 } : value.literal)
        case "!":
            if case .vector(.bool, _) = value.type { return Value(code: "not(\(value.code))", type: value.type) }
            guard case .scalar = value.type else { throw Diagnostic(location, "invalid argument type '\(value.type)' to unary expression") }
            return Value(code: "(!\(try convert(value, to: .scalar(.bool), at: location)))", type: .scalar(.bool))
        default: // "~"
            guard let scalar = value.type.scalar, scalar.isInteger, value.type.isScalarOrVector else {
                throw Diagnostic(location, "invalid argument type '\(value.type)' to unary expression")
            }
            return Value(code: wrapped("(~\(value.code))", to: value.type), type: value.type)
        }
    }

    /// Checks that `value` may be incremented and notes the write.
    mutating func checkIncrement(_ value: Value, _ op: String, at location: SourceLocation) throws(Diagnostic) {
        guard let scalar = value.type.scalar, scalar != .bool, value.type.isScalarOrVector else {
            throw Diagnostic(location, "cannot \(op == "++" ? "increment" : "decrement") value of type '\(value.type)'")
        }
        try checkWritable(value, at: location)
    }

    /// Checks that `value` may be assigned, and notes a write to its buffer.
    mutating func checkWritable(_ value: Value, at location: SourceLocation) throws(Diagnostic) {
        guard let lvalue = value.lvalue else { throw Diagnostic(location, "expression is not assignable") }
        if value.pointer { throw .unsupported(location, "assigning pointers") }
        if value.block { throw .unsupported(location, "assigning a whole struct in a buffer (assign its members)") }
        if let reason = lvalue.readOnly { throw Diagnostic(location, "cannot assign: \(reason)") }
        if let buffer = lvalue.buffer { writtenBuffers.insert(buffer) }
    }

    mutating func assignment(_ op: String, _ targetExpression: Expression, _ valueExpression: Expression,
                             at location: SourceLocation) throws(Diagnostic) -> Value {
        let target = try expression(targetExpression)
        if target.pointer { return try assignPointer(op, target, valueExpression, at: location) }
        try checkWritable(target, at: location)
        if op == "=" {
            let value = try initialize(target.type, with: valueExpression)
            return Value(code: "(\(target.code) = \(target.storage ? try store(value, target.type, at: location) : value))",
                         type: target.type, storage: target.storage)
        }
        let value = try rvalue(valueExpression)
        let binaryOp = String(op.dropLast())
        let result = try binary(binaryOp, try materialize(target, at: location), value, at: location, rightLocation: valueExpression.location)
        if let to = target.type.scalar, to.isNarrowInteger, let from = result.type.scalar, from.isInteger,
           result.type.componentCount == target.type.componentCount {
            // The result, in 32 bits, wrapped back to the target's type.
            let wrapped = try convert(result, to: target.type, at: location, explicit: true)
            return Value(code: "(\(target.code) = \(target.storage ? try store(wrapped, target.type, at: location) : wrapped))",
                         type: target.type, storage: target.storage)
        }
        guard result.type == target.type else {
            if let from = result.type.scalar, let to = target.type.scalar, from.isInteger, to.isInteger,
               result.type.componentCount == target.type.componentCount, ["+", "-", "*", "&", "|", "^", "<<", ">>"].contains(binaryOp) {
                // Integer results of another signedness convert back to the target's bits unchanged.
                return Value(code: "(\(target.code) = \(try convert(result, to: target.type, at: location, explicit: true)))", type: target.type)
            }
            throw .unsupported(location, "'\(op)' that converts a '\(result.type)' result to '\(target.type)' (write the assignment out)")
        }
        if target.storage {
            // A buffer's `half` holds 16 bits: the result, computed in 32, stored back.
            return Value(code: "(\(target.code) = \(try store(try convert(result, to: target.type, at: location), target.type, at: location)))",
                         type: target.type, storage: true)
        }
        if binaryOp == "%" || result.code.hasPrefix("mslg_") {
            // A helper computes it: assign its result.
            return Value(code: "(\(target.code) = \(result.code))", type: target.type)
        }
        let right: String
        if case .matrix = value.type { right = value.code } else if target.type.isScalarOrVector, value.type.isScalarOrVector,
            case .vector = target.type, case .scalar = value.type {
            right = try convert(value, to: .scalar(target.type.scalar!), at: location)
        } else if case .matrix = target.type {
            right = try convert(value, to: value.type.isScalarOrVector && value.type.componentCount == 1 ? .scalar(.float) : value.type, at: location)
        } else {
            right = try convert(value, to: target.type, at: location)
        }
        return Value(code: "(\(target.code) \(op) \(right))", type: target.type)
    }

    mutating func member(_ base: Value, _ name: String, at location: SourceLocation) throws(Diagnostic) -> Value {
        if case .structure(let structName) = base.type, unreadableMembers.contains(StructMember(structName: structName, name: name)) {
            throw .unsupported(location, "reading a [[point_size]] member in a fragment function (Vulkan gives fragments no point size)")
        }
        switch base.type {
        case .vector(let scalar, let count):
            let sets = ["xyzw", "rgba"]
            guard !name.isEmpty, name.count <= 4,
                  let set = sets.first(where: { set in name.allSatisfy { set.prefix(count).contains($0) } }) else {
                if sets.contains(where: { set in name.allSatisfy { set.contains($0) } }), name.count <= 4 {
                    throw Diagnostic(location, "vector component access exceeds type '\(base.type)'")
                }
                throw Diagnostic(location, "illegal vector component name '\(name)'")
            }
            _ = set
            let repeated = Set(name).count != name.count
            var lvalue = base.lvalue
            if repeated { lvalue = nil }
            let type: MSLType = name.count == 1 ? .scalar(scalar) : .vector(scalar, name.count)
            return Value(code: "\(base.code).\(name)", type: type, lvalue: lvalue, storage: base.storage)
        case .structure(let structName):
            guard let member = program.structs[structName]?.members.first(where: { $0.name == name }) else {
                throw Diagnostic(location, "no member named '\(name)' in '\(structName)'")
            }
            return Value(code: "\(base.code).\(GLSLNames.identifier(name))", type: member.type, lvalue: base.lvalue,
                         storage: base.storage && member.type.storedNarrow(program) != nil)
        default:
            throw Diagnostic(location, "member reference base type '\(base.type)' is not a structure or vector")
        }
    }

    mutating func subscripted(_ base: Value, _ indexExpression: Expression, at location: SourceLocation) throws(Diagnostic) -> Value {
        let index = try rvalue(indexExpression)
        guard case .scalar(let scalar) = index.type, scalar.isInteger || scalar == .bool else {
            throw Diagnostic(indexExpression.location, "array subscript is not an integer")
        }
        if base.pointer { return element(of: base, index.code) }
        let element: MSLType
        var bound: Int?
        switch base.type {
        case .array(let inner, let count): element = inner; bound = count
        case .vector(let inner, let count): element = .scalar(inner); bound = count
        case .matrix(let inner, let columns, let rows): element = .vector(inner, rows); bound = columns
        default: throw Diagnostic(location, "subscripted value is not an array, pointer, vector or matrix")
        }
        if let literal = index.literal, let bound, literal < 0 || literal >= bound {
            throw Diagnostic(indexExpression.location, "array index \(literal) is past the end of the array (which contains \(bound) elements)")
        }
        if base.storage {
            return Value(code: "\(base.code)[\(index.code)]", type: element, lvalue: base.lvalue, storage: element.storedNarrow(program) != nil)
        }
        let base = try materialize(base, at: location)
        return Value(code: "\(base.code)[\(index.code)]", type: element, lvalue: base.lvalue)
    }

    mutating func binary(_ op: String, _ left: Value, _ right: Value, at location: SourceLocation,
                         rightLocation: SourceLocation) throws(Diagnostic) -> Value {
        switch op {
        case "&&", "||":
            guard case .scalar = left.type, case .scalar = right.type else {
                throw .unsupported(location, "'\(op)' on vectors")
            }
            return Value(code: "(\(try convert(left, to: .scalar(.bool), at: location)) \(op) \(try convert(right, to: .scalar(.bool), at: rightLocation)))",
                         type: .scalar(.bool))
        case "*", "/", "+", "-":
            if let matrix = try matrixArithmetic(op, left, right, at: location) { return matrix }
        case "==", "!=", "<", ">", "<=", ">=":
            let type = try arithmeticType(left.type, right.type, op, at: location)
            let a = try convert(left, to: type, at: location), b = try convert(right, to: type, at: rightLocation)
            if case .vector(_, let count) = type {
                let functions = ["==": "equal", "!=": "notEqual", "<": "lessThan", ">": "greaterThan", "<=": "lessThanEqual",
                                 ">=": "greaterThanEqual"]
                return Value(code: "\(functions[op]!)(\(a), \(b))", type: .vector(.bool, count))
            }
            return Value(code: "(\(a) \(op) \(b))", type: .scalar(.bool))
        default:
            break
        }
        var type = try arithmeticType(left.type, right.type, op, at: location)
        if ["%", "&", "|", "^", "<<", ">>"].contains(op) {
            guard let scalar = type.scalar, scalar.isInteger || scalar == .bool else {
                throw Diagnostic(location, "invalid operands to binary expression ('\(left.type)' and '\(right.type)')")
            }
            if !(scalar.isNarrowInteger && type.componentCount != 1) { type = type.with(scalar.promoted) }
        } else if type.scalar == .bool {
            type = type.with(.int)
        }
        if op == "<<" || op == ">>" {
            // The result has the left operand's (promoted) type; GLSL shifts by either signedness.
            let leftType = left.type.componentCount == 1 ? left.type.with(left.type.scalar!.promoted) : left.type
            let shiftType: MSLType = right.type.isScalarOrVector && right.type.componentCount == 1 ? .scalar(right.type.scalar!.promoted)
                : right.type.with(right.type.scalar!.promoted)
            let a = try convert(left, to: leftType, at: location), b = try convert(right, to: shiftType, at: rightLocation)
            return Value(code: wrapped("(\(a) \(op) \(b))", to: leftType), type: leftType)
        }
        // A scalar beside a vector stays a scalar of the vector's element type: GLSL takes it.
        func operandType(_ value: Value) -> MSLType {
            if case .vector = type, case .scalar = value.type { return .scalar(type.scalar!) }
            return type
        }
        let a = try convert(left, to: operandType(left), at: location)
        let b = try convert(right, to: operandType(right), at: rightLocation)
        if op == "%", let scalar = type.scalar, !scalar.isUnsigned {
            // C++ keeps the dividend's sign; GLSL's `%` of negative ints is undefined.
            let glsl = try glslType(type, at: location)
            let bFull = operandType(right) == type ? b : "\(glsl)(\(b))"
            let aFull = operandType(left) == type ? a : "\(glsl)(\(a))"
            helper("mslg_rem_\(glsl)", "\(glsl) mslg_rem(\(glsl) a, \(glsl) b) { return a - b * (a / b); }")
            return Value(code: wrapped("mslg_rem(\(aFull), \(bFull))", to: type), type: type)
        }
        // Vectors of 8- and 16-bit integers compute in their own type (scalars were promoted).
        return Value(code: wrapped("(\(a) \(op) \(b))", to: type), type: type)
    }

    /// Products and sums with matrices, or nil when neither operand is a matrix.
    mutating func matrixArithmetic(_ op: String, _ left: Value, _ right: Value, at location: SourceLocation) throws(Diagnostic) -> Value? {
        func invalid() -> Diagnostic { Diagnostic(location, "invalid operands to binary expression ('\(left.type)' and '\(right.type)')") }
        switch (left.type, right.type) {
        case (.matrix(let scalar, let c, let r), .matrix(_, let d, let s)):
            if op == "*" {
                guard c == s else { throw invalid() }
                return Value(code: "(\(left.code) * \(right.code))", type: .matrix(scalar, columns: d, rows: r))
            }
            guard c == d, r == s, op != "/" else { throw invalid() }
            return Value(code: "(\(left.code) \(op) \(right.code))", type: left.type)
        case (.matrix(let matrix, let c, let r), .vector(let scalar, let n)):
            guard op == "*", n == c, scalar.isFloatingPoint else { throw invalid() }
            return Value(code: "(\(left.code) * \(right.code))", type: .vector(matrix, r))
        case (.vector(let scalar, let n), .matrix(let matrix, let c, let r)):
            guard op == "*", n == r, scalar.isFloatingPoint else { throw invalid() }
            return Value(code: "(\(left.code) * \(right.code))", type: .vector(matrix, c))
        case (.matrix, .scalar):
            guard op == "*" || op == "/" else { throw invalid() }
            return Value(code: "(\(left.code) \(op) \(try convert(right, to: .scalar(.float), at: location)))", type: left.type)
        case (.scalar, .matrix):
            guard op == "*" else { throw invalid() }
            return Value(code: "(\(try convert(left, to: .scalar(.float), at: location)) * \(right.code))", type: right.type)
        case (.matrix, _), (_, .matrix):
            throw invalid()
        default:
            return nil
        }
    }

    /// `as_type<T>(value)`: the same bits as another type of the same size.
    mutating func bitcast(_ type: MSLType, _ value: Value, at location: SourceLocation) throws(Diagnostic) -> Value {
        guard let from = value.type.scalar, let to = type.scalar, value.type.isScalarOrVector, type.isScalarOrVector,
              layouts.metal(value.type).size == layouts.metal(type).size else {
            throw Diagnostic(location, "as_type from '\(value.type)' to '\(type)' needs types of the same size")
        }
        guard from.size == 4, to.size == 4, value.type.componentCount == type.componentCount else {
            throw .unsupported(location, "as_type between '\(value.type)' and '\(type)'")
        }
        let glsl = try glslType(type, at: location)
        switch (from.glsl, to.glsl) {
        case let (a, b) where a == b: return Value(code: value.code, type: type)
        case ("float", "uint"): return Value(code: "floatBitsToUint(\(value.code))", type: type)
        case ("float", "int"): return Value(code: "floatBitsToInt(\(value.code))", type: type)
        case ("uint", "float"): return Value(code: "uintBitsToFloat(\(value.code))", type: type)
        case ("int", "float"): return Value(code: "intBitsToFloat(\(value.code))", type: type)
        default: return Value(code: "\(glsl)(\(value.code))", type: type)
        }
    }

    /// Adds a helper function to the module once.
    mutating func helper(_ key: String, _ text: String) {
        guard !emittedHelpers.contains(key) else { return }
        emittedHelpers.insert(key)
        functionSection.append(text)
    }
}
