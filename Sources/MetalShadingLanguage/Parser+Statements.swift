extension Parser {
    /// `{ statements }`.
    mutating func block() throws(Diagnostic) -> Statement {
        let start = current.location
        try expect("{")
        try nest()
        defer { depth -= 1 }
        var statements: [Statement] = []
        while !accept("}") {
            if current.kind == .end { throw expected("'}'") }
            statements.append(try statement())
        }
        return Statement(kind: .block(statements), location: start)
    }

    /// Whether a local declaration starts here: qualifiers, or a type name followed by a
    /// name, a pointer, a reference or template arguments.
    var startsDeclaration: Bool {
        guard current.kind == .identifier else { return false }
        if Self.qualifiers.contains(current.text) || isQualifiedTypeName() { return true }
        guard isTypeName(current.text) else { return false }
        let next = peek(1)
        return next.kind == .identifier || next.isa("<") || next.isa("*") || next.isa("&") || next.isa("::")
    }

    mutating func statement() throws(Diagnostic) -> Statement {
        let start = current
        func make(_ kind: Statement.Kind) -> Statement { Statement(kind: kind, location: start.location) }
        if current.isa("{") { return try block() }
        if accept(";") { return make(.empty) }
        if start.kind == .identifier {
            switch start.text {
            case "if":
                _ = advance()
                try expect("(")
                let condition = try expression()
                try expect(")")
                let then = try nestedStatement()
                let otherwise = accept("else") ? try nestedStatement() : nil
                return make(.conditional(condition, then, otherwise))
            case "for":
                _ = advance()
                try expect("(")
                var initializer: Statement?
                if !accept(";") {
                    initializer = try simpleStatement()
                }
                let condition = current.isa(";") ? nil : try expression()
                try expect(";")
                let step = current.isa(")") ? nil : try expression()
                try expect(")")
                return make(.forLoop(initializer, condition, step, try nestedStatement()))
            case "while":
                _ = advance()
                try expect("(")
                let condition = try expression()
                try expect(")")
                return make(.whileLoop(condition, try nestedStatement()))
            case "do":
                _ = advance()
                let body = try nestedStatement()
                try expect("while")
                try expect("(")
                let condition = try expression()
                try expect(")")
                try expect(";")
                return make(.doWhile(body, condition))
            case "switch":
                _ = advance()
                try expect("(")
                let value = try expression()
                try expect(")")
                guard case .block(let body) = try block().kind else { throw expected("'{'") }
                return make(.switchStatement(value, body))
            case "case":
                _ = advance()
                let value = try conditional()
                try expect(":")
                return make(.caseLabel(value))
            case "default":
                _ = advance()
                try expect(":")
                return make(.defaultLabel)
            case "return":
                _ = advance()
                if accept(";") { return make(.returnStatement(nil)) }
                let value = current.isa("{") ? try initializerList() : try expression()
                try expect(";")
                return make(.returnStatement(value))
            case "break":
                _ = advance()
                try expect(";")
                return make(.breakStatement)
            case "continue":
                _ = advance()
                try expect(";")
                return make(.continueStatement)
            case "goto":
                throw .unsupported(start.location, "goto")
            case "struct", "enum", "typedef", "using", "union", "class":
                throw .unsupported(start.location, "a \(start.text) declared inside a function")
            default:
                break
            }
        }
        return try simpleStatement()
    }

    /// A statement as the body of another, counted for nesting.
    mutating func nestedStatement() throws(Diagnostic) -> Statement {
        try nest()
        defer { depth -= 1 }
        return try statement()
    }

    /// A declaration or an expression, with its `;`.
    mutating func simpleStatement() throws(Diagnostic) -> Statement {
        let start = current.location
        if startsDeclaration {
            let type = try declaredType()
            var declarators: [Declarator] = []
            repeat { declarators.append(try declarator(allowsInitializer: true)) } while accept(",")
            try expect(";", "';' after the declaration")
            return Statement(kind: .declaration(VariableDeclaration(type: type, declarators: declarators)), location: start)
        }
        if current.kind == .identifier, peek(1).kind == .identifier, !Self.qualifiers.contains(peek(1).text) {
            throw Diagnostic(current.location, "unknown type name '\(current.text)'")
        }
        let value = try expression()
        try expect(";", "';' after the expression")
        return Statement(kind: .expression(value), location: start)
    }
}
