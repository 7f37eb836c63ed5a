/// Textures a kernel writes (`access::write`, `access::read_write`): GLSL storage images
/// declared without a pixel format, which MSL leaves to the host, through SPIR-V's
/// `StorageImageWriteWithoutFormat` and `StorageImageReadWithoutFormat`, which Vulkan 1.3
/// grants for each format whose features include `STORAGE_WRITE_WITHOUT_FORMAT` and
/// `STORAGE_READ_WITHOUT_FORMAT`; each dispatch checks the bound texture's (decisions 0115
/// and 0126).
extension Translator {
    /// The GLSL type of a storage texture: `writeonly image2D`, `uimage3D`, ….
    mutating func storageImageType(_ dimension: TextureDimension, _ prefix: String, _ access: TextureAccess,
                                   at location: SourceLocation) throws(Diagnostic) -> String {
        let name: String
        switch dimension {
        case .texture2d: name = "image2D"
        case .texture2dArray: name = "image2DArray"
        case .texture3d: name = "image3D"
        case .textureCube, .depth2d, .texture2dMS:
            throw .unsupported(location, "access::\(access.rawValue) on a '\(dimension.rawValue)'")
        }
        if access == .readWrite {
            extensions.insert("GL_EXT_shader_image_load_formatted")
            return prefix + name
        }
        return "writeonly " + prefix + name
    }

    /// A storage texture's integer coordinates: `coordinates` (uint2, or uint3 for 3D) and,
    /// for an array, the layer from `rest`, which loses it.
    mutating func storageCoordinates(_ dimension: TextureDimension, _ method: String, _ coordinates: Expression,
                                     _ rest: inout ArraySlice<Expression>, at location: SourceLocation) throws(Diagnostic) -> String {
        let count = dimension == .texture3d ? 3 : 2
        let value = try rvalue(coordinates)
        guard let scalar = value.type.scalar, scalar.isInteger, value.type.componentCount == count else {
            throw Diagnostic(coordinates.location, "\(method) takes uint\(count) coordinates, not '\(value.type)'")
        }
        let integer = "ivec\(count)(\(value.code))"
        guard dimension == .texture2dArray else { return integer }
        guard let layer = rest.first else { throw Diagnostic(location, "\(method) of a texture array takes a layer") }
        rest = rest.dropFirst()
        return "ivec3(\(integer), int(\(try convert(try rvalue(layer), to: .scalar(.uint), at: layer.location))))"
    }

    /// `write(value, coordinates[, layer])` and the size of a storage texture; a mipmap level
    /// is unsupported (GLSL's image functions have none).
    mutating func storageTextureCall(_ texture: Value, _ method: String, _ arguments: [Expression],
                                     at location: SourceLocation) throws(Diagnostic) -> Value {
        guard case .texture(let dimension, let scalar, let access) = texture.type else { throw Diagnostic(location, "not a texture") }
        let element = MSLType.vector(scalar, 4)
        switch method {
        case "write":
            guard arguments.count >= 2 else { throw Diagnostic(location, "write takes a value and coordinates") }
            let value = try rvalue(arguments[0])
            guard value.type.isScalarOrVector, let valueScalar = value.type.scalar,
                  valueScalar.isFloatingPoint == scalar.isFloatingPoint else {
                throw Diagnostic(arguments[0].location, "write of a '\(texture.type)' takes a \(element), not '\(value.type)'")
            }
            let texel = value.type.componentCount == 4 ? try convert(value, to: element, at: arguments[0].location, explicit: true)
                : try convert(value, to: element, at: arguments[0].location)
            var rest = arguments.dropFirst(2)
            let coordinates = try storageCoordinates(dimension, method, arguments[1], &rest, at: location)
            guard rest.isEmpty else { throw .unsupported(rest.first!.location, "write to a mipmap level (GLSL's imageStore writes the view's first)") }
            return Value(code: "imageStore(\(texture.code), \(coordinates), \(texel))", type: .void)
        case "read" where access == .readWrite:
            guard !arguments.isEmpty else { throw Diagnostic(location, "read takes coordinates") }
            var rest = arguments.dropFirst()
            let coordinates = try storageCoordinates(dimension, method, arguments[0], &rest, at: location)
            guard rest.isEmpty else { throw .unsupported(rest.first!.location, "read of a mipmap level of an access::read_write texture") }
            return Value(code: "imageLoad(\(texture.code), \(coordinates))", type: element)
        case "fence" where access == .readWrite:
            // Metal's fence orders the thread's writes before its later reads; one invocation's
            // own image accesses are ordered in GLSL, and the barrier makes that explicit.
            guard arguments.isEmpty else { throw Diagnostic(location, "fence takes no arguments") }
            return Value(code: "memoryBarrierImage()", type: .void)
        case "read", "sample", "sample_compare", "gather":
            throw Diagnostic(location, "\(method) needs a texture that may be read (this one is access::\(access.rawValue))")
        case "get_width", "get_height", "get_depth", "get_array_size":
            guard arguments.isEmpty else { throw .unsupported(location, "\(method) of a mipmap level of an access::\(access.rawValue) texture") }
            let component: String
            switch (method, dimension) {
            case ("get_width", _): component = "x"
            case ("get_height", _): component = "y"
            case ("get_depth", .texture3d), ("get_array_size", .texture2dArray): component = "z"
            default: throw Diagnostic(location, "'\(texture.type)' has no member function '\(method)'")
            }
            return Value(code: "uint(imageSize(\(texture.code)).\(component))", type: .scalar(.uint))
        default:
            throw Diagnostic(location, "'\(texture.type)' has no member function '\(method)'")
        }
    }
}
