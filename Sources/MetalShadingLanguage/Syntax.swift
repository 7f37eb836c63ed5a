/// The syntax tree the parser makes: what the source says, with locations, before names
/// and types are resolved.

/// A type as written: `float4`, `texture2d<float, access::sample>`, `metal::array<int, 4>`,
/// `Uniforms` (a `metal::` prefix is dropped).
package struct TypeName: Sendable, Hashable {
    /// The name (`texture2d`, `Uniforms`).
    package var name: String
    /// Template arguments, for the standard library's templates.
    package var arguments: [TemplateArgument]
    /// Where it is written.
    package var location: SourceLocation
}

/// One template argument: a type (`float`) or a constant or enumerator (`4`, `access::read`).
package enum TemplateArgument: Sendable, Hashable {
    /// A type.
    case type(TypeName)
    /// A value.
    case value(Expression)
}

/// A type as a declaration writes it, with its qualifiers: `const device float *`,
/// `constant Uniforms &`, `thread float3`.
package struct DeclaredType: Sendable, Hashable {
    /// The type itself.
    package var base: TypeName
    /// The address space named (`device`, `constant`, `threadgroup`, `thread`), if any.
    package var addressSpace: AddressSpace?
    /// Whether `const` qualifies the type (or, for a pointer, what it points to).
    package var isConst = false
    /// Whether the declaration is `constexpr`.
    package var isConstexpr = false
    /// A pointer (`*`), a reference (`&`) or neither.
    package var indirection: Indirection = .none
    /// Where the declaration's type starts.
    package var location: SourceLocation
}

/// Metal's address spaces.
package enum AddressSpace: String, Sendable, Hashable {
    /// GPU memory the function reads and writes (`device`).
    case device
    /// GPU memory the function only reads (`constant`).
    case constant
    /// Memory shared by a threadgroup (`threadgroup`).
    case threadgroup
    /// A thread's own memory (`thread`).
    case thread
}

/// Whether a declared type is a pointer or a reference.
package enum Indirection: Sendable, Hashable {
    /// A value.
    case none
    /// A pointer (`*`).
    case pointer
    /// A reference (`&`).
    case reference
}

/// `[[name]]` or `[[name(arguments)]]`.
package struct Attribute: Sendable, Hashable {
    /// The attribute's name (`buffer`, `thread_position_in_grid`).
    package var name: String
    /// Its arguments.
    package var arguments: [Expression]
    /// Where it is written.
    package var location: SourceLocation
}

/// An expression.
package struct Expression: Sendable, Hashable {
    /// What it is.
    package indirect enum Kind: Sendable, Hashable {
        /// An integer literal as written.
        case integer(String)
        /// A floating-point literal as written.
        case floating(String)
        /// `true` or `false`.
        case boolean(Bool)
        /// A name, possibly qualified (`gid`, `access::read`, `mem_flags::mem_threadgroup`).
        case name(String)
        /// A prefix operator (`-`, `!`, `~`, `++`, `--`, `*`, `&`).
        case prefix(String, Expression)
        /// A postfix `++` or `--`.
        case postfix(String, Expression)
        /// A binary operator other than assignment.
        case binary(String, Expression, Expression)
        /// An assignment, plain or compound (`=`, `+=`).
        case assignment(String, Expression, Expression)
        /// `condition ? then : else`.
        case conditional(Expression, Expression, Expression)
        /// A call of a function or method (`f(x)`, `texture.sample(s, uv)`).
        case call(Expression, [Expression])
        /// A type's constructor (`float4(x, 1)`, `Light{…}` is an initializer list).
        case construct(TypeName, [Expression])
        /// A conversion (`(float)x`, `static_cast<float>(x)`).
        case cast(TypeName, Expression)
        /// A reinterpretation of the bits (`as_type<uint>(x)`).
        case bitcast(TypeName, Expression)
        /// `sizeof(Type)`.
        case sizeOfType(TypeName)
        /// `sizeof(value)` or `sizeof value`: the size of its type, the value unevaluated.
        case sizeOfValue(Expression)
        /// `base.member`.
        case member(Expression, String)
        /// `base->member`.
        case arrow(Expression, String)
        /// `base[index]`.
        case index(Expression, Expression)
        /// `{a, b, c}`.
        case initializerList([Expression])
        /// `.member = value`, an element of an initializer list.
        case designated(String, Expression)
    }

    /// What it is.
    package var kind: Kind
    /// Where it starts.
    package var location: SourceLocation
}

/// A statement.
package struct Statement: Sendable, Hashable {
    /// What it is.
    package indirect enum Kind: Sendable, Hashable {
        /// `{ … }`.
        case block([Statement])
        /// A declaration of local variables.
        case declaration(VariableDeclaration)
        /// An expression followed by `;`.
        case expression(Expression)
        /// `if (…) … else …`.
        case conditional(Expression, Statement, Statement?)
        /// `for (initializer; condition; step) body`.
        case forLoop(Statement?, Expression?, Expression?, Statement)
        /// `while (condition) body`.
        case whileLoop(Expression, Statement)
        /// `do body while (condition);`.
        case doWhile(Statement, Expression)
        /// `switch (value) { … }`.
        case switchStatement(Expression, [Statement])
        /// `case value:`.
        case caseLabel(Expression)
        /// `default:`.
        case defaultLabel
        /// `return` with or without a value.
        case returnStatement(Expression?)
        /// `break;`.
        case breakStatement
        /// `continue;`.
        case continueStatement
        /// `;`.
        case empty
    }

    /// What it is.
    package var kind: Kind
    /// Where it starts.
    package var location: SourceLocation
}

/// One declared variable: a local, a global constant, a struct member or a parameter.
package struct Declarator: Sendable, Hashable {
    /// The name.
    package var name: String
    /// Array sizes (`[4]`), outermost first; nil for `[]`.
    package var arraySizes: [Expression?]
    /// `[[…]]` after the name.
    package var attributes: [Attribute]
    /// `= value` or `{…}`.
    package var initializer: Expression?
    /// `(arguments)` after the name, as a `constexpr sampler s(filter::linear)` has.
    package var constructorArguments: [Expression]?
    /// Where the name is.
    package var location: SourceLocation
}

/// A declaration of one or more variables of one type.
package struct VariableDeclaration: Sendable, Hashable {
    /// Their type.
    package var type: DeclaredType
    /// The variables.
    package var declarators: [Declarator]
}

/// A function and its body.
package struct FunctionDeclaration: Sendable, Hashable {
    /// Which stage's entry point it is, or nil for an ordinary function.
    package var stage: Stage?
    /// The return type.
    package var returnType: DeclaredType
    /// The name.
    package var name: String
    /// The parameters.
    package var parameters: [Parameter]
    /// `[[…]]` after the parameter list or before the declaration.
    package var attributes: [Attribute]
    /// The body, or nil for a declaration without one.
    package var body: Statement?
    /// Where the name is.
    package var location: SourceLocation
    /// For a member function, its struct; the object it is called on is its first
    /// parameter, `this`.
    package var methodOf: String?
    /// For a function template, its type parameters (`template <typename T>`), which its
    /// types name; each call instantiates it with the types its arguments give them.
    package var templateParameters: [String] = []
}

/// A function's parameter.
package struct Parameter: Sendable, Hashable {
    /// Its type.
    package var type: DeclaredType
    /// Its name and attributes.
    package var declarator: Declarator
}

/// The stage of an entry point.
package enum Stage: String, Sendable, Hashable {
    /// A `kernel` function.
    case kernel
    /// A `vertex` function.
    case vertex
    /// A `fragment` function.
    case fragment
}

/// A struct's declaration.
package struct StructDeclaration: Sendable {
    /// The name.
    package var name: String
    /// The members, one declarator each.
    package var members: [(type: DeclaredType, declarator: Declarator)]
    /// Where the name is.
    package var location: SourceLocation
    /// Its member functions, as written (without the object they are called on).
    package var methods: [FunctionDeclaration] = []
    /// Whether it is packed (`__attribute__((packed))`): its members without padding.
    package var packed = false
    /// The alignment it asks for (`__attribute__((aligned(n)))`, `alignas(n)`), if any.
    package var alignment: Expression?
}

/// An enumeration's declaration: its enumerators and their values as written.
package struct EnumDeclaration: Sendable {
    /// The name, if any.
    package var name: String?
    /// The underlying type (`: uint`), if written.
    package var underlyingType: TypeName?
    /// The enumerators in order, with their `= value` if written.
    package var enumerators: [(name: String, value: Expression?, location: SourceLocation)]
    /// Where the declaration starts.
    package var location: SourceLocation

}

/// A declaration at file scope.
package enum TopLevelDeclaration: Sendable {
    /// A struct.
    case structure(StructDeclaration)
    /// An enumeration.
    case enumeration(EnumDeclaration)
    /// A function.
    case function(FunctionDeclaration)
    /// Global constants, `constexpr sampler`s.
    case variable(VariableDeclaration)
    /// `typedef` or `using Name = …`.
    case alias(name: String, type: DeclaredType, location: SourceLocation)
}
