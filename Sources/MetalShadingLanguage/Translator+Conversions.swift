extension Translator {
    /// The type C++'s usual arithmetic conversions give two scalars.
    static func commonScalar(_ a: ScalarType, _ b: ScalarType) -> ScalarType {
        if a.isFloatingPoint || b.isFloatingPoint {
            return a == .float || b == .float ? .float : .half
        }
        let (left, right) = (a.promoted, b.promoted)
        if left == right { return left }
        return left == .uint || right == .uint ? .uint : .int
    }

    /// The type arithmetic on `a` and `b` computes in: a vector when either is one (whose
    /// sizes must agree, and whose scalars must when both are vectors), else a scalar.
    func arithmeticType(_ a: MSLType, _ b: MSLType, _ op: String, at location: SourceLocation) throws(Diagnostic) -> MSLType {
        guard a.isScalarOrVector, b.isScalarOrVector, let left = a.scalar, let right = b.scalar else {
            throw Diagnostic(location, "invalid operands to binary expression ('\(a)' and '\(b)')")
        }
        switch (a, b) {
        case (.vector(_, let m), .vector(_, let n)) where m != n:
            throw Diagnostic(location, "vector operands do not have the same number of elements ('\(a)' and '\(b)')")
        case (.vector(let s, _), .vector(let t, _)) where s != t:
            throw Diagnostic(location, "cannot convert between vector types '\(a)' and '\(b)' implicitly")
        case (.vector(let s, let n), .scalar(let other)), (.scalar(let other), .vector(let s, let n)):
            if other.isFloatingPoint && !s.isFloatingPoint {
                throw Diagnostic(location, "cannot convert between scalar type '\(other)' and vector type '\(a.isScalarOrVector && a.componentCount == 1 ? b : a)'")
            }
            return .vector(s, n)
        case (.vector, .vector):
            return a
        default:
            return .scalar(Self.commonScalar(left, right))
        }
    }

    /// `value` as `type`: C++'s implicit conversions (between scalars, and a scalar to a
    /// vector); with `explicit`, also between vectors and matrices of one shape.
    mutating func convert(_ value: Value, to type: MSLType, at location: SourceLocation, explicit: Bool = false)
        throws(Diagnostic) -> String {
        if value.type == type { return value.code }
        switch (value.type, type) {
        case (.scalar(let from), .scalar(let to)):
            return narrowed(from.glsl == to.glsl ? value.code : "\(to.glsl)(\(value.code))", from, to)
        case (.scalar(let from), .vector(let to, _)):
            let scalar = narrowed(from.glsl == to.glsl ? value.code : "\(to.glsl)(\(value.code))", from, to)
            return "\(try glslType(type, at: location))(\(scalar))"
        case (.vector(let from, let m), .vector(let to, let n)) where m == n && (explicit || from.glsl == to.glsl && from.isFloatingPoint == to.isFloatingPoint && explicit):
            return narrowed(from.glsl == to.glsl ? value.code : "\(try glslType(type, at: location))(\(value.code))", from, to)
        case (.matrix(_, let c, let r), .matrix(_, let d, let s)) where explicit && c == d && r == s:
            return value.code
        default:
            throw Diagnostic(location, "cannot convert '\(value.type)' to '\(type)'")
        }
    }

    /// `code`, converted from `from` to `to`, wrapped when `to` is an 8- or 16-bit integer
    /// that cannot hold every value of `from`.
    func narrowed(_ code: String, _ from: ScalarType, _ to: ScalarType) -> String {
        to.isNarrowInteger && !from.fits(in: to) ? wrapped(code, to: .scalar(to)) : code
    }

    /// A value of `type` from an expression that may be an initializer list (`{1, 2}`),
    /// whose missing trailing elements are zero, as in C++.
    mutating func initialize(_ type: MSLType, with expression: Expression) throws(Diagnostic) -> String {
        guard case .initializerList(let elements) = expression.kind else {
            return try convert(try rvalue(expression), to: type, at: expression.location)
        }
        let location = expression.location
        switch type {
        case .array(let element, let count):
            guard elements.count <= count else { throw Diagnostic(location, "excess elements in array initializer") }
            var values: [String] = []
            for element_ in elements { values.append(try initialize(element, with: element_)) }
            while values.count < count { values.append(try zero(element, at: location)) }
            return "\(try glslType(type, at: location))(\(values.joined(separator: ", ")))"
        case .structure(let name):
            let members = program.structs[name]?.members ?? []
            guard elements.count <= members.count else { throw Diagnostic(location, "excess elements in struct initializer") }
            let ordered = try designatedInOrder(elements, members.map(\.name), of: name)
            var values: [String] = []
            for (index, member) in members.enumerated() {
                if let element = ordered[index] ?? member.defaultValue {
                    values.append(try initialize(member.type, with: element))
                } else {
                    values.append(try zero(member.type, at: location))
                }
            }
            return try structValue(name, values, at: location)
        case .scalar, .vector, .matrix:
            if elements.isEmpty { return try zero(type, at: location) }
            if elements.count == 1, case .scalar = type { return try initialize(type, with: elements[0]) }
            return try construct(type, elements, at: location).code
        default:
            throw Diagnostic(location, "\(type) cannot be initialized with a list")
        }
    }

    /// A struct initializer's elements by member: in order, or placed by their designators
    /// (`.name = value`), which C++ wants all or none and in the members' order.
    func designatedInOrder(_ elements: [Expression], _ members: [String], of structName: String) throws(Diagnostic) -> [Expression?] {
        var ordered = [Expression?](repeating: nil, count: members.count)
        let designated = elements.filter { if case .designated = $0.kind { true } else { false } }
        if designated.isEmpty {
            for (index, element) in elements.enumerated() { ordered[index] = element }
            return ordered
        }
        guard designated.count == elements.count else {
            throw Diagnostic(elements[0].location, "mixture of designated and non-designated initializers")
        }
        var next = 0
        for element in elements {
            guard case .designated(let name, let value) = element.kind else { continue }
            guard let index = members.firstIndex(of: name) else {
                throw Diagnostic(element.location, "field designator '\(name)' does not refer to any field in type '\(structName)'")
            }
            guard index >= next else {
                throw Diagnostic(element.location, "designator order for field '\(name)' does not match the declaration order")
            }
            ordered[index] = value
            next = index + 1
        }
        return ordered
    }

    /// A constructor of a scalar, vector, matrix, struct or array type: `float4(xy, 0, 1)`,
    /// `float3x3(c0, c1, c2)`, `Light{…}`.
    mutating func construct(_ type: MSLType, _ arguments: [Expression], at location: SourceLocation) throws(Diagnostic) -> Value {
        if arguments.isEmpty { return Value(code: try zero(type, at: location), type: type) }
        switch type {
        case .scalar:
            guard arguments.count == 1 else { throw Diagnostic(location, "excess elements in scalar initializer") }
            return Value(code: try convert(try rvalue(arguments[0]), to: type, at: location, explicit: true), type: type)
        case .vector(let scalar, let count):
            var values: [Value] = []
            for argument in arguments { values.append(try rvalue(argument)) }
            if values.count == 1, case .vector(_, let n) = values[0].type, n == count {
                return Value(code: try convert(values[0], to: type, at: location, explicit: true), type: type)
            }
            if values.count == 1, case .scalar = values[0].type {
                return Value(code: try convert(values[0], to: type, at: location), type: type)
            }
            // A longer vector keeps its first components, as Metal's `float3(color)` of a
            // `float4` does (GLSL's `vec3(v)` is the same).
            if values.count == 1, case .vector(_, let n) = values[0].type, n > count {
                let whole = try convert(values[0], to: .vector(scalar, n), at: location, explicit: true)
                return Value(code: "\(try glslType(type, at: location))(\(whole))", type: type)
            }
            var total = 0
            var parts: [String] = []
            for value in values {
                switch value.type {
                case .scalar:
                    total += 1
                    parts.append(try convert(value, to: .scalar(scalar), at: location))
                case .vector(_, let n):
                    total += n
                    parts.append(try convert(value, to: .vector(scalar, n), at: location, explicit: true))
                default:
                    throw Diagnostic(location, "cannot initialize a '\(type)' with a '\(value.type)'")
                }
            }
            guard total == count else {
                throw Diagnostic(location, "'\(type)' needs \(count) components, given \(total)")
            }
            return Value(code: "\(try glslType(type, at: location))(\(parts.joined(separator: ", ")))", type: type)
        case .matrix(let scalar, let columns, let rows):
            var values: [Value] = []
            for argument in arguments { values.append(try rvalue(argument)) }
            if values.count == 1, case .scalar = values[0].type {
                return Value(code: "\(try glslType(type, at: location))(\(try convert(values[0], to: .scalar(scalar), at: location)))", type: type)
            }
            if values.count == 1, case .matrix(_, let c, let r) = values[0].type, c == columns, r == rows {
                return Value(code: values[0].code, type: type)
            }
            if values.count == columns, values.allSatisfy({ $0.type.componentCount == rows && $0.type.isScalarOrVector }) {
                var parts: [String] = []
                for value in values { parts.append(try convert(value, to: .vector(scalar, rows), at: location, explicit: true)) }
                return Value(code: "\(try glslType(type, at: location))(\(parts.joined(separator: ", ")))", type: type)
            }
            if values.count == columns * rows, values.allSatisfy({ if case .scalar = $0.type { true } else { false } }) {
                var parts: [String] = []
                for value in values { parts.append(try convert(value, to: .scalar(scalar), at: location)) }
                return Value(code: "\(try glslType(type, at: location))(\(parts.joined(separator: ", ")))", type: type)
            }
            throw Diagnostic(location, "no matching constructor for '\(type)' with \(values.count) arguments")
        case .structure, .array:
            return Value(code: try initialize(type, with: Expression(kind: .initializerList(arguments), location: location)), type: type)
        default:
            throw Diagnostic(location, "cannot construct a '\(type)'")
        }
    }
}
