/// The types the front end checks: Metal's scalars, vectors and matrices, structs, arrays,
/// textures and samplers.

/// Metal's scalar types.
package enum ScalarType: String, Sendable, Hashable, CaseIterable {
    /// `bool`.
    case bool
    /// `char`, 8-bit signed.
    case char
    /// `uchar`, 8-bit unsigned.
    case uchar
    /// `short`, 16-bit signed.
    case short
    /// `ushort`, 16-bit unsigned.
    case ushort
    /// `int`, 32-bit signed.
    case int
    /// `uint`, 32-bit unsigned.
    case uint
    /// `half`, 16-bit float (computed as 32-bit in this front end's output).
    case half
    /// `float`, 32-bit float.
    case float

    /// Whether it is `half` or `float`.
    package var isFloatingPoint: Bool { self == .half || self == .float }
    /// Whether it is an integer type (not `bool`).
    package var isInteger: Bool { !isFloatingPoint && self != .bool }
    /// Whether it is an unsigned integer type.
    package var isUnsigned: Bool { self == .uchar || self == .ushort || self == .uint }
    /// Its size in bytes in Metal's memory.
    package var size: Int {
        switch self {
        case .bool, .char, .uchar: 1
        case .short, .ushort, .half: 2
        case .int, .uint, .float: 4
        }
    }

    /// The type integer arithmetic computes it in: C's integer promotion (`short` to
    /// `int`), `half` stays `half`.
    var promoted: ScalarType {
        switch self {
        case .bool, .char, .uchar, .short, .ushort: .int
        default: self
        }
    }

    /// The GLSL scalar that holds it: 8- and 16-bit integers are computed in 32 bits,
    /// `half` in `float`.
    var glsl: String {
        switch self {
        case .bool: "bool"
        case .char, .short, .int: "int"
        case .uchar, .ushort, .uint: "uint"
        case .half, .float: "float"
        }
    }

    /// The prefix of GLSL's vector names (`vec`, `ivec`, `uvec`, `bvec`).
    var glslVectorPrefix: String {
        switch glsl {
        case "bool": "bvec"
        case "int": "ivec"
        case "uint": "uvec"
        default: "vec"
        }
    }
}

/// The kinds of texture.
package enum TextureDimension: String, Sendable, Hashable {
    /// `texture2d`.
    case texture2d
    /// `texture2d_array`.
    case texture2dArray = "texture2d_array"
    /// `texture3d`.
    case texture3d
    /// `texturecube`.
    case textureCube = "texturecube"
    /// `depth2d`.
    case depth2d
    /// `texture2d_ms`: multisampled, read by sample.
    case texture2dMS = "texture2d_ms"
}

/// How a function may use a texture (`access::sample`, the default, …).
package enum TextureAccess: String, Sendable, Hashable {
    /// Sampled and read.
    case sample
    /// Read.
    case read
    /// Written.
    case write
    /// Read and written.
    case readWrite = "read_write"
}

/// A type the checker knows.
package enum MSLType: Sendable, Hashable, CustomStringConvertible {
    /// `void`.
    case void
    /// A scalar.
    case scalar(ScalarType)
    /// A vector of 2 to 4 scalars.
    case vector(ScalarType, Int)
    /// A matrix of `columns` columns of `rows` rows (`float4x3` has 4 columns of 3).
    case matrix(ScalarType, columns: Int, rows: Int)
    /// A struct, by name.
    case structure(String)
    /// An array of a fixed length.
    indirect case array(MSLType, Int)
    /// A texture.
    case texture(TextureDimension, ScalarType, TextureAccess)
    /// A sampler.
    case sampler
    /// `atomic_int` or `atomic_uint`: a 32-bit integer the `atomic_*_explicit` functions
    /// change.
    case atomic(ScalarType)

    /// The name Metal gives it, for messages.
    package var description: String {
        switch self {
        case .void: "void"
        case .scalar(let scalar): scalar.rawValue
        case .vector(let scalar, let count): "\(scalar.rawValue)\(count)"
        case .matrix(let scalar, let columns, let rows): "\(scalar.rawValue)\(columns)x\(rows)"
        case .structure(let name): name
        case .array(let element, let count): "array<\(element), \(count)>"
        case .texture(let dimension, let scalar, let access): "\(dimension.rawValue)<\(scalar.rawValue), access::\(access.rawValue)>"
        case .sampler: "sampler"
        case .atomic(let scalar): "atomic_\(scalar.rawValue)"
        }
    }

    /// The scalar of a scalar, vector or matrix.
    var scalar: ScalarType? {
        switch self {
        case .scalar(let scalar), .vector(let scalar, _), .matrix(let scalar, _, _): scalar
        default: nil
        }
    }

    /// The number of components of a scalar (1) or vector.
    var componentCount: Int? {
        switch self {
        case .scalar: 1
        case .vector(_, let count): count
        case .matrix(_, let columns, let rows): columns * rows
        default: nil
        }
    }

    /// Whether it is a scalar or vector (what arithmetic works on componentwise).
    var isScalarOrVector: Bool {
        switch self {
        case .scalar, .vector: true
        default: false
        }
    }

    /// This shape with another scalar.
    func with(_ scalar: ScalarType) -> MSLType {
        switch self {
        case .vector(_, let count): .vector(scalar, count)
        case .matrix(_, let columns, let rows): .matrix(scalar, columns: columns, rows: rows)
        default: .scalar(scalar)
        }
    }
}

/// Names of Metal's built-in types, so the parser can tell declarations and casts from
/// expressions.
enum BuiltinTypeNames {
    /// The scalar, vector and matrix names, with their types.
    static let numeric: [String: MSLType] = {
        var types: [String: MSLType] = [:]
        for scalar in ScalarType.allCases {
            types[scalar.rawValue] = .scalar(scalar)
            for count in 2...4 { types["\(scalar.rawValue)\(count)"] = .vector(scalar, count) }
        }
        for scalar in [ScalarType.float, .half] {
            for columns in 2...4 {
                for rows in 2...4 { types["\(scalar.rawValue)\(columns)x\(rows)"] = .matrix(scalar, columns: columns, rows: rows) }
            }
        }
        types["unsigned"] = .scalar(.uint)
        types["size_t"] = .scalar(.uint)
        types["uint32_t"] = .scalar(.uint)
        types["int32_t"] = .scalar(.int)
        types["uint16_t"] = .scalar(.ushort)
        types["int16_t"] = .scalar(.short)
        types["uint8_t"] = .scalar(.uchar)
        types["int8_t"] = .scalar(.char)
        // simd's names, as headers shared with Swift write them.
        for (simdName, scalar) in [("float", ScalarType.float), ("int", .int), ("uint", .uint), ("half", .half),
                                   ("short", .short), ("ushort", .ushort), ("char", .char), ("uchar", .uchar)] {
            for count in 2...4 {
                types["vector_\(simdName)\(count)"] = .vector(scalar, count)
                types["simd_\(simdName)\(count)"] = .vector(scalar, count)
            }
        }
        for columns in 2...4 {
            for rows in 2...4 { types["matrix_float\(columns)x\(rows)"] = .matrix(.float, columns: columns, rows: rows) }
            for rows in 2...4 { types["simd_float\(columns)x\(rows)"] = .matrix(.float, columns: columns, rows: rows) }
        }
        return types
    }()

    /// The packed vectors (`packed_float3`): vectors aligned to their scalar, without the
    /// fourth component's room a three-component vector takes.
    static let packed: [String: MSLType] = {
        var types: [String: MSLType] = [:]
        for scalar in [ScalarType.float, .half, .int, .uint, .short, .ushort, .char, .uchar] {
            for count in 2...4 { types["packed_\(scalar.rawValue)\(count)"] = .vector(scalar, count) }
        }
        return types
    }()

    /// Templates and other names of the standard library's types.
    static let others: Set<String> = [
        "void", "texture1d", "texture2d", "texture2d_array", "texture3d", "texturecube", "texturecube_array",
        "texture2d_ms", "depth2d", "depth2d_array", "depthcube", "depth2d_ms", "sampler", "array", "vec", "matrix",
        "packed_float2", "packed_float3", "packed_float4", "packed_half2", "packed_half3", "packed_half4",
        "packed_int2", "packed_int3", "packed_int4", "packed_uint2", "packed_uint3", "packed_uint4",
        "atomic_int", "atomic_uint", "atomic_bool", "atomic_float", "atomic", "long", "ulong", "double", "bfloat",
        "simd_quatf", "array_ref", "visible_function_table", "intersection_function_table", "acceleration_structure",
        "indirect_command_buffer", "command_buffer", "render_command", "compute_command", "render_pipeline_state", "imageblock", "patch_control_point",
    ]

    /// Whether `name` is a built-in type name.
    static func contains(_ name: String) -> Bool { numeric[name] != nil || others.contains(name) }
}
