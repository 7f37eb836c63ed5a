/// Checks the types of one entry point and of what it uses, and writes them as a GLSL 450
/// module whose `main` is the entry point: one pass over the syntax tree, each expression
/// typed as it is written out, with C++'s implicit conversions made explicit.
struct Translator {
    /// A name in scope.
    struct Variable {
        /// What the name stands for.
        enum Kind {
            /// A value: a local, a parameter, a constant.
            case value
            /// A `device` or `constant` pointer: `code` names the buffer's runtime array.
            case bufferArray
            /// A reference to a struct in a buffer: `code` names the block's instance,
            /// whose members are the struct's.
            case block
        }
        var kind: Kind
        /// Its type (a pointer's element type).
        var type: MSLType
        /// Its GLSL name.
        var code: String
        /// Whether it may be assigned.
        var mutable: Bool
        /// Its address space.
        var space: AddressSpace
        /// The GLSL block it lives in, for a buffer's variables.
        var buffer: String?
        /// For a pointer variable, the GLSL `int` variable holding its element offset into
        /// `code`'s array.
        var offset: String?
    }

    /// A typed expression in GLSL.
    struct Value {
        /// The GLSL text, parenthesised where it has operators.
        var code: String
        /// Its type (for a pointer, the element type).
        var type: MSLType
        /// Whether it may be assigned, and where it lives.
        var lvalue: LValue?
        /// Whether `code` names a buffer's runtime array (a pointer in the source).
        var pointer = false
        /// For a pointer, the GLSL `int` expression of its element offset into `code`'s
        /// array; nil for 0.
        var offset: String?
        /// For a pointer variable, the `int` variable its offset is, which assigning the
        /// pointer sets.
        var offsetVariable: String?
        /// Whether `offset` changes a pointer variable (`p++`, `p = q`): as a statement, it
        /// stands alone.
        var changesPointer = false
        /// Whether `code` names a block instance standing for a struct.
        var block = false
        /// The value of an integer literal.
        var literal: Int64?
        /// Whether `code` names a buffer's bytes declared with GLSL's 8- or 16-bit storage
        /// types (it is or holds an 8- or 16-bit integer): read through `load`, written
        /// through `store`.
        var storage = false
    }

    /// What may be done with an lvalue.
    struct LValue {
        /// Why it may not be assigned, or nil when it may.
        var readOnly: String?
        /// Its address space.
        var space: AddressSpace
        /// The GLSL block it lives in, if in a buffer.
        var buffer: String?
    }

    /// The function being translated.
    struct FunctionContext {
        /// Its declaration.
        var declaration: FunctionDeclaration
        /// Its return type.
        var returnType: MSLType
        /// Whether it is the entry point (whose returns write its outputs).
        var isEntry: Bool
    }

    let program: Program
    var layouts: MemoryLayouts
    let entry: FunctionDeclaration
    var structSection: [String] = []
    var interfaceSection: [String] = []
    var globalSection: [String] = []
    var functionSection: [String] = []
    var extensions: Set<String> = []
    var emittedStructs: Set<String> = []
    /// Structs declared with 8- and 16-bit storage types for buffers.
    var emittedStorageStructs: Set<String> = []
    var emittedGlobals: [String: Variable] = [:]
    /// Helper functions translated, by key, with their GLSL names.
    var translatedFunctions: [String: String] = [:]
    var inProgress: Set<String> = []
    var emittedHelpers: Set<String> = []
    var scopes: [[String: Variable]] = []
    var function: FunctionContext?
    var lines: [String] = []
    var indent = 1
    var uniqueCounter = 0
    /// Constant samplers declared, by sampler index.
    var constantSamplers: [Int: ConstantSampler] = [:]
    /// Arguments present only when a function constant is true (`[[function_constant(c)]]`):
    /// the constant's index, by the argument's binding.
    var conditionalBindings: [Int: Int] = [:]
    /// The entry point's texture arguments, by GLSL name: their bindings.
    var textureArgumentBindings: [String: Int] = [:]
    /// Texture arguments the entry point asks `is_null_texture` of: the app may leave them
    /// unbound. By binding.
    var nullableBindings: Set<Int> = []
    /// Whether the kernel reads `[[threads_per_grid]]` or `[[threadgroups_per_grid]]`.
    var usesGridSize = false
    /// A member of a struct, by the struct's name.
    struct StructMember: Hashable {
        var structName: String
        var name: String
    }
    /// Members a fragment function's input holds but may not read: its `[[point_size]]`
    /// (the vertex function's output struct, shared with the fragment function).
    var unreadableMembers: Set<StructMember> = []
    /// A kernel's `[[threadgroup(n)]]` arguments, by index n.
    var threadgroupArguments: [Int: ThreadgroupArgument] = [:]
    /// The buffer index each dispatch binds the grid's size at, for a kernel that reads it:
    /// one past the last Metal gives apps (30).
    static let gridSizeIndex = 31
    /// Sampler indices the entry point's arguments use.
    var samplerIndices: Set<Int> = []
    /// GLSL blocks the function writes.
    var writtenBuffers: Set<String> = []
    /// How the entry point's return value is written to its outputs.
    var entryReturn: (MSLType, (String) -> [String])?

    init(program: Program, entry: FunctionDeclaration) {
        self.program = program
        self.layouts = MemoryLayouts(structs: program.structs)
        self.entry = entry
    }

    // MARK: Output

    mutating func emit(_ line: String) {
        lines.append(String(repeating: "    ", count: indent) + line)
    }

    mutating func unique(_ stem: String) -> String {
        uniqueCounter += 1
        return "mslg_\(stem)\(uniqueCounter)"
    }

    // MARK: Scopes

    mutating func declare(_ name: String, _ variable: Variable, at location: SourceLocation) throws(Diagnostic) {
        if scopes[scopes.count - 1][name] != nil { throw Diagnostic(location, "redefinition of '\(name)'") }
        scopes[scopes.count - 1][name] = variable
    }

    /// A GLSL name for a local `name` that no other local of the function shadows wrongly:
    /// the name itself the first time, numbered after.
    mutating func localName(_ name: String) -> String {
        let base = GLSLNames.identifier(name)
        for scope in scopes {
            if scope.values.contains(where: { $0.code == base }) { return unique(base + "_") }
        }
        return base
    }

    func lookUp(_ name: String) -> Variable? {
        for scope in scopes.reversed() {
            if let variable = scope[name] { return variable }
        }
        return nil
    }

    // MARK: Types

    /// GLSL's name of a scalar, vector, matrix or struct type.
    mutating func glslType(_ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> String {
        switch type {
        case .void: return "void"
        case .scalar(let scalar): return scalar.glsl
        case .vector(let scalar, let count): return "\(scalar.glslVectorPrefix)\(count)"
        case .matrix(_, let columns, let rows): return columns == rows ? "mat\(columns)" : "mat\(columns)x\(rows)"
        case .structure(let name):
            try emitStruct(name, at: location)
            return GLSLNames.identifier(name)
        case .array(let element, let count):
            return try glslType(element, at: location) + "[\(count)]"
        case .texture(let dimension, let scalar, let access):
            let prefix = scalar.glsl == "int" ? "i" : scalar.glsl == "uint" ? "u" : ""
            if access == .write || access == .readWrite { return try storageImageType(dimension, prefix, access, at: location) }
            let name: String
            switch dimension {
            case .texture2d, .depth2d: name = "texture2D"
            case .texture2dArray: name = "texture2DArray"
            case .texture2dMS: name = "texture2DMS"
            case .texture3d: name = "texture3D"
            case .textureCube: name = "textureCube"
            }
            return prefix + name
        case .sampler: return "sampler"
        case .atomic(let scalar): return scalar.glsl
        }
    }

    /// A GLSL declaration of `name` as `type` (`float a[4]`).
    /// With `storage`, a buffer block's declaration, with `storageType`'s types.
    mutating func glslDeclaration(_ type: MSLType, _ name: String, at location: SourceLocation, storage: Bool = false) throws(Diagnostic) -> String {
        var suffix = ""
        var element = type
        while case .array(let inner, let count) = element {
            suffix += "[\(count)]"
            element = inner
        }
        return "\(storage ? try storageType(element, at: location) : try glslType(element, at: location)) \(name)\(suffix)"
    }

    /// Writes a struct's GLSL declaration, after those of the structs it holds.
    mutating func emitStruct(_ name: String, at location: SourceLocation) throws(Diagnostic) {
        guard !emittedStructs.contains(name) else { return }
        emittedStructs.insert(name)
        try declareStruct(name, as: GLSLNames.identifier(name), storage: false)
    }

    /// Writes struct `name`'s GLSL declaration as `glslName`, its members padded
    /// (`MemoryLayouts.pads`) and declared in their register form, or with buffers' 8- and
    /// 16-bit storage types where `storage`.
    mutating func declareStruct(_ name: String, as glslName: String, storage: Bool) throws(Diagnostic) {
        guard let info = program.structs[name] else { return }
        var members: [String] = []
        let pads = layouts.pads(name)
        for (index, member) in info.members.enumerated() {
            for pad in 0..<pads[index] { members.append("    float mslg_pad\(index)_\(pad);") }
            switch member.type {
            case .texture, .sampler:
                throw .unsupported(member.location, "textures and samplers in structs (argument buffers)")
            case .atomic:
                throw .unsupported(member.location, "atomics in structs")
            default:
                break
            }
            let memberName = GLSLNames.identifier(member.name)
            members.append("    \(try glslDeclaration(member.type, memberName, at: member.location, storage: storage));")
        }
        for pad in 0..<(pads.last ?? 0) { members.append("    float mslg_pad_end\(pad);") }
        if members.isEmpty { throw .unsupported(info.location, "empty structs") }
        structSection.append("struct \(glslName) {\n" + members.joined(separator: "\n") + "\n};")
    }

    /// A value of struct `name` from its members' values, with zeros for the padding
    /// members GLSL's declaration of it holds (`MemoryLayouts.pads`).
    mutating func structValue(_ name: String, _ members: [String], at location: SourceLocation) throws(Diagnostic) -> String {
        var values: [String] = []
        let pads = layouts.pads(name)
        for (pad, member) in zip(pads, members) {
            values += Array(repeating: "0.0", count: pad) + [member]
        }
        values += Array(repeating: "0.0", count: pads.last ?? 0)
        return "\(try glslType(.structure(name), at: location))(\(values.joined(separator: ", ")))"
    }

    /// The zero value of `type`, as C++'s value initialization gives it.
    mutating func zero(_ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> String {
        switch type {
        case .scalar(let scalar):
            switch scalar.glsl {
            case "bool": return "false"
            case "uint": return "0u"
            case "int": return "0"
            default: return "0.0"
            }
        case .vector(let scalar, _), .matrix(let scalar, _, _):
            return "\(try glslType(type, at: location))(\(try zero(.scalar(scalar), at: location)))"
        case .array(let element, let count):
            let value = try zero(element, at: location)
            return "\(try glslType(type, at: location))(\(Array(repeating: value, count: count).joined(separator: ", ")))"
        case .structure(let name):
            var values: [String] = []
            for member in program.structs[name]?.members ?? [] {
                if let value = member.defaultValue {
                    values.append(try initialize(member.type, with: value))
                } else {
                    values.append(try zero(member.type, at: location))
                }
            }
            return try structValue(name, values, at: location)
        default:
            throw Diagnostic(location, "\(type) has no zero value")
        }
    }

    // MARK: The module

    /// The GLSL module: version, extensions, the entry point's interface, structs,
    /// constants, helper functions and `main`.
    mutating func run() throws(Diagnostic) -> TranslatedEntryPoint {
        let main = try translateEntryPoint()
        var text = "#version 450\n"
        for name in extensions.sorted() { text += "#extension \(name) : require\n" }
        if entry.stage == .kernel {
            text += "layout(local_size_x_id = \(Self.localSizeIds[0]), local_size_y_id = \(Self.localSizeIds[1]), "
                + "local_size_z_id = \(Self.localSizeIds[2])) in;\n"
        }
        for section in [structSection, interfaceSection, globalSection, functionSection] where !section.isEmpty {
            text += section.joined(separator: "\n") + "\n"
        }
        text += main
        var notes = FunctionNotes()
        notes.constantSamplers = constantSamplers
        notes.conditionalBindings = conditionalBindings
        notes.nullableBindings = nullableBindings
        notes.gridSizeIndex = usesGridSize ? Self.gridSizeIndex : nil
        notes.threadgroupArguments = threadgroupArguments
        return TranslatedEntryPoint(name: entry.name, stage: entry.stage ?? .kernel, glsl: text, notes: notes)
    }

    /// The specialization constant ids a kernel's threadgroup size comes from: above Metal's
    /// function constant indices (0...65535), so that none collides with one (glslang's
    /// `local_size_x_id` takes them where its `constant_id` stops at 2046).
    static let localSizeIds: [UInt32] = [65536, 65537, 65538]

    /// The last function constant index the front end compiles: glslang takes
    /// `constant_id`s up to 2046, and the 31 after this one hold threadgroup memory lengths.
    static let maxFunctionConstantIndex = 2015

    /// The specialization constant id that holds the element count of `[[threadgroup(n)]]`
    /// argument n (n in 0...30): after the function constants'.
    static func threadgroupCountId(_ index: Int) -> Int { maxFunctionConstantIndex + 1 + index }
}
