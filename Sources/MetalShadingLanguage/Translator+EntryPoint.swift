extension Translator {
    /// What an entry point's resource argument is.
    enum ResourceKind {
        /// `[[buffer(n)]]`.
        case buffer
        /// `[[texture(n)]]`.
        case texture
        /// `[[sampler(n)]]`.
        case sampler
    }

    /// SwiftGPU's binding for index `index` of `kind` in this entry point's stage: buffers
    /// at 0–31, textures at 32–47, samplers at 48–63, fragment functions' 64 above.
    func binding(_ kind: ResourceKind, _ index: Int) -> Int {
        let base = entry.stage == .fragment ? 64 : 0
        switch kind {
        case .buffer: return base + index
        case .texture: return base + 32 + index
        case .sampler: return base + 48 + index
        }
    }

    /// A buffer's block, declared once the body shows whether it is written.
    struct BufferBlock {
        var name: String
        var rules: MemoryLayouts.Rules
        var binding: Int
        var members: [String]
        var instance: String?
        var readOnly: Bool
    }

    /// `main`: the entry point's arguments from GLSL's inputs, its body, and its return
    /// value written to its outputs.
    mutating func translateEntryPoint() throws(Diagnostic) -> String {
        guard let stage = entry.stage else { throw Diagnostic(entry.location, "not an entry point") }
        scopes = [[:]]
        lines = []
        indent = 1
        let returnType = try program.resolve(entry.returnType.base)
        if entry.returnType.indirection != .none { throw Diagnostic(entry.returnType.location, "an entry point returns a value") }
        function = FunctionContext(declaration: entry, returnType: returnType, isEntry: true)
        for attribute in entry.attributes where !["max_total_threads_per_threadgroup", "early_fragment_tests"].contains(attribute.name) {
            throw .unsupported(attribute.location, "the function attribute [[\(attribute.name)]]")
        }
        if entry.attributes.contains(where: { $0.name == "early_fragment_tests" }) {
            interfaceSection.append("layout(early_fragment_tests) in;")
        }
        var blocks: [BufferBlock] = []
        let parameters = try withImplicitIndices(entry.parameters)
        layouts.scalarStructs = scalarStructs(parameters)
        if !layouts.scalarStructs.isEmpty { extensions.insert("GL_EXT_scalar_block_layout") }
        for parameter in parameters {
            if let block = try entryParameter(parameter, stage) { blocks.append(block) }
        }
        try entryOutputs(returnType, stage)
        guard case .block(let statements)? = entry.body?.kind else { throw Diagnostic(entry.location, "an entry point needs a body") }
        for statement in statements { try self.statement(statement) }
        for block in blocks {
            let readOnly = block.readOnly || (!writtenBuffers.contains(block.name) && block.rules != .std140)
            let storage = block.rules == .std140 ? "uniform" : (readOnly ? "readonly buffer" : "buffer")
            var text = "layout(\(block.rules.rawValue), set = 0, binding = \(block.binding)) \(storage) \(block.name)\n{\n"
            text += block.members.map { "    \($0);" }.joined(separator: "\n") + "\n}"
            text += block.instance.map { " \($0);" } ?? ";"
            interfaceSection.append(text)
        }
        return "void main()\n{\n" + lines.joined(separator: "\n") + "\n}\n"
    }

    /// The parameters with the attribute Metal gives a buffer, texture or sampler argument
    /// written without one: the lowest index of its kind that no argument names, in order.
    func withImplicitIndices(_ parameters: [Parameter]) throws(Diagnostic) -> [Parameter] {
        func kind(_ parameter: Parameter) -> String? {
            if let attribute = Self.bindingAttribute(parameter.declarator) {
                return ["buffer", "texture", "sampler"].contains(attribute.name) ? attribute.name : nil
            }
            if parameter.type.indirection != .none, parameter.type.addressSpace == .device || parameter.type.addressSpace == .constant {
                return "buffer"
            }
            switch try? program.resolve(parameter.type.base) {
            case .texture?: return "texture"
            case .sampler?: return "sampler"
            default: return nil
            }
        }
        var used: [String: Set<Int64>] = [:]
        for parameter in parameters {
            if let attribute = Self.bindingAttribute(parameter.declarator), kind(parameter) != nil, attribute.arguments.count == 1 {
                used[attribute.name, default: []].insert(try program.constantInteger(attribute.arguments[0]))
            }
        }
        var result: [Parameter] = []
        for var parameter in parameters {
            if Self.bindingAttribute(parameter.declarator) == nil, let kind = kind(parameter) {
                var index: Int64 = 0
                while used[kind, default: []].contains(index) { index += 1 }
                used[kind, default: []].insert(index)
                let location = parameter.declarator.location
                parameter.declarator.attributes.insert(Attribute(name: kind, arguments: [Expression(kind: .integer("\(index)"), location: location)],
                                                                 location: location), at: 0)
            }
            result.append(parameter)
        }
        return result
    }

    /// The attribute that says what an entry point's argument is (`[[buffer(n)]]`,
    /// `[[stage_in]]`, a built-in): its first other than `[[function_constant]]`.
    static func bindingAttribute(_ declarator: Declarator) -> Attribute? {
        declarator.attributes.first { $0.name != "function_constant" }
    }

    /// Records that the argument at `binding` is present only when the function constant
    /// its `[[function_constant(c)]]` names is true, if it has one. `c` must be a function
    /// constant of its own (with an index): the pipeline reads its value to know whether
    /// the argument must be bound.
    mutating func recordCondition(of declarator: Declarator, binding: Int, what: String) throws(Diagnostic) {
        guard let attribute = declarator.attributes.first(where: { $0.name == "function_constant" }) else { return }
        guard attribute.arguments.count == 1, case .name(let name) = attribute.arguments[0].kind,
              let global = program.globals[name] else {
            throw Diagnostic(attribute.location, "[[function_constant]] names a function constant")
        }
        guard let own = global.declarator.attributes.first(where: { $0.name == "function_constant" }) else {
            throw .unsupported(attribute.location, "a \(what) argument present under '\(name)', a constant computed from "
                + "others (an argument's condition must be a function constant with its own index)")
        }
        _ = try emitGlobal(name)
        conditionalBindings[binding] = try attributeIndex(own, limit: 65535)
    }

    /// The index an attribute names (`[[buffer(2)]]`), checked against `limit`.
    func attributeIndex(_ attribute: Attribute, limit: Int) throws(Diagnostic) -> Int {
        guard attribute.arguments.count == 1 else {
            throw Diagnostic(attribute.location, "'\(attribute.name)' attribute takes one argument")
        }
        let value = try program.constantInteger(attribute.arguments[0])
        guard (0...Int64(limit)).contains(value) else {
            throw Diagnostic(attribute.arguments[0].location, "\(attribute.name) index \(value) is outside 0...\(limit)")
        }
        return Int(value)
    }

    /// Declares one entry point argument: a buffer's block (returned, to be written after
    /// the body), a texture or sampler, a built-in or the stage's inputs.
    mutating func entryParameter(_ parameter: Parameter, _ stage: Stage) throws(Diagnostic) -> BufferBlock? {
        let declarator = parameter.declarator
        let location = declarator.location
        guard !declarator.name.isEmpty else { throw Diagnostic(location, "an entry point's parameters need names") }
        guard let attribute = Self.bindingAttribute(declarator) else {
            // Metal's arguments without an attribute that SwiftGPU has no counterpart for.
            if ["imageblock", "indirect_command_buffer", "acceleration_structure", "visible_function_table",
                "intersection_function_table", "patch_control_point"].contains(parameter.type.base.name) {
                throw .unsupported(parameter.type.location, "the type '\(parameter.type.base.name)'")
            }
            if stage == .fragment, case .structure(let name)? = try? program.resolve(parameter.type.base),
               program.structs[name]?.members.contains(where: { $0.attributes.contains { $0.name == "color" } }) == true {
                throw .unsupported(location, "reading color attachments in a fragment function (programmable blending)")
            }
            throw Diagnostic(location, "entry point parameter '\(declarator.name)' needs an attribute ([[buffer(n)]], [[stage_in]], …)")
        }
        let type = try program.resolve(parameter.type.base, sizes: declarator.arraySizes)
        let name = localName(declarator.name)
        if declarator.attributes.contains(where: { $0.name == "function_constant" }), !["buffer", "texture"].contains(attribute.name) {
            throw .unsupported(location, "the attribute [[function_constant]] on a \(stage.rawValue) function's [[\(attribute.name)]] argument")
        }
        switch attribute.name {
        case "buffer":
            let index = try attributeIndex(attribute, limit: 30)
            try recordCondition(of: declarator, binding: binding(.buffer, index), what: "buffer")
            return try bufferParameter(parameter, type, name, index)
        case "texture":
            guard case .texture(_, _, let access) = type, parameter.type.indirection == .none else {
                throw Diagnostic(location, "[[texture(n)]] is for textures, not '\(type)'")
            }
            if access == .write || access == .readWrite, stage != .kernel {
                throw .unsupported(location, "access::\(access.rawValue) textures in a \(stage.rawValue) function (SwiftGPU enables stores in kernels only)")
            }
            let index = try attributeIndex(attribute, limit: 15)
            try recordCondition(of: declarator, binding: binding(.texture, index), what: "texture")
            textureArgumentBindings[name] = binding(.texture, index)
            interfaceSection.append("layout(set = 0, binding = \(binding(.texture, index))) uniform \(try glslType(type, at: location)) \(name);")
            try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: false, space: .thread), at: location)
        case "sampler":
            guard type == .sampler, parameter.type.indirection == .none else {
                throw Diagnostic(location, "[[sampler(n)]] is for samplers, not '\(type)'")
            }
            let index = try attributeIndex(attribute, limit: 15)
            samplerIndices.insert(index)
            interfaceSection.append("layout(set = 0, binding = \(binding(.sampler, index))) uniform sampler \(name);")
            try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: false, space: .thread), at: location)
        case "threadgroup":
            try threadgroupParameter(parameter, type, stage, index: try attributeIndex(attribute, limit: 30))
        case "stage_in":
            guard stage != .kernel else { throw .unsupported(location, "[[stage_in]] in kernels") }
            if stage == .fragment, type == .vector(.float, 4), parameter.type.indirection == .none {
                // A vertex function that returns a float4 returns only the position.
                emit("\(try glslDeclaration(type, name, at: location)) = gl_FragCoord;")
                try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: true, space: .thread), at: location)
                return nil
            }
            guard case .structure(let structName) = type, parameter.type.indirection == .none else {
                throw Diagnostic(location, "[[stage_in]] is for a struct, not '\(type)'")
            }
            let values = stage == .vertex ? try vertexInputs(structName) : try fragmentInputs(structName)
            emit("\(try glslDeclaration(type, name, at: location)) = \(try structValue(structName, values, at: location));")
            try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: true, space: .thread), at: location)
        case "vertex_id" where stage == .vertex && type == .scalar(.ushort), "instance_id" where stage == .vertex && type == .scalar(.ushort):
            // The index's low 16 bits, as the int a ushort promotes to in every expression;
            // read-only, since storing to it would have to wrap at 16 bits.
            let index = attribute.name == "vertex_id" ? "gl_VertexIndex" : "gl_InstanceIndex"
            emit("const int \(name) = int(uint(\(index)) & 0xFFFFu);")
            try declare(declarator.name, Variable(kind: .value, type: .scalar(.int), code: name, mutable: false, space: .thread),
                        at: location)
        default:
            let value = try builtIn(attribute, type, stage, at: location)
            emit("\(try glslDeclaration(type, name, at: location)) = \(value);")
            try declare(declarator.name, Variable(kind: .value, type: type, code: name, mutable: true, space: .thread), at: location)
        }
        return nil
    }

    /// A `[[buffer(n)]]` argument: a pointer becomes a block holding a runtime array, a
    /// reference a block holding the value (a struct's members, each at Metal's offset).
    mutating func bufferParameter(_ parameter: Parameter, _ type: MSLType, _ name: String, _ index: Int) throws(Diagnostic) -> BufferBlock {
        let location = parameter.declarator.location
        guard let space = parameter.type.addressSpace, space == .device || space == .constant else {
            throw Diagnostic(location, "a [[buffer(n)]] argument is in the device or constant address space")
        }
        guard parameter.type.indirection != .none else {
            throw Diagnostic(location, "a [[buffer(n)]] argument is a pointer or a reference")
        }
        switch type {
        case .texture, .sampler, .void: throw Diagnostic(location, "a buffer cannot hold '\(type)'")
        default: break
        }
        let readOnly = space == .constant || parameter.type.isConst
        let blockName = "mslg_buffer\(index)"
        let variable: Variable
        let layout: MemoryLayouts.BufferLayout
        switch layouts.bufferRules(type, indirection: parameter.type.indirection, constant: space == .constant) {
        case .success(let found): layout = found
        case .failure(let problem):
            let scalarNote = layouts.structs(in: type).intersection(layouts.scalarStructs).sorted().first.map {
                " (laid out by the scalar rules, which struct '\($0)' takes for another buffer of this function)"
            } ?? ""
            throw .unsupported(location, "\(problem.reason) in a buffer\(scalarNote)")
        }
        var block = BufferBlock(name: blockName, rules: layout.rules, binding: binding(.buffer, index), members: [], instance: nil,
                                readOnly: readOnly)
        if parameter.type.indirection == .pointer {
            block.members = ["\(try storageType(type, at: location)) \(name)[]"]
            variable = Variable(kind: .bufferArray, type: type, code: name, mutable: !readOnly, space: space, buffer: blockName)
        } else if case .structure(let structName) = type {
            for (member, offset) in zip(program.structs[structName]?.members ?? [], layout.offsets) {
                block.members.append("layout(offset = \(offset)) " + (try glslDeclaration(member.type, GLSLNames.identifier(member.name), at: member.location, storage: true)))
            }
            try emitStruct(structName, at: location)
            block.instance = name
            variable = Variable(kind: .block, type: type, code: name, mutable: !readOnly, space: space, buffer: blockName)
        } else {
            block.members = [try glslDeclaration(type, name, at: location, storage: true)]
            variable = Variable(kind: .value, type: type, code: name, mutable: !readOnly, space: space, buffer: blockName)
        }
        if !variable.mutable { block.readOnly = true }
        try declare(parameter.declarator.name, variable, at: location)
        return block
    }

    /// A `[[threadgroup(n)]]` argument: a `shared` array whose element count is the
    /// specialization constant `threadgroupCountId(n)`, which the pipeline sets from the
    /// length `setThreadgroupMemoryLength(_:index:)` gives (1 until then).
    mutating func threadgroupParameter(_ parameter: Parameter, _ type: MSLType, _ stage: Stage, index: Int) throws(Diagnostic) {
        let location = parameter.declarator.location
        guard stage == .kernel else { throw Diagnostic(location, "[[threadgroup(n)]] arguments are a kernel's") }
        guard parameter.type.addressSpace == .threadgroup, parameter.type.indirection == .pointer else {
            throw Diagnostic(location, "a [[threadgroup(n)]] argument is a pointer in the threadgroup address space")
        }
        switch type {
        case .texture, .sampler, .void, .array: throw .unsupported(location, "a [[threadgroup(n)]] argument of '\(type)'")
        default: break
        }
        guard threadgroupArguments[index] == nil else { throw Diagnostic(location, "a second argument at threadgroup index \(index)") }
        let countId = Self.threadgroupCountId(index), name = "mslg_threadgroup\(index)"
        globalSection.append("layout(constant_id = \(countId)) const uint \(name)_count = 1u;")
        globalSection.append("shared \(try glslDeclaration(type, "\(name)[\(name)_count]", at: location));")
        threadgroupArguments[index] = ThreadgroupArgument(countId: countId, stride: layouts.metal(type).size)
        try declare(parameter.declarator.name, Variable(kind: .bufferArray, type: type, code: name, mutable: !parameter.type.isConst,
                                                        space: .threadgroup), at: location)
    }

    /// The structs GLSL declares padded for the scalar block layout
    /// (`MemoryLayouts.scalarStructs`): those of the buffer arguments that std430 (and
    /// std140) cannot place where Metal does and the scalar rules can (Metal's packed
    /// vectors, a struct whose size is not a multiple of its alignment in std430). Blocks
    /// that hold none of them keep the rules they had before SwiftGPU knew the scalar ones.
    func scalarStructs(_ parameters: [Parameter]) -> Set<String> {
        var buffers: [(type: MSLType, indirection: Indirection, constant: Bool)] = []
        for parameter in parameters where parameter.declarator.attributes.first?.name == "buffer" {
            let space = parameter.type.addressSpace
            guard space == .device || space == .constant, parameter.type.indirection != .none,
                  let type = try? program.resolve(parameter.type.base, sizes: parameter.declarator.arraySizes) else { continue }
            buffers.append((type, parameter.type.indirection, space == .constant))
        }
        return layouts.scalarStructs(for: buffers)
    }

    /// The GLSL value of a built-in argument, checked against its type.
    mutating func builtIn(_ attribute: Attribute, _ type: MSLType, _ stage: Stage, at location: SourceLocation) throws(Diagnostic) -> String {
        if let scalar = type.scalar, scalar.isNarrowInteger {
            // A kernel's ushort positions and counts: the uint's low 16 bits.
            guard stage == .kernel, scalar == .ushort else {
                throw .unsupported(location, "[[\(attribute.name)]] of type '\(type)' (8- and 16-bit integer types)")
            }
            return wrapped(try builtIn(attribute, type.with(.uint), stage, at: location), to: type)
        }
        func vector(_ glsl: String) throws(Diagnostic) -> String {
            switch type {
            case .scalar(.uint): return "\(glsl).x"
            case .vector(.uint, 2): return "\(glsl).xy"
            case .vector(.uint, 3): return glsl
            default: throw Diagnostic(location, "[[\(attribute.name)]] is uint, uint2 or uint3, not '\(type)'")
            }
        }
        func scalar(_ glsl: String, _ expected: MSLType) throws(Diagnostic) -> String {
            guard type == expected else { throw Diagnostic(location, "[[\(attribute.name)]] is \(expected), not '\(type)'") }
            return glsl
        }
        switch (stage, attribute.name) {
        case (.kernel, "thread_position_in_grid"): return try vector("gl_GlobalInvocationID")
        case (.kernel, "thread_position_in_threadgroup"): return try vector("gl_LocalInvocationID")
        case (.kernel, "threadgroup_position_in_grid"): return try vector("gl_WorkGroupID")
        case (.kernel, "threads_per_threadgroup"): return try vector("gl_WorkGroupSize")
        case (.kernel, "thread_index_in_threadgroup"): return try scalar("gl_LocalInvocationIndex", .scalar(.uint))
        case (.kernel, "threads_per_grid"), (.kernel, "threadgroups_per_grid"):
            // The dispatch's grid, which its partial threadgroups' own dispatches do not
            // show the shader: each dispatch binds it at buffer index 31, past Metal's.
            if !usesGridSize {
                usesGridSize = true
                interfaceSection.append("layout(std140, set = 0, binding = \(binding(.buffer, Self.gridSizeIndex))) uniform mslg_grid_block\n"
                    + "{\n    uvec4 mslg_threads_per_grid;\n    uvec4 mslg_threadgroups_per_grid;\n};")
            }
            return try vector(attribute.name == "threads_per_grid" ? "mslg_threads_per_grid.xyz" : "mslg_threadgroups_per_grid.xyz")
        case (.vertex, "vertex_id"): return try scalar("uint(gl_VertexIndex)", .scalar(.uint))
        case (.vertex, "instance_id"): return try scalar("uint(gl_InstanceIndex)", .scalar(.uint))
        case (.fragment, "position"): return try scalar("gl_FragCoord", .vector(.float, 4))
        case (.fragment, "front_facing"): return try scalar("gl_FrontFacing", .scalar(.bool))
        case (.fragment, "point_coord"): return try scalar("gl_PointCoord", .vector(.float, 2))
        default:
            throw .unsupported(location, "the attribute [[\(attribute.name)]] on a \(stage.rawValue) function's argument")
        }
    }

    /// A vertex function's `[[stage_in]]` struct: each member an input at its
    /// `[[attribute(n)]]` location.
    mutating func vertexInputs(_ structName: String) throws(Diagnostic) -> [String] {
        var values: [String] = []
        var locations: Set<Int> = []
        for member in program.structs[structName]?.members ?? [] {
            guard let attribute = member.attributes.first(where: { $0.name == "attribute" }) else {
                throw Diagnostic(member.location, "a [[stage_in]] member of a vertex function needs [[attribute(n)]]")
            }
            let index = try attributeIndex(attribute, limit: 30)
            guard locations.insert(index).inserted else { throw Diagnostic(attribute.location, "attribute \(index) is used twice") }
            guard member.type.isScalarOrVector else { throw .unsupported(member.location, "vertex attributes of type '\(member.type)'") }
            // An 8- or 16-bit integer is read as its 32-bit register form (0116), which any
            // integer vertex format of its signedness feeds, and wrapped to its range.
            let input = "mslg_attribute\(index)"
            interfaceSection.append("layout(location = \(index)) in \(try glslType(member.type, at: member.location)) \(input);")
            values.append(wrapped(input, to: member.type))
        }
        return values
    }

    /// Whether a member of a stage's struct is one of the stage's built-ins rather than a
    /// value passed between the stages.
    static func isBuiltInMember(_ member: Program.StructInfo.Member) -> Bool {
        member.attributes.contains { ["position", "point_size", "front_facing", "point_coord", "clip_distance", "sample_id",
                                      "render_target_array_index", "viewport_array_index"].contains($0.name) }
    }

    /// The interpolation qualifiers of a member passed from the vertex to the fragment stage.
    static func interpolation(_ member: Program.StructInfo.Member) throws(Diagnostic) -> String {
        var qualifier = member.type.scalar.map { $0.isFloatingPoint ? "" : "flat " } ?? ""
        for attribute in member.attributes {
            switch attribute.name {
            case "flat": qualifier = "flat "
            case "center_no_perspective": qualifier = "noperspective "
            case "centroid_perspective": qualifier = "centroid "
            case "centroid_no_perspective": qualifier = "centroid noperspective "
            case "center_perspective", "user", "invariant", "function_constant": break
            default: throw .unsupported(attribute.location, "the attribute [[\(attribute.name)]] on a member passed between stages")
            }
        }
        return qualifier
    }

    /// A fragment function's `[[stage_in]]` struct: built-ins and the vertex stage's outputs,
    /// which take locations in the order of the struct's other members.
    mutating func fragmentInputs(_ structName: String) throws(Diagnostic) -> [String] {
        var values: [String] = []
        var location = 0
        for member in program.structs[structName]?.members ?? [] {
            if Self.isBuiltInMember(member) {
                if member.attributes.contains(where: { $0.name == "point_size" }), member.type == .scalar(.float) {
                    // The vertex function's point size, in the struct both share: there, unread.
                    unreadableMembers.insert(StructMember(structName: structName, name: member.name))
                    values.append("0.0")
                    continue
                }
                guard let attribute = member.attributes.first(where: { ["position", "front_facing", "point_coord"].contains($0.name) }) else {
                    throw .unsupported(member.location, "the attribute [[\(member.attributes[0].name)]] in a fragment function's input")
                }
                values.append(try builtIn(attribute, member.type, .fragment, at: member.location))
                continue
            }
            guard member.type.isScalarOrVector else { throw .unsupported(member.location, "stage inputs of type '\(member.type)'") }
            try checkNoNarrowIntegers(member.type, in: "passed between stages", at: member.location)
            let input = "mslg_varying\(location)"
            interfaceSection.append("layout(location = \(location)) \(try Self.interpolation(member))in \(try glslType(member.type, at: member.location)) \(input);")
            values.append(input)
            location += 1
        }
        return values
    }

    /// Declares the entry point's outputs and how a `return` writes them.
    mutating func entryOutputs(_ returnType: MSLType, _ stage: Stage) throws(Diagnostic) {
        let location = entry.returnType.location
        switch (stage, returnType) {
        case (_, .void):
            entryReturn = nil
        case (.kernel, _):
            throw Diagnostic(location, "a kernel returns void")
        case (.vertex, .vector(.float, 4)), (.vertex, .vector(.half, 4)):
            entryReturn = (returnType, { ["gl_Position = \($0);"] })
        case (.vertex, .structure(let name)):
            var writes: [(member: String, target: String)] = []
            var varying = 0
            for member in program.structs[name]?.members ?? [] {
                let field = GLSLNames.identifier(member.name)
                if let builtIn = member.attributes.first(where: { Self.isBuiltInMember(Program.StructInfo.Member(name: "", type: .void, attributes: [$0], location: location)) }) {
                    switch builtIn.name {
                    case "position":
                        guard member.type == .vector(.float, 4) else { throw Diagnostic(member.location, "[[position]] is float4") }
                        writes.append((field, "gl_Position"))
                    case "point_size":
                        guard member.type == .scalar(.float) else { throw Diagnostic(member.location, "[[point_size]] is float") }
                        writes.append((field, "gl_PointSize"))
                    default:
                        throw .unsupported(builtIn.location, "the attribute [[\(builtIn.name)]] in a vertex function's output")
                    }
                    continue
                }
                guard member.type.isScalarOrVector else { throw .unsupported(member.location, "stage outputs of type '\(member.type)'") }
                try checkNoNarrowIntegers(member.type, in: "passed between stages", at: member.location)
                let output = "mslg_varying\(varying)"
                interfaceSection.append("layout(location = \(varying)) \(try Self.interpolation(member))out \(try glslType(member.type, at: member.location)) \(output);")
                writes.append((field, output))
                varying += 1
            }
            guard writes.contains(where: { $0.target == "gl_Position" }) else {
                throw Diagnostic(location, "a vertex function's output struct needs a [[position]] member")
            }
            entryReturn = (returnType, { result in writes.map { "\($0.target) = \(result).\($0.member);" } })
        case (.fragment, .scalar), (.fragment, .vector):
            try checkNoNarrowIntegers(returnType, in: "in colour outputs", at: location)
            interfaceSection.append("layout(location = 0) out \(try glslType(returnType, at: location)) mslg_color0;")
            entryReturn = (returnType, { ["mslg_color0 = \($0);"] })
        case (.fragment, .structure(let name)):
            var writes: [(member: String, target: String)] = []
            for member in program.structs[name]?.members ?? [] {
                let field = GLSLNames.identifier(member.name)
                guard let attribute = member.attributes.first else {
                    throw Diagnostic(member.location, "a fragment function's output member needs [[color(n)]] or [[depth(…)]]")
                }
                switch attribute.name {
                case "color":
                    let index = try attributeIndex(attribute, limit: 7)
                    guard member.type.isScalarOrVector else { throw Diagnostic(member.location, "a colour output is a scalar or vector") }
                    try checkNoNarrowIntegers(member.type, in: "in colour outputs", at: member.location)
                    let output = "mslg_color\(index)"
                    interfaceSection.append("layout(location = \(index)) out \(try glslType(member.type, at: member.location)) \(output);")
                    writes.append((field, output))
                case "depth":
                    guard member.type == .scalar(.float) else { throw Diagnostic(member.location, "[[depth(…)]] is float") }
                    writes.append((field, "gl_FragDepth"))
                default:
                    throw .unsupported(attribute.location, "the attribute [[\(attribute.name)]] in a fragment function's output")
                }
            }
            entryReturn = (returnType, { result in writes.map { "\($0.target) = \(result).\($0.member);" } })
        default:
            throw Diagnostic(location, "a \(stage.rawValue) function cannot return '\(returnType)'")
        }
    }
}
