/// A recursive-descent parser for the part of C++ that Metal shaders use: structs, enums,
/// type aliases, global constants, functions (entry points and helpers) and their
/// statements and expressions. It knows which names are types as it goes, as C++ does.
package struct Parser {
    var tokens: [Token]
    var at = 0
    /// Names the source declared as types (structs, enums, aliases).
    var typeNames: Set<String> = []
    /// Names of the namespaces the source declared, whose declarations join the file's
    /// scope (a qualified name drops them).
    var namespaceNames: Set<String> = []
    /// How deeply expressions and statements nest now.
    var depth = 0
    /// The deepest nesting parsed: beyond it the source is refused, not the stack overflowed.
    static let maximumDepth = 128

    /// A parser of preprocessed `tokens`, which end with `.end`.
    package init(tokens: [Token]) {
        self.tokens = tokens
    }

    /// Parses a whole translation unit.
    package mutating func parse() throws(Diagnostic) -> [TopLevelDeclaration] {
        var declarations: [TopLevelDeclaration] = []
        while current.kind != .end {
            if accept(";") { continue }
            declarations += try topLevel()
        }
        return declarations
    }

    // MARK: Tokens

    var current: Token { tokens[at] }

    func peek(_ offset: Int) -> Token { tokens[min(at + offset, tokens.count - 1)] }

    mutating func advance() -> Token {
        let token = tokens[at]
        if token.kind != .end { at += 1 }
        return token
    }

    mutating func accept(_ text: String) -> Bool {
        guard current.isa(text), current.kind != .string else { return false }
        at += 1
        return true
    }

    mutating func expect(_ text: String, _ what: String? = nil) throws(Diagnostic) {
        guard accept(text) else { throw expected(what ?? "'\(text)'") }
    }

    func expected(_ what: String) -> Diagnostic {
        let found = current.kind == .end ? "end of file" : "'\(current.text)'"
        return Diagnostic(current.location, "expected \(what), found \(found)")
    }

    mutating func identifier(_ what: String) throws(Diagnostic) -> Token {
        guard current.kind == .identifier else { throw expected(what) }
        return advance()
    }

    /// Accepts a `>` that closes a template argument list, splitting a `>>` in two.
    mutating func expectClosingAngle() throws(Diagnostic) {
        if accept(">") { return }
        if current.isa(">>") {
            tokens[at].text = ">"
            tokens[at].location.column += 1
            return
        }
        throw expected("'>'")
    }

    /// Whether `[[` starts here.
    var atAttribute: Bool { current.isa("[") && peek(1).isa("[") }

    mutating func nest() throws(Diagnostic) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw Diagnostic(current.location, "unsupported: nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    // MARK: Declarations

    static let qualifiers: Set<String> = ["const", "constexpr", "device", "constant", "threadgroup", "thread", "static",
                                          "inline", "volatile", "METAL_FUNC", "__attribute__"]

    /// Whether a name is a type here.
    func isTypeName(_ name: String) -> Bool {
        BuiltinTypeNames.contains(name) || typeNames.contains(name) || name == "metal" || name == "struct"
    }

    /// Whether a declaration's type starts here (in a statement or a cast).
    func startsType(_ offset: Int = 0) -> Bool {
        let token = peek(offset)
        guard token.kind == .identifier else { return false }
        return Self.qualifiers.contains(token.text) || isTypeName(token.text) || isQualifiedTypeName(offset)
    }

    /// Whether `Namespace::Type` (a namespace the source declared) starts at `offset`.
    func isQualifiedTypeName(_ offset: Int = 0) -> Bool {
        var end = offset
        while namespaceNames.contains(peek(end).text), peek(end + 1).isa("::") { end += 2 }
        return end > offset && peek(end).kind == .identifier && isTypeName(peek(end).text)
    }

    /// `namespace [name] { declarations }`: the declarations, in the file's scope.
    mutating func namespace() throws(Diagnostic) -> [TopLevelDeclaration] {
        _ = advance()
        if current.kind == .identifier { namespaceNames.insert(advance().text) }
        try expect("{")
        try nest()
        defer { depth -= 1 }
        var declarations: [TopLevelDeclaration] = []
        while !accept("}") {
            if current.kind == .end { throw expected("'}'") }
            if accept(";") { continue }
            declarations += try topLevel()
        }
        return declarations
    }

    mutating func topLevel() throws(Diagnostic) -> [TopLevelDeclaration] {
        let start = current
        switch start.kind == .identifier ? start.text : "" {
        case "using":
            _ = advance()
            if accept("namespace") {
                let name = try identifier("a namespace name")
                guard name.text == "metal" || namespaceNames.contains(name.text) else {
                    throw .unsupported(name.location, "namespace '\(name.text)'")
                }
                try expect(";")
                return []
            }
            if peek(1).isa("::") { throw .unsupported(start.location, "using-declarations ('using \(current.text)::…')") }
            let name = try identifier("a name")
            try expect("=")
            let type = try declaredType()
            try expect(";")
            typeNames.insert(name.text)
            return [.alias(name: name.text, type: type, location: name.location)]
        case "typedef":
            _ = advance()
            return try typedef()
        case "struct", "class":
            if peek(1).kind == .identifier, peek(2).isa("{") || peek(2).isa(":") || peek(1).isa("__attribute__") || peek(1).isa("alignas") {
                let declaration = try structure()
                try expect(";")
                return [.structure(declaration)]
            }
        case "enum":
            let declaration = try enumeration()
            try expect(";")
            return [.enumeration(declaration)]
        case "template":
            return try functionTemplate()
        case "namespace":
            return try namespace()
        case "union":
            throw .unsupported(start.location, "unions")
        case "static_assert":
            throw .unsupported(start.location, "static_assert")
        default:
            break
        }
        return try functionOrVariable()
    }

    mutating func typedef() throws(Diagnostic) -> [TopLevelDeclaration] {
        var declarations: [TopLevelDeclaration] = []
        let type: DeclaredType
        if current.isa("struct") && (peek(1).isa("{") || peek(2).isa("{") || peek(1).isa("__attribute__") || peek(1).isa("alignas")) {
            var declaration = try structure(anonymousAllowed: true)
            let name = try identifier("a type name")
            if declaration.name.isEmpty { declaration.name = name.text }
            declarations.append(.structure(declaration))
            type = DeclaredType(base: TypeName(name: declaration.name, arguments: [], location: name.location),
                                location: name.location)
            typeNames.insert(name.text)
            if name.text != declaration.name {
                declarations.append(.alias(name: name.text, type: type, location: name.location))
            }
            try expect(";")
            return declarations
        }
        if current.isa("enum") {
            var declaration = try enumeration()
            let name = try identifier("a type name")
            if declaration.name == nil { declaration.name = name.text }
            typeNames.insert(name.text)
            try expect(";")
            return [.enumeration(declaration)]
        }
        type = try declaredType()
        let name = try identifier("a type name")
        if current.isa("[") { throw .unsupported(current.location, "typedef of an array type") }
        try expect(";")
        typeNames.insert(name.text)
        return [.alias(name: name.text, type: type, location: name.location)]
    }

    /// `template <typename T, …>` and the function it declares: its type parameters are type
    /// names inside it only. Class templates and other kinds of parameter are refused.
    mutating func functionTemplate() throws(Diagnostic) -> [TopLevelDeclaration] {
        let keyword = advance()
        try expect("<")
        var parameters: [String] = []
        while !current.isa(">") {
            guard accept("typename") || accept("class") else {
                throw .unsupported(current.location, "template parameters other than types")
            }
            let name = try identifier("a template parameter's name")
            if current.isa("=") { throw .unsupported(current.location, "default template arguments") }
            parameters.append(name.text)
            if !accept(",") { break }
        }
        try expect(">")
        if current.isa("struct") || current.isa("class") { throw .unsupported(keyword.location, "class templates") }
        let added = Set(parameters).subtracting(typeNames)
        typeNames.formUnion(added)
        defer { typeNames.subtract(added) }
        let declarations = try functionOrVariable()
        guard declarations.count == 1, case .function(var function) = declarations[0], function.stage == nil else {
            throw .unsupported(keyword.location, "templates of anything but functions")
        }
        function.templateParameters = parameters
        return [.function(function)]
    }

    /// `__attribute__((packed, aligned(n)))` or `alignas(n)` after `struct`: the layout
    /// attributes a C header shared with Swift gives a struct; any other is refused by name.
    mutating func structAttributes(packed: inout Bool, alignment: inout Expression?) throws(Diagnostic) {
        if accept("alignas") {
            try expect("(")
            alignment = try conditional()
            try expect(")")
            return
        }
        _ = advance()
        try expect("(")
        try expect("(")
        repeat {
            let item = try identifier("an attribute")
            switch item.text {
            case "packed", "__packed__":
                packed = true
            case "aligned", "__aligned__":
                guard accept("(") else { throw .unsupported(item.location, "__attribute__((aligned)) without an alignment") }
                alignment = try conditional()
                try expect(")")
            default:
                throw .unsupported(item.location, "__attribute__((\(item.text))) on a struct")
            }
        } while accept(",")
        try expect(")")
        try expect(")")
    }

    mutating func structure(anonymousAllowed: Bool = false) throws(Diagnostic) -> StructDeclaration {
        let keyword = advance()
        var packed = false
        var alignment: Expression?
        while current.isa("__attribute__") || current.isa("alignas") {
            try structAttributes(packed: &packed, alignment: &alignment)
        }
        var name = ""
        var location = keyword.location
        if current.kind == .identifier {
            let token = advance()
            name = token.text
            location = token.location
            typeNames.insert(name)
        } else if !anonymousAllowed {
            throw expected("a struct name")
        }
        if current.isa(":") { throw .unsupported(current.location, "struct inheritance") }
        if current.isa("__attribute__") || current.isa("alignas") {
            throw .unsupported(current.location, "\(current.text) after a struct's name (write it after 'struct')")
        }
        try expect("{")
        var members: [(type: DeclaredType, declarator: Declarator)] = []
        var methods: [FunctionDeclaration] = []
        while !accept("}") {
            if current.kind == .end { throw expected("'}'") }
            if accept(";") { continue }
            if current.isa("struct") || current.isa("union") || current.isa("enum") {
                throw .unsupported(current.location, "a \(current.text) declared inside a struct")
            }
            if current.isa("static") { throw .unsupported(current.location, "static members") }
            let type = try declaredType()
            if current.isa("(") { throw .unsupported(type.location, "constructors") }
            if current.isa("operator") { throw .unsupported(current.location, "operator overloading") }
            if current.kind == .identifier, peek(1).isa("(") {
                guard !name.isEmpty else { throw .unsupported(current.location, "member functions of an unnamed struct") }
                methods.append(try function(stage: nil, returnType: type, attributes: [], methodOf: name))
                continue
            }
            repeat {
                // A default member initializer (`float3 emitted { 0 };`, `= 1`) is the
                // declarator's initializer.
                let declarator = try declarator(allowsInitializer: true)
                if declarator.constructorArguments != nil { throw .unsupported(declarator.location, "member functions") }
                members.append((type, declarator))
            } while accept(",")
            try expect(";")
        }
        return StructDeclaration(name: name, members: members, location: location, methods: methods, packed: packed,
                                 alignment: alignment)
    }

    mutating func enumeration() throws(Diagnostic) -> EnumDeclaration {
        let keyword = advance()
        _ = accept("class") || accept("struct")
        var name: String?
        if current.kind == .identifier {
            name = advance().text
            typeNames.insert(name!)
        }
        var underlying: TypeName?
        if accept(":") { underlying = try declaredType().base }
        try expect("{")
        var enumerators: [(name: String, value: Expression?, location: SourceLocation)] = []
        while !accept("}") {
            let enumerator = try identifier("an enumerator")
            var value: Expression?
            if accept("=") { value = try conditional() }
            enumerators.append((enumerator.text, value, enumerator.location))
            if !accept(",") {
                try expect("}")
                break
            }
        }
        return EnumDeclaration(name: name, underlyingType: underlying, enumerators: enumerators, location: keyword.location)
    }

    mutating func functionOrVariable() throws(Diagnostic) -> [TopLevelDeclaration] {
        var attributes = try attributeList()
        var stage: Stage?
        for attribute in attributes {
            if let named = Stage(rawValue: attribute.name) { stage = named }
        }
        attributes.removeAll { Stage(rawValue: $0.name) != nil }
        while current.kind == .identifier {
            if let named = Stage(rawValue: current.text) {
                stage = named
                _ = advance()
            } else if ["static", "inline", "METAL_FUNC"].contains(current.text) {
                _ = advance()
            } else if ["visible", "intersection", "mesh", "object", "stitchable"].contains(current.text),
                      peek(1).kind == .identifier {
                throw .unsupported(current.location, "\(current.text) functions")
            } else {
                break
            }
        }
        let type = try declaredType()
        guard current.kind == .identifier else { throw expected("a name") }
        // `constexpr sampler s(filter::linear)` and `constant float3 d(0, 0, -1)` declare
        // variables, not functions: a function's parameters start with a type or `)`.
        let parameters = startsType(2) || peek(2).isa(")")
        // A `constexpr` function's parameters start with a type; `constexpr sampler s()` is a variable.
        if (peek(1).isa("(") && (!type.isConstexpr || startsType(2)) && parameters) || (peek(1).isa("[") && peek(2).isa("[") && stage != nil) {
            return [.function(try function(stage: stage, returnType: type, attributes: attributes))]
        }
        if let stage { throw Diagnostic(type.location, "\(stage.rawValue) must qualify a function") }
        var declarators: [Declarator] = []
        repeat { declarators.append(try declarator(allowsInitializer: true)) } while accept(",")
        try expect(";")
        return [.variable(VariableDeclaration(type: type, declarators: declarators))]
    }

    /// A function's declaration. For a member function of struct `methodOf`, its object is
    /// a first parameter `this`: a `thread` reference, or for a `const` one a copy.
    mutating func function(stage: Stage?, returnType: DeclaredType, attributes: [Attribute],
                           methodOf: String? = nil) throws(Diagnostic) -> FunctionDeclaration {
        let name = advance()
        var attributes = attributes
        attributes += try attributeList()
        try expect("(")
        var parameters: [Parameter] = []
        if !(current.isa("void") && peek(1).isa(")")) {
            while !current.isa(")") {
                let type = try declaredType()
                let declarator = try declarator(allowsInitializer: false, nameOptional: true)
                if current.isa("=") { throw .unsupported(current.location, "default arguments") }
                parameters.append(Parameter(type: type, declarator: declarator))
                if !accept(",") { break }
            }
        } else {
            _ = advance()
        }
        try expect(")", "')' after the parameters")
        if let methodOf {
            let isConst = accept("const")
            if current.isa("thread") || current.isa("device") || current.isa("constant") || current.isa("threadgroup") {
                throw .unsupported(current.location, "member functions qualified with an address space")
            }
            let object = DeclaredType(base: TypeName(name: methodOf, arguments: [], location: name.location),
                                      addressSpace: isConst ? nil : .thread, isConst: isConst,
                                      indirection: isConst ? .none : .reference, location: name.location)
            parameters.insert(Parameter(type: object, declarator: Declarator(name: "this", arraySizes: [], attributes: [], initializer: nil,
                                                                            constructorArguments: nil, location: name.location)), at: 0)
        } else if current.isa("const") {
            throw .unsupported(current.location, "'const' after a function's parameters outside a struct")
        }
        attributes += try attributeList()
        var body: Statement?
        if !accept(";") {
            guard current.isa("{") else { throw expected("'{' or ';' after the function's declaration") }
            body = try block()
        }
        return FunctionDeclaration(stage: stage, returnType: returnType, name: methodOf.map { "\($0)::\(name.text)" } ?? name.text,
                                   parameters: parameters, attributes: attributes, body: body, location: name.location,
                                   methodOf: methodOf)
    }

    /// A name with its array sizes, attributes and initializer.
    mutating func declarator(allowsInitializer: Bool, nameOptional: Bool = false) throws(Diagnostic) -> Declarator {
        let location = current.location
        var name = ""
        if current.kind == .identifier {
            name = advance().text
        } else if !nameOptional {
            throw expected("a name")
        }
        var sizes: [Expression?] = []
        while current.isa("[") && !atAttribute {
            _ = advance()
            sizes.append(current.isa("]") ? nil : try expression())
            try expect("]")
        }
        let attributes = try attributeList()
        var initializer: Expression?
        var arguments: [Expression]?
        if allowsInitializer {
            if accept("=") {
                initializer = current.isa("{") ? try initializerList() : try assignment()
            } else if current.isa("{") {
                initializer = try initializerList()
            } else if accept("(") {
                arguments = try argumentList()
            }
        }
        return Declarator(name: name, arraySizes: sizes, attributes: attributes, initializer: initializer,
                          constructorArguments: arguments, location: location)
    }

    /// `[[a, b(1)]] [[c]]`, as many as follow.
    mutating func attributeList() throws(Diagnostic) -> [Attribute] {
        var attributes: [Attribute] = []
        while atAttribute {
            at += 2
            repeat {
                var name = try identifier("an attribute")
                var text = name.text
                while accept("::") {
                    name = try identifier("an attribute")
                    text += "::" + name.text
                }
                var arguments: [Expression] = []
                if accept("(") { arguments = try argumentList() }
                attributes.append(Attribute(name: text, arguments: arguments, location: name.location))
            } while accept(",")
            try expect("]", "']]'")
            try expect("]", "']]'")
        }
        return attributes
    }

    /// The arguments after a `(`, and the `)`.
    mutating func argumentList() throws(Diagnostic) -> [Expression] {
        var arguments: [Expression] = []
        if accept(")") { return arguments }
        repeat {
            arguments.append(current.isa("{") ? try initializerList() : try assignment())
        } while accept(",")
        try expect(")", "')' after the arguments")
        return arguments
    }

    /// A type with its qualifiers, pointer or reference.
    mutating func declaredType() throws(Diagnostic) -> DeclaredType {
        let location = current.location
        var isConst = false, isConstexpr = false
        var space: AddressSpace?
        func qualifiers(_ parser: inout Parser) throws(Diagnostic) {
            while parser.current.kind == .identifier {
                switch parser.current.text {
                case "const": isConst = true
                case "constexpr": isConstexpr = true
                case "static", "inline", "METAL_FUNC": break
                case "volatile": throw .unsupported(parser.current.location, "volatile")
                case "__attribute__": throw .unsupported(parser.current.location, "__attribute__")
                default:
                    guard let named = AddressSpace(rawValue: parser.current.text) else { return }
                    if let space, space != named {
                        throw Diagnostic(parser.current.location, "conflicting address spaces '\(space.rawValue)' and '\(named.rawValue)'")
                    }
                    space = named
                }
                _ = parser.advance()
            }
        }
        try qualifiers(&self)
        let base = try typeName()
        try qualifiers(&self)
        var indirection = Indirection.none
        if accept("*") {
            indirection = .pointer
            _ = accept("const")
            if current.isa("*") { throw .unsupported(current.location, "pointers to pointers") }
            if current.isa("&") { throw .unsupported(current.location, "references to pointers") }
        } else if accept("&") {
            indirection = .reference
        } else if current.isa("&&") {
            throw .unsupported(current.location, "rvalue references")
        }
        return DeclaredType(base: base, addressSpace: space, isConst: isConst, isConstexpr: isConstexpr,
                            indirection: indirection, location: location)
    }

    /// Metal's pixel storage types (`rgba8unorm<half4>`), each a format an image block or
    /// tile memory stores its value in.
    static let pixelStorageTypes: Set<String> = [
        "r8unorm", "r8snorm", "r16unorm", "r16snorm", "rg8unorm", "rg8snorm", "rg16unorm", "rg16snorm", "rgba8unorm",
        "srgba8unorm", "rgba8snorm", "rgba16unorm", "rgba16snorm", "rgb10a2", "rg11b10f", "rgb9e5",
    ]

    /// A type's name with its template arguments.
    mutating func typeName() throws(Diagnostic) -> TypeName {
        _ = accept("struct") || accept("enum")
        let first = try identifier("a type")
        var name = first.text
        if name == "metal", accept("::") { name = try identifier("a type").text }
        while namespaceNames.contains(name), accept("::") { name = try identifier("a type").text }
        guard isTypeName(name) else {
            // Metal's tessellation factor buffers: a stage SwiftGPU has no counterpart for.
            if name.hasPrefix("MTL"), name.contains("TessellationFactors") {
                throw .unsupported(first.location, "tessellation (the type '\(name)')")
            }
            // Metal's pixel storage types, which image blocks and tile memory hold.
            if Self.pixelStorageTypes.contains(name) {
                throw .unsupported(first.location, "pixel storage types of image blocks ('\(name)')")
            }
            throw Diagnostic(first.location, "unknown type name '\(name)'")
        }
        if name == "unsigned" {
            if accept("int") { name = "uint" } else if accept("short") { name = "ushort" } else if accept("char") { name = "uchar" }
        }
        if name == "long" || name == "ulong" || name == "double" {
            throw .unsupported(first.location, "the type '\(name)'")
        }
        var arguments: [TemplateArgument] = []
        if accept("<") {
            repeat {
                if startsType() && !peek(1).isa("::") {
                    arguments.append(.type(try typeName()))
                } else {
                    arguments.append(.value(try unary()))
                }
            } while accept(",")
            try expectClosingAngle()
        }
        return TypeName(name: name, arguments: arguments, location: first.location)
    }
}
