/// A shader function's kind, Metal's `MTLFunctionType`.
public enum FunctionType: Sendable, Hashable {
    /// A vertex function (`*.vert`, GLSL stage `vertex`).
    case vertex
    /// A fragment function (`*.frag`, GLSL stage `fragment`).
    case fragment
    /// A compute function (`*.comp`, GLSL stage `compute`): Metal's kernel.
    case kernel
}

/// How `Device.makeLibrary(source:options:)` compiles GLSL, Metal's `MTLCompileOptions`.
///
/// A class, as in Metal (`let options = CompileOptions(); options.preprocessorMacros =
/// ["SIZE": "64"]`); the compile reads it once, when called.
public final class CompileOptions {
    /// Macros defined before the source, as `#define NAME VALUE` lines (an empty value
    /// defines the name alone). Names must be GLSL identifiers.
    public var preprocessorMacros: [String: String] = [:]
    /// The stage, when the source has no `#pragma shader_stage(vertex|fragment|compute)`.
    /// A source with the pragma and a different stage here is refused.
    public var functionType: FunctionType?
    /// The name the library gives the function (GLSL's entry point is always `main`).
    public var functionName = "main"
    /// Whether the SPIR-V optimizer runs (`glslc -O`, as the SPIRVCompiler plugin does).
    public var optimizationEnabled = true
    /// The folders `#include "name"` reads headers from, searched in order. A header must
    /// lie inside one of them (no absolute name, no `..`, no link out) and be a regular file
    /// of at most 1 MiB. Empty, the default: a source with an `#include` is refused.
    public var includeFolders: [String] = []

    /// Makes options with the defaults: no macros, the stage from the source's pragma,
    /// the function named `main`, optimized.
    public init() {}

    /// The values, copied for one compile.
    var values: CompileValues {
        CompileValues(preprocessorMacros: preprocessorMacros, functionType: functionType,
                      functionName: functionName, optimizationEnabled: optimizationEnabled,
                      includeFolders: includeFolders)
    }
}

/// The values of a `CompileOptions`, copied when a compile starts.
struct CompileValues: Sendable {
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
}
