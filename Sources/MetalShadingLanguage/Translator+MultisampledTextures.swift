extension Translator {
    /// A call of a `texture2d_ms`'s member function: `read(coordinates, sample)`, which is
    /// `texelFetch` of a `texture2DMS` without a sampler; `get_width`, `get_height` and
    /// `get_num_samples`.
    mutating func multisampledTextureCall(_ texture: Value, _ method: String, _ arguments: [Expression],
                                          at location: SourceLocation) throws(Diagnostic) -> Value {
        guard case .texture(_, let scalar, _) = texture.type else { throw Diagnostic(location, "not a texture") }
        extensions.insert("GL_EXT_samplerless_texture_functions")
        switch method {
        case "read":
            guard arguments.count == 2 else { throw Diagnostic(location, "read of a texture2d_ms takes coordinates and a sample index") }
            let coordinates = try rvalue(arguments[0])
            guard let coordinateScalar = coordinates.type.scalar, coordinateScalar.isInteger, coordinates.type.componentCount == 2 else {
                throw Diagnostic(arguments[0].location, "read takes uint2 coordinates, not '\(coordinates.type)'")
            }
            let sample = try convert(try rvalue(arguments[1]), to: .scalar(.uint), at: arguments[1].location)
            return Value(code: "texelFetch(\(texture.code), ivec2(\(coordinates.code)), int(\(sample)))", type: .vector(scalar, 4))
        case "get_width", "get_height":
            guard arguments.isEmpty else { throw Diagnostic(location, "\(method) of a texture2d_ms takes no arguments") }
            return Value(code: "uint(textureSize(\(texture.code)).\(method == "get_width" ? "x" : "y"))", type: .scalar(.uint))
        case "get_num_samples":
            guard arguments.isEmpty else { throw Diagnostic(location, "get_num_samples takes no arguments") }
            return Value(code: "uint(textureSamples(\(texture.code)))", type: .scalar(.uint))
        default:
            throw Diagnostic(location, "'\(texture.type)' has no member function '\(method)'")
        }
    }
}
