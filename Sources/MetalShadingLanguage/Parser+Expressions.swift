extension Parser {
    /// Binary operators by precedence, lowest first.
    static let binaryLevels: [Set<String>] = [
        ["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"], ["+", "-"], ["*", "/", "%"],
    ]

    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]

    /// An expression; the comma operator is refused.
    mutating func expression() throws(Diagnostic) -> Expression {
        let value = try assignment()
        if current.isa(",") { throw .unsupported(current.location, "the comma operator") }
        return value
    }

    mutating func assignment() throws(Diagnostic) -> Expression {
        try nest()
        defer { depth -= 1 }
        let target = try conditional()
        if current.kind == .punctuation, Self.assignmentOperators.contains(current.text) {
            let op = advance()
            let value = current.isa("{") ? try initializerList() : try assignment()
            return Expression(kind: .assignment(op.text, target, value), location: target.location)
        }
        return target
    }

    mutating func conditional() throws(Diagnostic) -> Expression {
        let condition = try binary(0)
        guard accept("?") else { return condition }
        let then = try assignment()
        try expect(":")
        let otherwise = try assignment()
        return Expression(kind: .conditional(condition, then, otherwise), location: condition.location)
    }

    mutating func binary(_ level: Int) throws(Diagnostic) -> Expression {
        guard level < Self.binaryLevels.count else { return try unary() }
        var left = try binary(level + 1)
        // Each operator of a chain nests the tree one level deeper, which every later walk
        // of it recurses through: the chain counts against the nesting limit.
        let outer = depth
        defer { depth = outer }
        while current.kind == .punctuation, Self.binaryLevels[level].contains(current.text) {
            let op = advance()
            try nest()
            let right = try binary(level + 1)
            left = Expression(kind: .binary(op.text, left, right), location: left.location)
        }
        return left
    }

    mutating func unary() throws(Diagnostic) -> Expression {
        let start = current
        if start.kind == .punctuation, ["-", "+", "!", "~", "++", "--", "*", "&"].contains(start.text) {
            _ = advance()
            try nest()
            defer { depth -= 1 }
            return Expression(kind: .prefix(start.text, try unary()), location: start.location)
        }
        if start.isa("alignof") { throw .unsupported(start.location, start.text) }
        if start.isa("sizeof") {
            _ = advance()
            try nest()
            defer { depth -= 1 }
            guard current.isa("("), startsType(1), isCast() else {
                return Expression(kind: .sizeOfValue(try unary()), location: start.location)
            }
            _ = advance()
            let type = try declaredType()
            if type.indirection != .none { throw .unsupported(start.location, "sizeof of a pointer or reference type") }
            try expect(")")
            return Expression(kind: .sizeOfType(type.base), location: start.location)
        }
        if start.isa("("), startsType(1), isCast() {
            _ = advance()
            let type = try declaredType()
            if type.indirection != .none || type.addressSpace != nil {
                throw .unsupported(start.location, "casts to pointers and references")
            }
            try expect(")")
            try nest()
            defer { depth -= 1 }
            return Expression(kind: .cast(type.base, try unary()), location: start.location)
        }
        return try postfix()
    }

    /// Whether the `(` here opens a C cast: a type followed by `)`, where the type is no
    /// expression (`(float)x` against `(float4(1))`).
    func isCast() -> Bool {
        var offset = 1
        while peek(offset).kind == .identifier, Self.qualifiers.contains(peek(offset).text) { offset += 1 }
        guard peek(offset).kind == .identifier else { return false }
        offset += 1
        if peek(offset).isa("::") { offset += 2 }
        if peek(offset).isa("<") {
            var angles = 1
            offset += 1
            while angles > 0, peek(offset).kind != .end {
                if peek(offset).isa("<") { angles += 1 } else if peek(offset).isa(">") { angles -= 1 } else if peek(offset).isa(">>") { angles -= 2 }
                offset += 1
            }
        }
        while peek(offset).isa("*") || peek(offset).isa("&") || peek(offset).isa("const") { offset += 1 }
        return peek(offset).isa(")")
    }

    mutating func postfix() throws(Diagnostic) -> Expression {
        var value = try primary()
        while true {
            let location = value.location
            if current.isa("(") {
                _ = advance()
                value = Expression(kind: .call(value, try argumentList()), location: location)
            } else if current.isa("[") && !atAttribute {
                _ = advance()
                let index = try expression()
                try expect("]")
                value = Expression(kind: .index(value, index), location: location)
            } else if accept(".") {
                let member = try identifier("a member name")
                value = Expression(kind: .member(value, member.text), location: location)
            } else if accept("->") {
                let member = try identifier("a member name")
                value = Expression(kind: .arrow(value, member.text), location: location)
            } else if current.isa("++") || current.isa("--") {
                value = Expression(kind: .postfix(advance().text, value), location: location)
            } else {
                return value
            }
        }
    }

    mutating func initializerList() throws(Diagnostic) -> Expression {
        let start = current.location
        try expect("{")
        try nest()
        defer { depth -= 1 }
        var elements: [Expression] = []
        while !accept("}") {
            if current.isa("."), peek(1).kind == .identifier, peek(2).isa("=") {
                let designator = current.location
                let member = advance(), name = advance().text
                _ = (member, advance())
                let value = current.isa("{") ? try initializerList() : try assignment()
                elements.append(Expression(kind: .designated(name, value), location: designator))
            } else {
                elements.append(current.isa("{") ? try initializerList() : try assignment())
            }
            if !accept(",") {
                try expect("}")
                break
            }
        }
        return Expression(kind: .initializerList(elements), location: start)
    }

    mutating func primary() throws(Diagnostic) -> Expression {
        let token = current
        func make(_ kind: Expression.Kind) -> Expression { Expression(kind: kind, location: token.location) }
        switch token.kind {
        case .integer:
            _ = advance()
            return make(.integer(token.text))
        case .floating:
            _ = advance()
            return make(.floating(token.text))
        case .string:
            throw .unsupported(token.location, "string literals")
        case .end:
            throw expected("an expression")
        case .punctuation:
            if token.isa("(") {
                _ = advance()
                let inner = try expression()
                try expect(")")
                return inner
            }
            if token.isa("{") { return try initializerList() }
            if token.isa("::") {
                _ = advance()
                return try primary()
            }
            throw expected("an expression")
        case .identifier:
            break
        }
        switch token.text {
        case "true", "false":
            _ = advance()
            return make(.boolean(token.text == "true"))
        case "static_cast", "as_type":
            _ = advance()
            try expect("<")
            let type = try declaredType()
            if type.indirection != .none { throw .unsupported(token.location, "\(token.text) to pointers and references") }
            try expectClosingAngle()
            try expect("(")
            let value = try expression()
            try expect(")")
            return make(token.text == "as_type" ? .bitcast(type.base, value) : .cast(type.base, value))
        case "reinterpret_cast", "const_cast", "dynamic_cast":
            throw .unsupported(token.location, token.text)
        case "this" where peek(1).isa("->"):
            // `this->member` in a member function; the translator checks that it is in one.
            _ = advance()
            return make(.name("this"))
        case "this", "new", "delete", "throw", "operator", "lambda":
            throw .unsupported(token.location, "'\(token.text)'")
        default:
            break
        }
        // A type's constructor: `float4(…)`, `float4{…}`, `metal::float3(…)`, `array<float, 2>{…}`;
        // a type's name alone is a variable's (`constexpr sampler sampler(…)`, then `sampler`).
        let constructs = peek(1).isa("(") || peek(1).isa("{") || peek(1).isa("<")
        if isTypeName(token.text) && !peek(1).isa("::") && constructs || ((token.text == "metal" || namespaceNames.contains(token.text))
            && peek(1).isa("::") && isTypeName(peek(2).text) && (peek(3).isa("(") || peek(3).isa("{") || peek(3).isa("<"))) {
            let type = try typeName()
            if current.isa("(") {
                _ = advance()
                return make(.construct(type, try argumentList()))
            }
            if current.isa("{") {
                guard case .initializerList(let elements) = try initializerList().kind else { throw expected("'{'") }
                return make(.construct(type, elements))
            }
            throw expected("'(' after the type '\(type.name)'")
        }
        _ = advance()
        var components = [token.text]
        while accept("::") {
            components.append((try identifier("a name")).text)
        }
        // `metal::` and the source's namespaces qualify names of the file's scope.
        while components.count > 1, components[0] == "metal" || namespaceNames.contains(components[0]) {
            components.removeFirst()
        }
        return make(.name(components.joined(separator: "::")))
    }
}
