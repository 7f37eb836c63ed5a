import FoundationEssentials
import MetalShadingLanguage
import SwiftGPUSPIRV

/// Metal Shading Language at run time: SwiftGPU's front end (the `MetalShadingLanguage`
/// module) translates each `kernel`, `vertex` and `fragment` function to a GLSL module,
/// which glslang compiles in the compiler process as any run-time GLSL; the library names
/// each function as the source does.
enum MetalSourceCompiler {
    /// The name Metal's compiler gives a run-time source in its messages.
    static let sourceName = LibraryError.metalSourceName

    /// Whether `source` includes `<metal_stdlib>`, which only Metal Shading Language does.
    static func includesMetalStandardLibrary(_ source: String) -> Bool {
        source.split(separator: "\n").contains { GLSLIncludes.includedName(in: $0) == "metal_stdlib" }
    }

    /// A library of every entry point of `source`.
    static func makeLibrary(source: String, values: CompileValues, device: Device) throws(LibraryError) -> Library {
        let limit = values.limits.sourceLength
        guard source.utf8.count <= limit else {
            throw .compilationTooLarge(name: sourceName, reason: "the source is \(source.utf8.count) bytes, over "
                + "CompileOptions.maximumSourceLength (\(limit))")
        }
        let headers = Headers(folders: values.includeFolders, budget: limit - source.utf8.count)
        let entryPoints: [TranslatedEntryPoint]
        switch MetalCompiler.compile(source, file: sourceName, macros: values.preprocessorMacros, readHeader: headers.read) {
        case .success(let translated): entryPoints = translated
        case .failure(let diagnostic): throw .compilationFailed(name: sourceName, messages: [diagnostic.description])
        }
        guard !entryPoints.isEmpty else {
            throw .compilationFailed(name: sourceName, messages: ["the source declares no kernel, vertex or fragment function"])
        }
        var functions: [Function] = []
        for entry in entryPoints {
            var glsl = values
            glsl.language = .glsl
            glsl.preprocessorMacros = [:]
            glsl.includeFolders = []
            glsl.functionName = entry.name
            glsl.functionType = switch entry.stage {
            case .kernel: .kernel
            case .vertex: .vertex
            case .fragment: .fragment
            }
            let words: [UInt32]
            switch GLSLCompiler.compile(entry.glsl, options: glsl) {
            case .success(let compiled): words = compiled
            case .failure(.compilationFailed(let name, let messages)):
                throw .compilationFailed(name: name, messages: [
                    "internal error: SwiftGPU's GLSL translation of '\(name)' did not compile (a front-end bug; please report it)",
                ] + messages)
            case .failure(let error): throw error
            }
            // The notes travel in the module, as they do from the build's compiler (`msl-compile`).
            let notes = entry.notes
            guard let noted = notes.isEmpty ? words : SPIRVSourceExtension.inserting(notes.text, into: words) else {
                throw .compilationFailed(name: entry.name, messages: [
                    "internal error: the notes of '\(entry.name)' do not fit its module (a front-end bug; please report it)",
                ])
            }
            let module = try Device.parse(noted.withUnsafeBytes { Data($0) }, name: entry.name)
            guard let entryPoint = module.entryPoints.first else {
                throw .compilationFailed(name: entry.name, messages: ["the compiled module has no entry point"])
            }
            functions.append(Function(name: entry.name, module: module, entryPoint: entryPoint))
        }
        return Library(device: device, functions: functions)
    }

    /// `#include "name"` for run-time MSL: read from the include folders as run-time GLSL's
    /// headers are (`GLSLIncludes`), the source and its headers within the length limit.
    final class Headers {
        private let roots: [String]
        private var budget: Int

        init(folders: [String], budget: Int) {
            roots = folders.map { GLSLIncludes.realPath($0) ?? $0 }
            self.budget = budget
        }

        func read(_ name: String) -> Preprocessor.HeaderLookup {
            switch GLSLIncludes.read(name, roots: roots) {
            case .text(let text):
                budget -= text.utf8.count
                guard budget >= 0 else {
                    return .refused("with this header the source passes CompileOptions.maximumSourceLength")
                }
                return .found(text: text, file: name)
            case .refused(let reason):
                return .refused(reason)
            }
        }
    }
}
