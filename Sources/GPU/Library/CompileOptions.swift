/// A shader function's kind, Metal's `MTLFunctionType`.
public enum FunctionType: Sendable, Hashable {
    /// A vertex function (`*.vert`, GLSL stage `vertex`).
    case vertex
    /// A fragment function (`*.frag`, GLSL stage `fragment`).
    case fragment
    /// A compute function (`*.comp`, GLSL stage `compute`): Metal's kernel.
    case kernel
}

/// The language of a source given to `Device.makeLibrary(source:options:)`.
public enum ShaderLanguage: Sendable, Hashable {
    /// GLSL 450 for Vulkan, one function per source (`main`), compiled by glslang.
    case glsl
    /// Metal Shading Language, as Metal's `makeLibrary(source:options:)` takes it: every
    /// `kernel`, `vertex` and `fragment` function of the source becomes a function of the
    /// library, named as in the source. SwiftGPU's front end translates the subset its
    /// "Shaders" article lists to GLSL, which glslang compiles.
    case metal
}

/// How `Device.makeLibrary(source:options:)` compiles GLSL, Metal's `MTLCompileOptions`.
///
/// A class, as in Metal (`let options = CompileOptions(); options.preprocessorMacros =
/// ["SIZE": "64"]`); the compile reads it once, when called.
public final class CompileOptions {
    /// The source's language. Nil, the default, reads a source that includes
    /// `<metal_stdlib>` as Metal Shading Language and any other as GLSL.
    public var language: ShaderLanguage?
    /// Macros defined before the source, as `#define NAME VALUE` lines (an empty value
    /// defines the name alone). Names must be GLSL identifiers.
    public var preprocessorMacros: [String: String] = [:]
    /// The stage, when the source has no `#pragma shader_stage(vertex|fragment|compute)`.
    /// A source with the pragma and a different stage here is refused.
    public var functionType: FunctionType?
    /// The name the library gives a GLSL function (GLSL's entry point is always `main`);
    /// Metal Shading Language's functions keep their own names.
    public var functionName = "main"
    /// Whether the SPIR-V optimizer runs (`glslc -O`, as the SPIRVCompiler plugin does).
    public var optimizationEnabled = true
    /// The folders `#include "name"` reads headers from, searched in order. A header must
    /// lie inside one of them (no absolute name, no `..`, no link out) and be a regular file
    /// of at most 1 MiB. Empty, the default: a source with an `#include` is refused.
    public var includeFolders: [String] = []
    /// How long one compile may take; at the limit it is stopped and
    /// ``LibraryError/compilationTimedOut(name:limit:)`` thrown. Ten seconds by default:
    /// glslang compiles the largest shaders of real apps in well under a second, and a
    /// browser's GPU watchdog allows about as long.
    public var compilationTimeLimit: Duration = .seconds(10)
    /// The memory, in bytes, the compiler may map for one compile; beyond it
    /// ``LibraryError/compilationTooLarge(name:reason:)``. 512 MiB by default, about twenty
    /// times what glslang needs for the largest sources `maximumSourceLength` admits.
    public var compilationMemoryLimit = 512 << 20
    /// The compiler's stack for one compile, in bytes; a source that nests deeper than it
    /// holds throws ``LibraryError/compilationNestedTooDeeply(name:reason:)``. 16 MiB by
    /// default, twice a Linux main thread's.
    public var compilationStackSize = 16 << 20
    /// The longest source compiled, in bytes, after its includes and with its macros; a
    /// longer one throws ``LibraryError/compilationTooLarge(name:reason:)`` before any
    /// compile. 1 MiB by default, several times the largest hand-written shaders.
    public var maximumSourceLength = 1 << 20
    /// The largest module a compile may make, in bytes of SPIR-V; a larger one throws
    /// ``LibraryError/compilationTooLarge(name:reason:)`` rather than reach a driver, whose
    /// own compile of it could take minutes. 1 MiB by default.
    public var maximumModuleLength = 1 << 20

    /// Makes options with the defaults: no macros, the stage from the source's pragma,
    /// the function named `main`, optimized, and the limits above.
    public init() {}

    /// The values, copied for one compile by `call`, which stops when a limit is not
    /// positive.
    func values(for call: String) -> CompileValues {
        let sizes = [("compilationMemoryLimit", compilationMemoryLimit), ("compilationStackSize", compilationStackSize),
                     ("maximumSourceLength", maximumSourceLength), ("maximumModuleLength", maximumModuleLength)]
        for (name, value) in sizes where value <= 0 {
            misuse("\(call): CompileOptions.\(name) is \(value); a limit must be positive")
        }
        guard compilationTimeLimit > .zero else {
            misuse("\(call): CompileOptions.compilationTimeLimit is \(compilationTimeLimit); a limit must be positive")
        }
        return values
    }

    /// The values, copied for one compile.
    private var values: CompileValues {
        CompileValues(language: language, preprocessorMacros: preprocessorMacros, functionType: functionType,
                      functionName: functionName, optimizationEnabled: optimizationEnabled,
                      includeFolders: includeFolders,
                      limits: CompileLimits(time: compilationTimeLimit, memory: compilationMemoryLimit,
                                            stack: compilationStackSize, sourceLength: maximumSourceLength,
                                            moduleLength: maximumModuleLength))
    }
}

/// The values of a `CompileOptions`, copied when a compile starts.
struct CompileValues: Sendable {
    /// See `CompileOptions.language`.
    var language: ShaderLanguage?
    /// See `CompileOptions.preprocessorMacros`.
    var preprocessorMacros: [String: String]
    /// See `CompileOptions.functionType`.
    var functionType: FunctionType?
    /// See `CompileOptions.functionName`.
    var functionName: String
    /// See `CompileOptions.optimizationEnabled`.
    var optimizationEnabled: Bool
    /// See `CompileOptions.includeFolders`.
    var includeFolders: [String]
    /// See `CompileOptions`' limits.
    var limits: CompileLimits
}

/// The bounds of one run-time compile, from `CompileOptions`.
struct CompileLimits: Sendable {
    /// See `CompileOptions.compilationTimeLimit`.
    var time: Duration
    /// See `CompileOptions.compilationMemoryLimit`.
    var memory: Int
    /// See `CompileOptions.compilationStackSize`.
    var stack: Int
    /// See `CompileOptions.maximumSourceLength`.
    var sourceLength: Int
    /// See `CompileOptions.maximumModuleLength`.
    var moduleLength: Int
}
