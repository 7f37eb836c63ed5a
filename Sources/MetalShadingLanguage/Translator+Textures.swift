extension Translator {
    /// A call of a texture's member function: `sample`, `read`, `get_width`, ….
    mutating func textureCall(_ texture: Value, _ method: String, _ arguments: [Expression],
                              at location: SourceLocation) throws(Diagnostic) -> Value {
        guard case .texture(let dimension, let scalar, let access) = texture.type else { throw Diagnostic(location, "not a texture") }
        if access == .write || access == .readWrite { return try storageTextureCall(texture, method, arguments, at: location) }
        if dimension == .texture2dMS { return try multisampledTextureCall(texture, method, arguments, at: location) }
        let element: MSLType = dimension == .depth2d ? .scalar(.float) : .vector(scalar, 4)
        let prefix = scalar.glsl == "int" ? "i" : scalar.glsl == "uint" ? "u" : ""
        let coordinateCount = dimension == .texture3d || dimension == .textureCube ? 3 : 2
        switch method {
        case "sample":
            guard access == .sample else {
                throw Diagnostic(location, "sample needs a texture of access::sample (this one is access::\(access.rawValue))")
            }
            guard arguments.count >= 2 else { throw Diagnostic(location, "sample takes a sampler and coordinates") }
            let sampler = try rvalue(arguments[0])
            guard sampler.type == .sampler else { throw Diagnostic(arguments[0].location, "sample's first argument is a sampler") }
            var coordinates = try convert(try rvalue(arguments[1]), to: .vector(.float, coordinateCount), at: arguments[1].location)
            var rest = arguments.dropFirst(2)
            let combined: String
            switch dimension {
            case .texture2d, .depth2d, .texture2dMS: combined = "\(prefix)sampler2D"
            case .texture3d: combined = "\(prefix)sampler3D"
            case .textureCube: combined = "\(prefix)samplerCube"
            case .texture2dArray:
                combined = "\(prefix)sampler2DArray"
                guard let layer = rest.first else { throw Diagnostic(location, "sample of a texture array takes a layer") }
                rest = rest.dropFirst()
                coordinates = "vec3(\(coordinates), float(\(try convert(try rvalue(layer), to: .scalar(.uint), at: layer.location))))"
            }
            var function = "texture", extra = ""
            for option in rest {
                guard case .call(let callee, let values) = option.kind, case .name(let name) = callee.kind, values.count == 1 else {
                    throw .unsupported(option.location, "this sample option (offsets, gradients and min_lod_clamp)")
                }
                let value = try convert(try rvalue(values[0]), to: .scalar(.float), at: values[0].location)
                switch name {
                case "level" where function == "texture": function = "textureLod"; extra = ", \(value)"
                case "bias" where function == "texture": extra = ", \(value)"
                default: throw .unsupported(option.location, "the sample option '\(name)'")
                }
            }
            let code = "\(function)(\(combined)(\(texture.code), \(sampler.code)), \(coordinates)\(extra))"
            return Value(code: dimension == .depth2d ? "\(code).x" : code, type: element)
        case "sample_compare":
            guard dimension == .depth2d else { throw .unsupported(location, "sample_compare of a '\(texture.type)'") }
            guard arguments.count == 3 else {
                throw .unsupported(location, "sample_compare with options (level, offsets)")
            }
            let sampler = try rvalue(arguments[0])
            guard sampler.type == .sampler else { throw Diagnostic(arguments[0].location, "sample_compare's first argument is a sampler") }
            let coordinates = try convert(try rvalue(arguments[1]), to: .vector(.float, 2), at: arguments[1].location)
            let reference = try convert(try rvalue(arguments[2]), to: .scalar(.float), at: arguments[2].location)
            // The sampler's compare function compares; outside fragment functions, level 0.
            let shadow = "sampler2DShadow(\(texture.code), \(sampler.code)), vec3(\(coordinates), \(reference))"
            return Value(code: entry.stage == .fragment ? "texture(\(shadow))" : "textureLod(\(shadow), 0.0)", type: .scalar(.float))
        case "read":
            guard dimension != .textureCube else { throw .unsupported(location, "read of a cube texture") }
            guard !arguments.isEmpty else { throw Diagnostic(location, "read takes coordinates") }
            let coordinates = try rvalue(arguments[0])
            guard let coordinateScalar = coordinates.type.scalar, coordinateScalar.isInteger,
                  coordinates.type.componentCount == coordinateCount else {
                throw Diagnostic(arguments[0].location, "read takes uint\(coordinateCount) coordinates, not '\(coordinates.type)'")
            }
            var integerCoordinates = "ivec\(coordinateCount)(\(coordinates.code))"
            var rest = arguments.dropFirst()
            if dimension == .texture2dArray {
                guard let layer = rest.first else { throw Diagnostic(location, "read of a texture array takes a layer") }
                rest = rest.dropFirst()
                integerCoordinates = "ivec3(\(integerCoordinates), int(\(try convert(try rvalue(layer), to: .scalar(.uint), at: layer.location))))"
            }
            var lod = "0"
            if let level = rest.first {
                lod = "int(\(try convert(try rvalue(level), to: .scalar(.uint), at: level.location)))"
                rest = rest.dropFirst()
            }
            guard rest.isEmpty else { throw Diagnostic(location, "too many arguments to read") }
            extensions.insert("GL_EXT_samplerless_texture_functions")
            let code = "texelFetch(\(texture.code), \(integerCoordinates), \(lod))"
            return Value(code: dimension == .depth2d ? "\(code).x" : code, type: element)
        case "write":
            throw Diagnostic(location, "write needs a texture of access::write or access::read_write (this one is access::\(access.rawValue))")
        case "get_width", "get_height", "get_depth", "get_array_size":
            guard arguments.count <= 1 else { throw Diagnostic(location, "\(method) takes at most a mipmap level") }
            let component: String
            switch (method, dimension) {
            case ("get_width", _): component = "x"
            case ("get_height", _): component = "y"
            case ("get_depth", .texture3d): component = "z"
            case ("get_array_size", .texture2dArray): component = "z"
            default: throw Diagnostic(location, "'\(texture.type)' has no member function '\(method)'")
            }
            let lod = try arguments.first.map { (level) throws(Diagnostic) in
                "int(\(try convert(try rvalue(level), to: .scalar(.uint), at: level.location)))"
            } ?? "0"
            extensions.insert("GL_EXT_samplerless_texture_functions")
            return Value(code: "uint(textureSize(\(texture.code), \(lod)).\(component))", type: .scalar(.uint))
        case "get_num_mip_levels":
            guard arguments.isEmpty else { throw Diagnostic(location, "get_num_mip_levels takes no arguments") }
            extensions.insert("GL_EXT_samplerless_texture_functions")
            return Value(code: "uint(textureQueryLevels(\(texture.code)))", type: .scalar(.uint))
        default:
            throw Diagnostic(location, "'\(texture.type)' has no member function '\(method)'")
        }
    }

    /// A file-scope `constexpr sampler`: a sampler at the highest sampler index the entry
    /// point leaves free, fixed in the function by the library.
    mutating func constantSampler(_ name: String, _ global: Program.Global) throws(Diagnostic) -> Variable {
        guard global.type.isConstexpr else {
            throw Diagnostic(global.declarator.location, "a sampler at file scope must be constexpr")
        }
        let variable = try constantSampler(global.declarator, glslName: GLSLNames.identifier(name))
        emittedGlobals[name] = variable
        return variable
    }

    /// A `constexpr sampler` of file or function scope, declared in GLSL as `glslName`.
    mutating func constantSampler(_ declarator: Declarator, glslName: String) throws(Diagnostic) -> Variable {
        guard let index = (0...15).reversed().first(where: { !samplerIndices.contains($0) && constantSamplers[$0] == nil }) else {
            throw .unsupported(declarator.location, "more than 16 samplers in one function")
        }
        var arguments = declarator.constructorArguments ?? []
        if let initializer = declarator.initializer {
            guard case .construct(_, let values) = initializer.kind else {
                throw Diagnostic(initializer.location, "a constexpr sampler is initialized with sampler(…)")
            }
            arguments = values
        }
        constantSamplers[index] = try ConstantSampler(arguments: arguments)
        interfaceSection.append("layout(set = 0, binding = \(binding(.sampler, index))) uniform sampler \(glslName);")
        return Variable(kind: .value, type: .sampler, code: glslName, mutable: false, space: .constant)
    }
}
