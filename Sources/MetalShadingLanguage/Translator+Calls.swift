extension Translator {
    /// Componentwise functions of floats: Metal's name, GLSL's, and the argument count.
    static let floatFunctions: [String: (glsl: String, arity: Int)] = [
        "sin": ("sin", 1), "cos": ("cos", 1), "tan": ("tan", 1), "asin": ("asin", 1), "acos": ("acos", 1), "atan": ("atan", 1),
        "sinh": ("sinh", 1), "cosh": ("cosh", 1), "tanh": ("tanh", 1), "asinh": ("asinh", 1), "acosh": ("acosh", 1),
        "atanh": ("atanh", 1), "exp": ("exp", 1), "exp2": ("exp2", 1), "log": ("log", 1), "log2": ("log2", 1),
        "sqrt": ("sqrt", 1), "rsqrt": ("inversesqrt", 1), "ceil": ("ceil", 1), "floor": ("floor", 1), "fract": ("fract", 1),
        "trunc": ("trunc", 1), "rint": ("roundEven", 1), "fabs": ("abs", 1), "sign": ("sign", 1), "normalize": ("normalize", 1),
        "dfdx": ("dFdx", 1), "dfdy": ("dFdy", 1), "fwidth": ("fwidth", 1),
        "pow": ("pow", 2), "powr": ("pow", 2), "atan2": ("atan", 2), "fmin": ("min", 2), "fmax": ("max", 2), "step": ("step", 2),
        "reflect": ("reflect", 2), "mix": ("mix", 3), "smoothstep": ("smoothstep", 3), "fma": ("fma", 3),
        "faceforward": ("faceforward", 3),
    ]

    /// Componentwise functions of integers or floats.
    static let numericFunctions: [String: (glsl: String, arity: Int)] = [
        "abs": ("abs", 1), "min": ("min", 2), "max": ("max", 2), "clamp": ("clamp", 3),
    ]

    /// The standard library's functions that the subset leaves out, named in their message.
    static let unsupportedFunctions: Set<String> = [
        "simd_sum", "is_function_constant_defined",
        "simd_shuffle", "simd_shuffle_down", "simd_broadcast", "quad_shuffle", "simd_max", "simd_min", "simd_prefix_exclusive_sum",
        "exp10", "log10", "copysign", "fdim", "ldexp", "frexp", "modf", "clz", "ctz", "popcount", "mulhi", "madhi", "rotate",
        "extract_bits", "insert_bits", "reverse_bits", "sincos", "cospi", "sinpi", "tanpi", "divide", "median3", "min3", "max3",
        "pack_float_to_unorm4x8", "unpack_unorm4x8_to_float", "pack_half_to_unorm4x8", "unpack_unorm4x8_to_half",
        "threadgroup_imageblock_barrier", "simdgroup_barrier", "precise::sqrt", "fast::sqrt",
    ]

    static func isBuiltinFunction(_ name: String) -> Bool {
        floatFunctions[name] != nil || numericFunctions[name] != nil || atomicFunctions[name] != nil
            || unsupportedFunctions.contains(name)
            || ["dot", "cross", "length", "distance", "length_squared", "distance_squared", "refract", "transpose", "determinant", "all", "any", "select", "isnan",
                "isinf", "saturate", "round", "fmod", "threadgroup_barrier", "discard_fragment", "is_null_texture"].contains(name)
    }

    mutating func call(_ callee: Expression, _ arguments: [Expression], at location: SourceLocation) throws(Diagnostic) -> Value {
        if case .member(let base, let method) = callee.kind {
            let object = try expression(base)
            if case .texture = object.type { return try textureCall(object, method, arguments, at: location) }
            if case .structure(let structure) = object.type, let overloads = program.functions["\(structure)::\(method)"] {
                return try userCall("\(structure)::\(method)", overloads, arguments, at: location, object: object)
            }
            throw Diagnostic(location, "'\(object.type)' has no member function '\(method)'")
        }
        guard case .name(var name) = callee.kind else { throw Diagnostic(location, "called object is not a function") }
        // In a member function, the struct's other member functions come first.
        if let structure = function?.declaration.methodOf, let overloads = program.functions["\(structure)::\(name)"],
           let this = lookUp("this") {
            return try userCall("\(structure)::\(name)", overloads, arguments, at: location, object: value(of: this))
        }
        for prefix in ["precise::", "fast::"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        if lookUp(name) != nil { throw Diagnostic(location, "called object type is not a function") }
        if let overloads = program.functions[name] { return try userCall(name, overloads, arguments, at: location) }
        return try builtinCall(name, arguments, at: location)
    }

    /// The type componentwise functions compute in: the arguments' common type, a float
    /// type when `floats` and they are integers.
    func componentwiseType(_ values: [Value], floats: Bool, name: String, at location: SourceLocation) throws(Diagnostic) -> MSLType {
        var type = values[0].type
        for value in values {
            guard value.type.isScalarOrVector else {
                throw Diagnostic(location, "no matching function for call to '\(name)' with a '\(value.type)' argument")
            }
        }
        for value in values.dropFirst() {
            type = try vectorCommonType(type, value.type, name: name, at: location)
        }
        if floats, let scalar = type.scalar, !scalar.isFloatingPoint { type = type.with(.float) }
        if let scalar = type.scalar, scalar == .bool, name != "select" { type = type.with(.int) }
        return type
    }

    /// The common type of two arguments of a componentwise function: vectors of one size,
    /// scalars widened to them; a floating-point vector keeps its scalar type beside a
    /// scalar argument, as Metal's `halfN clamp(halfN, half, half)` overloads take a
    /// `float` bound.
    func vectorCommonType(_ a: MSLType, _ b: MSLType, name: String, at location: SourceLocation) throws(Diagnostic) -> MSLType {
        let scalar = Self.commonScalar(a.scalar!, b.scalar!)
        switch (a, b) {
        case (.vector(_, let m), .vector(_, let n)):
            guard m == n else {
                throw Diagnostic(location, "no matching function for call to '\(name)' with '\(a)' and '\(b)'")
            }
            return .vector(scalar, m)
        case (.vector(let element, let n), _), (_, .vector(let element, let n)):
            return .vector(element.isFloatingPoint ? element : scalar, n)
        default: return .scalar(scalar)
        }
    }

    mutating func arguments(_ arguments: [Expression], _ count: Int, _ name: String, at location: SourceLocation) throws(Diagnostic) -> [Value] {
        guard arguments.count == count else {
            throw Diagnostic(location, "'\(name)' takes \(count) argument\(count == 1 ? "" : "s"), given \(arguments.count)")
        }
        var values: [Value] = []
        for argument in arguments { values.append(try rvalue(argument)) }
        return values
    }

    /// Calls GLSL's `function` with every argument converted to `type`.
    mutating func componentwise(_ function: String, _ values: [Value], _ type: MSLType, at location: SourceLocation) throws(Diagnostic) -> Value {
        var parts: [String] = []
        for value in values { parts.append(try convert(value, to: type, at: location)) }
        return Value(code: "\(function)(\(parts.joined(separator: ", ")))", type: type)
    }

    mutating func builtinCall(_ name: String, _ arguments: [Expression], at location: SourceLocation) throws(Diagnostic) -> Value {
        if let (glsl, arity) = Self.floatFunctions[name] {
            let values = try self.arguments(arguments, arity, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            return try componentwise(glsl, values, type, at: location)
        }
        if let (glsl, arity) = Self.numericFunctions[name] {
            let values = try self.arguments(arguments, arity, name, at: location)
            let type = try componentwiseType(values, floats: false, name: name, at: location)
            if name == "abs", type.scalar?.isUnsigned == true { return Value(code: values[0].code, type: type) }
            let result = try componentwise(glsl, values, type, at: location)
            // abs(char(-128)) is -128 in Metal's 8 bits: wrapped back from GLSL's 128.
            return name == "abs" ? Value(code: wrapped(result.code, to: result.type), type: result.type) : result
        }
        if name == "is_function_constant_defined" {
            throw .unsupported(location, "is_function_constant_defined (a specialization constant always has a value, zero where the app sets none)")
        }
        if Self.unsupportedFunctions.contains(name) { throw .unsupported(location, "the function '\(name)'") }
        if Self.atomicFunctions[name] != nil { return try atomicCall(name, arguments, at: location) }
        switch name {
        case "saturate":
            let values = try self.arguments(arguments, 1, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            let glsl = try glslType(type, at: location)
            return Value(code: "clamp(\(try convert(values[0], to: type, at: location)), \(glsl)(0.0), \(glsl)(1.0))", type: type)
        case "round", "fmod":
            let values = try self.arguments(arguments, name == "round" ? 1 : 2, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            let glsl = try glslType(type, at: location)
            if name == "round" {
                // Halfway cases away from zero, as Metal rounds (GLSL's round may go either way).
                let body = type.componentCount == 1 ? "return abs(x - t) >= 0.5 ? t + sign(x) : t;"
                    : "return mix(t, t + sign(x), greaterThanEqual(abs(x - t), \(glsl)(0.5)));"
                helper("mslg_round_\(glsl)", "\(glsl) mslg_round(\(glsl) x) { \(glsl) t = trunc(x); \(body) }")
                return try componentwise("mslg_round", values, type, at: location)
            }
            // C's fmod keeps the dividend's sign; GLSL's mod takes the divisor's.
            helper("mslg_fmod_\(glsl)", "\(glsl) mslg_fmod(\(glsl) x, \(glsl) y) { return x - y * trunc(x / y); }")
            return try componentwise("mslg_fmod", values, type, at: location)
        case "dot", "distance":
            let values = try self.arguments(arguments, 2, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            guard case .vector(let scalar, _) = type else {
                if name == "distance" { return try componentwise("distance", values, type, at: location) }
                throw Diagnostic(location, "no matching function for call to 'dot' with scalars")
            }
            var value = try componentwise(name, values, type, at: location)
            value.type = .scalar(scalar)
            return value
        case "length":
            let values = try self.arguments(arguments, 1, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            var value = try componentwise("length", values, type, at: location)
            value.type = .scalar(type.scalar!)
            return value
        case "length_squared", "distance_squared":
            // GLSL's dot takes scalars too.
            let count = name == "distance_squared" ? 2 : 1
            let values = try self.arguments(arguments, count, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            let glsl = try glslType(type, at: location), result = try glslType(.scalar(type.scalar!), at: location)
            let parameters = count == 2 ? "\(glsl) a, \(glsl) b" : "\(glsl) a"
            let body = count == 2 ? "\(glsl) d = a - b; return dot(d, d);" : "return dot(a, a);"
            helper("mslg_\(name)_\(glsl)", "\(result) mslg_\(name)(\(parameters)) { \(body) }")
            var value = try componentwise("mslg_\(name)", values, type, at: location)
            value.type = .scalar(type.scalar!)
            return value
        case "cross":
            let values = try self.arguments(arguments, 2, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            guard case .vector(_, 3) = type else { throw Diagnostic(location, "cross takes two 3-component vectors") }
            return try componentwise("cross", values, type, at: location)
        case "refract":
            let values = try self.arguments(arguments, 3, name, at: location)
            let type = try componentwiseType(Array(values.prefix(2)), floats: true, name: name, at: location)
            let eta = try convert(values[2], to: .scalar(type.scalar!), at: location)
            return Value(code: "refract(\(try convert(values[0], to: type, at: location)), \(try convert(values[1], to: type, at: location)), \(eta))", type: type)
        case "transpose", "determinant":
            let values = try self.arguments(arguments, 1, name, at: location)
            guard case .matrix(let scalar, let columns, let rows) = values[0].type else {
                throw Diagnostic(location, "no matching function for call to '\(name)' with a '\(values[0].type)' argument")
            }
            if name == "transpose" {
                return Value(code: "transpose(\(values[0].code))", type: .matrix(scalar, columns: rows, rows: columns))
            }
            guard columns == rows else { throw Diagnostic(location, "determinant takes a square matrix") }
            return Value(code: "determinant(\(values[0].code))", type: .scalar(scalar))
        case "all", "any":
            let values = try self.arguments(arguments, 1, name, at: location)
            switch values[0].type {
            case .vector(.bool, _): return Value(code: "\(name)(\(values[0].code))", type: .scalar(.bool))
            case .scalar(.bool): return values[0]
            default: throw Diagnostic(location, "no matching function for call to '\(name)' with a '\(values[0].type)' argument")
            }
        case "isnan", "isinf":
            let values = try self.arguments(arguments, 1, name, at: location)
            let type = try componentwiseType(values, floats: true, name: name, at: location)
            var value = try componentwise(name, values, type, at: location)
            value.type = type.with(.bool)
            return value
        case "select":
            let values = try self.arguments(arguments, 3, name, at: location)
            let type = try componentwiseType(Array(values.prefix(2)), floats: false, name: name, at: location)
            let condition = try convert(values[2], to: type.with(.bool), at: location)
            return Value(code: "mix(\(try convert(values[0], to: type, at: location)), \(try convert(values[1], to: type, at: location)), \(condition))",
                         type: type)
        case "threadgroup_barrier":
            guard entry.stage == .kernel else { throw Diagnostic(location, "threadgroup_barrier is for kernels") }
            let values = try self.arguments(arguments, 1, name, at: location)
            guard let flags = values[0].literal else { throw Diagnostic(location, "threadgroup_barrier takes mem_flags constants") }
            var code = ""
            if flags & 1 != 0 { code += "memoryBarrierBuffer(), " }
            if flags & 2 != 0 { code += "memoryBarrierShared(), " }
            if flags & 4 != 0 { code += "memoryBarrierImage(), " }
            return Value(code: "\(code)barrier()", type: .void)
        case "is_null_texture":
            // An unbound texture is a null descriptor, whose size reads zero. One the entry
            // point takes as an argument may then be left unbound; through a helper's
            // parameter the texture must be bound, and the answer is false.
            let texture = arguments.count == 1 ? try expression(arguments[0]) : Value(code: "", type: .void)
            guard case .texture = texture.type else { throw Diagnostic(location, "is_null_texture takes a texture") }
            if function?.isEntry == true, let binding = textureArgumentBindings[texture.code] { nullableBindings.insert(binding) }
            let width = try textureCall(texture, "get_width", [], at: location)
            return Value(code: "(\(width.code) == 0u)", type: .scalar(.bool))
        case "discard_fragment":
            guard entry.stage == .fragment else { throw Diagnostic(location, "discard_fragment is for fragment functions") }
            _ = try self.arguments(arguments, 0, name, at: location)
            return Value(code: "discard", type: .void)
        default:
            if program.declaredOnly.contains(name) {
                throw .unsupported(location, "calling '\(name)', which is declared here and defined in another file (a source compiled at run time "
                    + "stands alone; the build links a target's .metal files)")
            }
            throw Diagnostic(location, "use of undeclared identifier '\(name)'")
        }
    }

    // MARK: Functions of the source

    /// A call of a function the source declares: the overload whose parameters take the
    /// arguments (exactly if one does), translated into the module before its first use.
    /// A call of a function the file defines, `name` one of `overloads`; for a member
    /// function, `object` is what it is called on, its first parameter `this`.
    mutating func userCall(_ name: String, _ overloads: [FunctionDeclaration], _ arguments: [Expression],
                           at location: SourceLocation, object: Value? = nil) throws(Diagnostic) -> Value {
        var values: [Value] = object.map { [$0] } ?? []
        for argument in arguments { values.append(try expression(argument)) }
        // A function template takes part as its instance for the arguments' types, if they
        // give each type parameter one type.
        var instances: [String?] = []
        var overloads = overloads
        for index in overloads.indices {
            guard !overloads[index].templateParameters.isEmpty else {
                instances.append(nil)
                continue
            }
            guard let instantiation = TemplateInstantiation(overloads[index], arguments: values.map(\.type)) else {
                instances.append("")   // no instance for these arguments: not a candidate
                continue
            }
            instances.append(instantiation.suffix(overloads[index]))
            overloads[index] = instantiation.instantiate(overloads[index])
        }
        var chosen: (index: Int, exact: Bool)?
        for (index, overload) in overloads.enumerated() where overload.parameters.count == values.count && instances[index] != "" {
            var exact = true, viable = true
            for (parameter, value) in zip(overload.parameters, values) {
                guard let type = try? program.resolve(parameter.type.base, sizes: parameter.declarator.arraySizes) else {
                    viable = false
                    break
                }
                if type != value.type {
                    exact = false
                    if !(type.isScalarOrVector && value.type.isScalarOrVector && (value.type.componentCount == 1 || type == value.type)) {
                        viable = false
                    }
                }
            }
            guard viable else { continue }
            if exact { chosen = (index, true); break }
            if chosen == nil { chosen = (index, false) }
        }
        guard let chosen else {
            throw Diagnostic(location, "no matching function for call to '\(name)'")
        }
        let declaration = overloads[chosen.index]
        // A member function `S::f` is GLSL's `mslg_S_f`, a name no user identifier takes.
        let method = declaration.methodOf.map { "mslg_\($0)_\(name.dropFirst($0.count + 2))" }
        let glslName: String
        if let instance = instances[chosen.index] {
            // An instance `f<float3>` is GLSL's `mslg_f_float3`.
            let overload = chosen.index == 0 ? "" : "\(chosen.index)_"
            glslName = try translateFunction(declaration, key: "\(name)#\(chosen.index)<\(instance)>",
                                             glslName: "mslg_\(name)_\(overload)\(instance)")
        } else {
            glslName = try translateFunction(declaration, key: "\(name)#\(chosen.index)",
                                             glslName: chosen.index == 0 ? method ?? GLSLNames.identifier(name)
                                                 : "\(method ?? "mslg_\(name)")_\(chosen.index)")
        }
        var parts: [String] = []
        for (parameter, value) in zip(declaration.parameters, values) {
            let type = try program.resolve(parameter.type.base, sizes: parameter.declarator.arraySizes)
            if parameter.type.indirection == .reference, parameter.type.addressSpace ?? .thread == .thread, !parameter.type.isConst {
                guard value.type == type else {
                    throw Diagnostic(location, "no matching function for call to '\(name)': a '\(value.type)' cannot bind to a '\(type)&'")
                }
                if let space = value.lvalue?.space, space != .thread {
                    throw Diagnostic(location, "a '\(space.rawValue)' value cannot bind to a 'thread' reference")
                }
                try checkWritable(value, at: location)
                parts.append(value.code)
            } else {
                let materialized = try materialize(value, at: location)
                switch type {
                case .texture, .sampler:
                    guard materialized.type == type else { throw Diagnostic(location, "no matching function for call to '\(name)'") }
                    parts.append(materialized.code)
                default:
                    parts.append(try convert(materialized, to: type, at: location))
                }
            }
        }
        let returnType = try program.resolve(declaration.returnType.base)
        return Value(code: "\(glslName)(\(parts.joined(separator: ", ")))", type: returnType)
    }
}
