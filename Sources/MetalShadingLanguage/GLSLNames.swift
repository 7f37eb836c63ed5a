/// Names in the GLSL the front end writes: the source's names, renamed where GLSL reserves
/// them, and GLSL's spelling of each type.
enum GLSLNames {
    /// GLSL's keywords, reserved words and the built-in functions the translation calls,
    /// which a source name must not shadow.
    static let reserved: Set<String> = [
        "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict", "readonly",
        "writeonly", "atomic_uint", "layout", "centroid", "flat", "smooth", "noperspective", "patch", "sample", "break",
        "continue", "do", "for", "while", "switch", "case", "default", "if", "else", "subroutine", "in", "out", "inout",
        "float", "double", "int", "void", "bool", "true", "false", "invariant", "precise", "discard", "return", "lowp",
        "mediump", "highp", "precision", "struct", "common", "partition", "active", "asm", "class", "union", "enum",
        "typedef", "template", "this", "resource", "goto", "inline", "noinline", "public", "static", "extern",
        "external", "interface", "long", "short", "half", "fixed", "unsigned", "superp", "input", "output", "filter",
        "sizeof", "cast", "namespace", "using", "uint", "main", "texture", "sampler", "image", "vec2", "vec3", "vec4",
        "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4", "bvec2", "bvec3", "bvec4", "dvec2", "dvec3", "dvec4",
        "hvec2", "hvec3", "hvec4", "fvec2", "fvec3", "fvec4", "mat2", "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4",
        "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4", "texture2D", "texture3D", "textureCube",
        "texture2DArray", "itexture2D", "utexture2D", "sampler2D", "sampler3D", "samplerCube", "sampler2DArray",
        "isampler2D", "usampler2D", "isampler3D", "usampler3D", "isamplerCube", "usamplerCube", "isampler2DArray",
        "usampler2DArray", "itexture3D", "utexture3D", "itextureCube", "utextureCube", "itexture2DArray",
        "utexture2DArray", "image2D", "texelFetch", "textureLod", "textureSize", "textureQueryLevels", "textureOffset",
        "inversesqrt", "roundEven", "mod", "dFdx", "dFdy", "lessThan", "lessThanEqual", "greaterThan",
        "greaterThanEqual", "equal", "notEqual", "not", "barrier", "memoryBarrierShared", "memoryBarrierBuffer",
        "memoryBarrierImage", "floatBitsToUint", "floatBitsToInt", "uintBitsToFloat", "intBitsToFloat", "bitCount",
        "bitfieldReverse", "packUnorm4x8", "unpackUnorm4x8", "packSnorm4x8", "unpackSnorm4x8", "packHalf2x16",
        "unpackHalf2x16", "sampler2DShadow", "samplerShadow", "atan", "abs", "sign", "trunc", "mix", "clamp", "min", "max",
        "pow", "exp", "exp2", "log", "log2", "sqrt", "floor", "ceil", "fract", "step", "smoothstep", "length", "distance",
        "dot", "cross", "normalize", "reflect", "refract", "faceforward", "transpose", "determinant", "inverse", "any",
        "all", "fma", "isnan", "isinf", "sin", "cos", "tan", "asin", "acos", "sinh", "cosh", "tanh", "asinh", "acosh",
        "atanh", "fwidth", "round",
    ]

    /// The GLSL name of a name in the source: the name itself, or `msl_` and the name where
    /// GLSL reserves it, it starts with `gl_` or `msl`, or holds `__`.
    static func identifier(_ name: String) -> String {
        if reserved.contains(name) || name.hasPrefix("gl_") || name.hasPrefix("msl") || name.contains("__") {
            return "msl_" + name
        }
        return name
    }
}
