import MetalShadingLanguage
import Testing

/// The front end's result for `source` (named `test.metal`), with `headers` readable by
/// `#include "name"`.
func compile(_ source: String, headers: [String: String] = [:], macros: [String: String] = [:])
    -> Result<[TranslatedEntryPoint], Diagnostic> {
    MetalCompiler.compile(source, file: "test.metal", macros: macros) { name in
        headers[name].map { .found(text: $0, file: name) } ?? .notFound
    }
}

/// The one error `source` gives, as clang writes it; records an issue when it compiles.
func error(_ source: String, headers: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
    switch compile(source, headers: headers) {
    case .success: 
        Issue.record("the source compiled", sourceLocation: sourceLocation)
        return ""
    case .failure(let diagnostic): return diagnostic.description
    }
}

/// The GLSL of `source`'s entry point `name`; records an issue when there is none.
func glsl(_ source: String, _ name: String, headers: [String: String] = [:], macros: [String: String] = [:],
          sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
    switch compile(source, headers: headers, macros: macros) {
    case .success(let entries):
        guard let entry = entries.first(where: { $0.name == name }) else {
            Issue.record("no entry point \(name)", sourceLocation: sourceLocation)
            return ""
        }
        return entry.glsl
    case .failure(let diagnostic):
        Issue.record("\(diagnostic)", sourceLocation: sourceLocation)
        return ""
    }
}

/// A kernel around `body`, with a float output buffer and the thread position `i`.
func kernel(_ body: String, prelude: String = "") -> String {
    """
    #include <metal_stdlib>
    using namespace metal;
    \(prelude)
    kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    \(body)
    }
    """
}

/// The front end's source location (Testing has a `SourceLocation` of its own).
typealias Location = MetalShadingLanguage.SourceLocation
