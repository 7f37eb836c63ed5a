/// A function template instantiated for one call: its declaration with each type parameter
/// replaced by the type the call's arguments give it (C++'s deduction, for parameters
/// declared as the bare type parameter: `T x`, `thread T& x`).
struct TemplateInstantiation {
    /// The type each parameter names, by parameter.
    let types: [String: MSLType]

    /// The types `template`'s parameters take from `arguments`' types, or nil when an
    /// argument gives one two different types or one is given none.
    init?(_ template: FunctionDeclaration, arguments: [MSLType]) {
        guard template.parameters.count == arguments.count else { return nil }
        var types: [String: MSLType] = [:]
        for (parameter, argument) in zip(template.parameters, arguments) {
            let base = parameter.type.base
            guard template.templateParameters.contains(base.name), base.arguments.isEmpty else { continue }
            // Only types that spell back to a name: scalars, vectors, matrices and structs.
            switch argument {
            case .scalar, .vector, .matrix, .structure: break
            default: return nil
            }
            if let known = types[base.name], known != argument { return nil }
            types[base.name] = argument
        }
        guard template.templateParameters.allSatisfy({ types[$0] != nil }) else { return nil }
        self.types = types
    }

    /// The types, in the template's order, as the instance's name spells them.
    func suffix(_ template: FunctionDeclaration) -> String {
        template.templateParameters.map { "\(types[$0]!)" }.joined(separator: "_")
    }

    /// `template` with its type parameters replaced.
    func instantiate(_ template: FunctionDeclaration) -> FunctionDeclaration {
        var function = template
        function.templateParameters = []
        function.returnType = declared(function.returnType)
        function.parameters = function.parameters.map { Parameter(type: declared($0.type), declarator: declarator($0.declarator)) }
        function.body = function.body.map(statement)
        return function
    }

    private func typeName(_ name: TypeName) -> TypeName {
        if let type = types[name.name], name.arguments.isEmpty {
            return TypeName(name: "\(type)", arguments: [], location: name.location)
        }
        var name = name
        name.arguments = name.arguments.map { argument in
            switch argument {
            case .type(let type): .type(typeName(type))
            case .value(let value): .value(expression(value))
            }
        }
        return name
    }

    private func declared(_ type: DeclaredType) -> DeclaredType {
        var type = type
        type.base = typeName(type.base)
        return type
    }

    private func declarator(_ declarator: Declarator) -> Declarator {
        var declarator = declarator
        declarator.arraySizes = declarator.arraySizes.map { $0.map(expression) }
        declarator.initializer = declarator.initializer.map(expression)
        declarator.constructorArguments = declarator.constructorArguments?.map(expression)
        return declarator
    }

    private func statement(_ statement: Statement) -> Statement {
        var statement = statement
        switch statement.kind {
        case .block(let statements): statement.kind = .block(statements.map(self.statement))
        case .declaration(let variables):
            statement.kind = .declaration(VariableDeclaration(type: declared(variables.type), declarators: variables.declarators.map(declarator)))
        case .expression(let value): statement.kind = .expression(expression(value))
        case .conditional(let test, let then, let otherwise):
            statement.kind = .conditional(expression(test), self.statement(then), otherwise.map(self.statement))
        case .forLoop(let start, let test, let step, let body):
            statement.kind = .forLoop(start.map(self.statement), test.map(expression), step.map(expression), self.statement(body))
        case .whileLoop(let test, let body): statement.kind = .whileLoop(expression(test), self.statement(body))
        case .doWhile(let body, let test): statement.kind = .doWhile(self.statement(body), expression(test))
        case .switchStatement(let value, let body): statement.kind = .switchStatement(expression(value), body.map(self.statement))
        case .caseLabel(let value): statement.kind = .caseLabel(expression(value))
        case .returnStatement(let value): statement.kind = .returnStatement(value.map(expression))
        case .defaultLabel, .breakStatement, .continueStatement, .empty: break
        }
        return statement
    }

    private func expression(_ expression: Expression) -> Expression {
        var expression = expression
        switch expression.kind {
        case .integer, .floating, .boolean, .name: break
        case .prefix(let op, let operand): expression.kind = .prefix(op, self.expression(operand))
        case .postfix(let op, let operand): expression.kind = .postfix(op, self.expression(operand))
        case .binary(let op, let left, let right): expression.kind = .binary(op, self.expression(left), self.expression(right))
        case .assignment(let op, let target, let value): expression.kind = .assignment(op, self.expression(target), self.expression(value))
        case .conditional(let test, let then, let otherwise):
            expression.kind = .conditional(self.expression(test), self.expression(then), self.expression(otherwise))
        case .call(let callee, let arguments): expression.kind = .call(self.expression(callee), arguments.map(self.expression))
        case .construct(let type, let arguments): expression.kind = .construct(typeName(type), arguments.map(self.expression))
        case .cast(let type, let operand): expression.kind = .cast(typeName(type), self.expression(operand))
        case .bitcast(let type, let operand): expression.kind = .bitcast(typeName(type), self.expression(operand))
        case .sizeOfType(let type): expression.kind = .sizeOfType(typeName(type))
        case .sizeOfValue(let operand): expression.kind = .sizeOfValue(self.expression(operand))
        case .member(let base, let name): expression.kind = .member(self.expression(base), name)
        case .arrow(let base, let name): expression.kind = .arrow(self.expression(base), name)
        case .index(let base, let index): expression.kind = .index(self.expression(base), self.expression(index))
        case .initializerList(let elements): expression.kind = .initializerList(elements.map(self.expression))
        case .designated(let name, let value): expression.kind = .designated(name, self.expression(value))
        }
        return expression
    }
}
