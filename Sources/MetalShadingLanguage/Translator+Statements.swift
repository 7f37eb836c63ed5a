extension Translator {
    mutating func statement(_ statement: Statement) throws(Diagnostic) {
        let location = statement.location
        switch statement.kind {
        case .block(let statements):
            emit("{")
            indent += 1
            scopes.append([:])
            for inner in statements { try self.statement(inner) }
            scopes.removeLast()
            indent -= 1
            emit("}")
        case .declaration(let declaration):
            try localDeclaration(declaration)
        case .expression(let node):
            emit(try effect(of: try self.expression(node), at: location) + ";")
        case .conditional(let condition, let then, let otherwise):
            emit("if (\(try self.condition(condition)))")
            try scoped(then)
            if let otherwise {
                emit("else")
                try scoped(otherwise)
            }
        case .forLoop(let initializer, let condition, let step, let body):
            // The initializer's variables live in a scope around the loop, as in C++.
            scopes.append([:])
            defer { scopes.removeLast() }
            var initial = ""
            if let initializer {
                let start = lines.count
                try self.statement(initializer)
                let written = lines[start...].map { $0.trimmingLeadingSpaces() }
                lines.removeSubrange(start...)
                guard written.count == 1, let line = written.first else {
                    throw .unsupported(initializer.location, "a for loop initializer of several variables of different types")
                }
                initial = String(line.dropLast())
            }
            let test = try condition.map { (expression) throws(Diagnostic) in try self.condition(expression) } ?? ""
            let increment = try step.map { (expression) throws(Diagnostic) in try effect(of: try self.expression(expression), at: expression.location) } ?? ""
            emit("for (\(initial); \(test); \(increment))")
            try scoped(body)
        case .whileLoop(let condition, let body):
            emit("while (\(try self.condition(condition)))")
            try scoped(body)
        case .doWhile(let body, let condition):
            emit("do")
            try scoped(body)
            emit("while (\(try self.condition(condition)));")
        case .switchStatement(let value, let body):
            let selector = try rvalue(value)
            guard case .scalar(let scalar) = selector.type, scalar.isInteger || scalar == .bool else {
                throw Diagnostic(value.location, "statement requires expression of integer type ('\(selector.type)' invalid)")
            }
            let type = MSLType.scalar(scalar.promoted)
            emit("switch (\(try convert(selector, to: type, at: value.location)))")
            emit("{")
            scopes.append([:])
            for inner in body {
                if case .caseLabel(let label) = inner.kind {
                    let constant = try program.constantInteger(label)
                    emit("case \(type == .scalar(.uint) ? "\(UInt32(truncatingIfNeeded: constant))u" : "\(Int32(truncatingIfNeeded: constant))"):")
                } else if case .defaultLabel = inner.kind {
                    emit("default:")
                } else {
                    indent += 1
                    try self.statement(inner)
                    indent -= 1
                }
            }
            scopes.removeLast()
            emit("}")
        case .caseLabel, .defaultLabel:
            throw Diagnostic(location, "'case' outside a switch statement")
        case .returnStatement(let value):
            try returnStatement(value, at: location)
        case .breakStatement:
            emit("break;")
        case .continueStatement:
            emit("continue;")
        case .empty:
            break
        }
    }

    /// A statement as the body of a branch or loop, in a scope of its own.
    mutating func scoped(_ statement: Statement) throws(Diagnostic) {
        if case .block = statement.kind {
            try self.statement(statement)
            return
        }
        emit("{")
        indent += 1
        scopes.append([:])
        try self.statement(statement)
        scopes.removeLast()
        indent -= 1
        emit("}")
    }

    /// A condition, converted to `bool` as C++ converts scalars.
    mutating func condition(_ expression: Expression) throws(Diagnostic) -> String {
        let value = try rvalue(expression)
        guard case .scalar = value.type else {
            throw Diagnostic(expression.location, "value of type '\(value.type)' is not contextually convertible to 'bool'")
        }
        return Self.strippingParentheses(try convert(value, to: .scalar(.bool), at: expression.location))
    }

    /// `code` without one pair of enclosing parentheses, where they enclose all of it.
    static func strippingParentheses(_ code: String) -> String {
        guard code.hasPrefix("("), code.hasSuffix(")") else { return code }
        var depth = 0
        for (offset, character) in code.enumerated() {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if depth == 0 && offset < code.count - 1 { return code }
        }
        return String(code.dropFirst().dropLast())
    }

    /// The GLSL of `value` evaluated for its effect alone: a statement, a for loop's step.
    func effect(of value: Value, at location: SourceLocation) throws(Diagnostic) -> String {
        if value.changesPointer, let offset = value.offset { return Self.strippingParentheses(offset) }
        if value.pointer || value.block { throw Diagnostic(location, "expression result unused") }
        return Self.strippingParentheses(value.code)
    }

    mutating func localDeclaration(_ declaration: VariableDeclaration) throws(Diagnostic) {
        let declared = declaration.type
        if declared.indirection == .pointer {
            try pointerVariables(declaration)
            return
        }
        // A reference to `constant` memory reads what cannot change while it lives: a const
        // copy reads the same. Any other memory may change through another name.
        let readOnlyReference = declared.indirection == .reference && declared.addressSpace == .constant
        if declared.indirection == .reference && !readOnlyReference {
            throw .unsupported(declared.location, "reference variables to device, threadgroup or thread memory")
        }
        if declared.addressSpace == .device || declared.addressSpace == .constant && !declared.isConstexpr && !readOnlyReference {
            throw Diagnostic(declared.location, "variables in the '\(declared.addressSpace!.rawValue)' address space must be declared at file scope or be parameters")
        }
        for declarator in declaration.declarators {
            let type = try program.resolve(declared.base, for: declarator)
            let defaultSampler = type == .sampler && declarator.initializer == nil && declarator.constructorArguments == nil
            if case .sampler = type, declared.isConstexpr || defaultSampler {
                // Fixed in the function as a file-scope one is, under a name of its own; a
                // default-constructed `sampler s;` has Metal's default settings.
                let variable = try constantSampler(declarator, glslName: unique(GLSLNames.identifier(declarator.name) + "_"))
                try declare(declarator.name, variable, at: declarator.location)
                continue
            }
            switch type {
            case .void: throw Diagnostic(declarator.location, "variable has incomplete type 'void'")
            case .texture, .sampler: throw .unsupported(declarator.location, "local texture and sampler variables")
            default: break
            }
            if declared.addressSpace == .threadgroup {
                try threadgroupVariable(type, declarator)
                continue
            }
            let name = localName(declarator.name)
            var line = try glslDeclaration(type, name, at: declarator.location)
            let isConst = declared.isConst || declared.isConstexpr || readOnlyReference
            if readOnlyReference && declarator.initializer == nil {
                throw Diagnostic(declarator.location, "declaration of reference variable '\(declarator.name)' requires an initializer")
            }
            if isConst { line = "const " + line }
            if let arguments = declarator.constructorArguments {
                line += " = \(try construct(type, arguments, at: declarator.location).code)"
            } else if let initializer = declarator.initializer {
                line += " = \(try initialize(type, with: initializer))"
            } else if isConst {
                throw Diagnostic(declarator.location, "default initialization of an object of const type '\(type)'")
            } else if case .structure(let structName) = type, program.structs[structName]?.members.contains(where: { $0.defaultValue != nil }) == true {
                // Default initialization runs the default member initializers.
                line += " = \(try zero(type, at: declarator.location))"
            }
            emit(line + ";")
            try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: !isConst, space: .thread),
                        at: declarator.location)
        }
    }

    /// A `threadgroup` variable of a kernel: GLSL's `shared`, declared at file scope.
    mutating func threadgroupVariable(_ type: MSLType, _ declarator: Declarator) throws(Diagnostic) {
        guard entry.stage == .kernel, function?.isEntry == true else {
            throw Diagnostic(declarator.location, "threadgroup variables are declared in kernels")
        }
        if declarator.initializer != nil || declarator.constructorArguments != nil {
            throw Diagnostic(declarator.location, "threadgroup variables cannot have an initializer")
        }
        let name = unique("tg_\(declarator.name)_")
        globalSection.append("shared \(try glslDeclaration(type, name, at: declarator.location));")
        try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: true, space: .threadgroup),
                    at: declarator.location)
    }

    mutating func returnStatement(_ value: Expression?, at location: SourceLocation) throws(Diagnostic) {
        guard let function else { return }
        if function.isEntry {
            guard let value else {
                guard function.returnType == .void else { throw Diagnostic(location, "non-void function should return a value") }
                emit("return;")
                return
            }
            guard let (type, write) = entryReturn else { throw Diagnostic(location, "void function should not return a value") }
            let result = unique("result")
            emit("{")
            indent += 1
            emit("\(try glslDeclaration(type, result, at: location)) = \(try initialize(type, with: value));")
            for line in write(result) { emit(line) }
            emit("return;")
            indent -= 1
            emit("}")
            return
        }
        guard let value else {
            guard function.returnType == .void else { throw Diagnostic(location, "non-void function should return a value") }
            emit("return;")
            return
        }
        guard function.returnType != .void else { throw Diagnostic(location, "void function should not return a value") }
        emit("return \(Self.strippingParentheses(try initialize(function.returnType, with: value)));")
    }

    // MARK: Functions

    /// Translates a function the entry point calls, once, into the function section, and
    /// gives its GLSL name.
    mutating func translateFunction(_ declaration: FunctionDeclaration, key: String, glslName: String) throws(Diagnostic) -> String {
        if let name = translatedFunctions[key] { return name }
        guard !inProgress.contains(key) else {
            throw .unsupported(declaration.location, "recursion ('\(declaration.name)' calls itself)")
        }
        inProgress.insert(key)
        defer { inProgress.remove(key) }
        let saved = (lines, indent, scopes, function)
        defer { (lines, indent, scopes, function) = saved }
        lines = []
        indent = 1
        scopes = [[:]]
        let returnType = try program.resolve(declaration.returnType.base)
        if declaration.returnType.indirection != .none {
            throw .unsupported(declaration.returnType.location, "functions that return pointers or references")
        }
        function = FunctionContext(declaration: declaration, returnType: returnType, isEntry: false)
        var parameters: [String] = []
        for parameter in declaration.parameters {
            let declarator = parameter.declarator
            let type = try program.resolve(parameter.type.base, sizes: declarator.arraySizes)
            let space = parameter.type.addressSpace ?? .thread
            if (space == .device || space == .constant), let narrow = type.storedNarrow(program) {
                // A copy of the argument would be read from storage types a helper does not see.
                let what = narrow.scalar == .half ? "16-bit floats" : "8- and 16-bit integers"
                throw .unsupported(declarator.location, "\(what) ('\(narrow)') in a '\(space.rawValue)' parameter of a function other than an entry point")
            }
            var qualifier = ""
            switch parameter.type.indirection {
            case .pointer:
                throw .unsupported(declarator.location, "pointer parameters of functions other than entry points")
            case .reference where space == .thread && !parameter.type.isConst:
                qualifier = "inout "
            case .reference where space == .device && !parameter.type.isConst, .reference where space == .threadgroup:
                throw .unsupported(declarator.location, "'\(space.rawValue)' reference parameters of functions other than entry points")
            default:
                break // a value, or a const reference: a copy reads the same
            }
            let name = localName(declarator.name.isEmpty ? "unnamed" : declarator.name)
            parameters.append(qualifier + (try glslDeclaration(type, name, at: declarator.location)))
            if !declarator.name.isEmpty {
                try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: !parameter.type.isConst,
                                                      space: .thread), at: declarator.location)
            }
        }
        guard case .block(let statements)? = declaration.body?.kind else { return glslName }
        for statement in statements { try self.statement(statement) }
        let header = "\(try glslType(returnType, at: declaration.location)) \(glslName)(\(parameters.joined(separator: ", ")))"
        functionSection.append(header + "\n{\n" + lines.joined(separator: "\n") + "\n}")
        translatedFunctions[key] = glslName
        return glslName
    }

    /// A global constant's GLSL declaration, written once.
    mutating func emitGlobal(_ name: String) throws(Diagnostic) -> Variable {
        if let variable = emittedGlobals[name] { return variable }
        guard let global = program.globals[name] else { throw Diagnostic(entry.location, "use of undeclared identifier '\(name)'") }
        let declarator = global.declarator
        let type = try program.resolve(global.type.base, for: declarator)
        if case .sampler = type {
            return try constantSampler(name, global)
        }
        guard global.type.addressSpace == .constant || global.type.isConst || global.type.isConstexpr else {
            throw Diagnostic(declarator.location, "program scope variable must reside in constant address space")
        }
        guard global.type.indirection == .none else { throw .unsupported(declarator.location, "global pointers and references") }
        if let attribute = declarator.attributes.first(where: { $0.name == "function_constant" }) {
            return try functionConstant(name, type, declarator, attribute)
        }
        guard let initializer = declarator.initializer ?? declarator.constructorArguments.map({
            Expression(kind: .construct(global.type.base, $0), location: declarator.location)
        }) else {
            throw Diagnostic(declarator.location, "default initialization of an object of const type '\(type)'")
        }
        // The initializer is translated outside any function.
        let saved = (scopes, function)
        scopes = [[:]]
        function = nil
        defer { (scopes, function) = saved }
        let glslName = GLSLNames.identifier(name)
        let value = try initialize(type, with: initializer)
        globalSection.append("const \(try glslDeclaration(type, glslName, at: declarator.location)) = \(value);")
        let variable = Variable(kind: .value, type: type, code: glslName, mutable: false, space: .constant)
        emittedGlobals[name] = variable
        return variable
    }
}

extension Translator {
    /// `constant T name [[function_constant(n)]];`: a specialization constant with id n,
    /// which ``Library/makeFunction(name:constantValues:)`` sets by index or by name as it
    /// sets GLSL's `layout(constant_id = n)`. A specialization constant always has a value:
    /// where the app gives none, it is zero (false).
    mutating func functionConstant(_ name: String, _ type: MSLType, _ declarator: Declarator,
                                   _ attribute: Attribute) throws(Diagnostic) -> Variable {
        guard case .scalar(let scalar) = type, [.bool, .int, .uint, .float, .half].contains(scalar) else {
            throw .unsupported(declarator.location, "function constants of type '\(type)' (bool, int, uint, float and half are)")
        }
        if declarator.initializer != nil || declarator.constructorArguments != nil {
            throw Diagnostic(declarator.location, "a function constant takes its value from the pipeline, not an initializer")
        }
        let index = try attributeIndex(attribute, limit: 65535)
        guard index <= Self.maxFunctionConstantIndex else {
            throw .unsupported(attribute.arguments[0].location, "function_constant index \(index) (SwiftGPU compiles 0..."
                + "\(Self.maxFunctionConstantIndex): glslang's specialization constant ids end at 2046, and the ids after "
                + "\(Self.maxFunctionConstantIndex) hold threadgroup memory lengths)")
        }
        let glslName = GLSLNames.identifier(name)
        globalSection.append("layout(constant_id = \(index)) const \(scalar.glsl) \(glslName) = \(try zero(type, at: declarator.location));")
        let variable = Variable(kind: .value, type: type, code: glslName, mutable: false, space: .constant)
        emittedGlobals[name] = variable
        return variable
    }
}

extension String {
    /// The string without its leading spaces.
    func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
