/// One entry point of a Metal Shading Language source, as GLSL 450.
package struct TranslatedEntryPoint: Sendable, Hashable {
    /// The function's name in the source, the name the library gives it.
    package var name: String
    /// Its stage.
    package var stage: Stage
    /// The GLSL module, whose `main` is the function.
    package var glsl: String
    /// What the library sets up beyond the module: its `constexpr sampler`s, its arguments
    /// under function constants, the textures it may find unbound, its grid-size block and
    /// its threadgroup memory arguments.
    package var notes: FunctionNotes
}

/// A kernel's `threadgroup T* name [[threadgroup(n)]]` argument: GLSL `shared` memory, an
/// array of T whose element count is a specialization constant the pipeline sets from the
/// length the app gives.
package struct ThreadgroupArgument: Sendable, Hashable {
    /// The specialization constant id of the element count.
    package var countId: Int
    /// The bytes one element takes in Metal's layout: the length divided by it is the count.
    package var stride: Int

    /// The argument whose count is constant `countId`, of elements of `stride` bytes.
    package init(countId: Int, stride: Int) {
        self.countId = countId
        self.stride = stride
    }
}

/// Another file of the same target, whose definitions a file's declarations may name.
package struct LinkedSource: Sendable {
    /// Its text.
    package var text: String
    /// Its name in diagnostics.
    package var file: String

    /// The file `file`, holding `text`.
    package init(text: String, file: String) {
        self.text = text
        self.file = file
    }
}

/// The front end's entry: Metal Shading Language source to one GLSL module per entry point.
package enum MetalCompiler {
    /// Preprocesses, parses and checks `source` (named `file` in diagnostics), and
    /// translates each `kernel`, `vertex` and `fragment` function, in the order they are
    /// declared. `macros` are defined before the source; `#include "name"` reads through
    /// `readHeader`. The first error ends the compile.
    ///
    /// `linked` are the other files of the library, as Metal's build links a target's
    /// `.metal` files into one: where `source` declares a function it does not define, each
    /// of these files that defines one (each preprocessed on its own; one that does not
    /// parse is left out, its own compile saying why) adds the declarations `source` lacks:
    /// its functions, structs and constants, not its entry points.
    package static func compile(_ source: String, file: String, macros: [String: String] = [:], linked: [LinkedSource] = [],
                                readHeader: @escaping Preprocessor.HeaderReader = { _ in .notFound })
        -> Result<[TranslatedEntryPoint], Diagnostic> {
        do throws(Diagnostic) {
            var declarations = try parse(source, file: file, macros: macros, readHeader: readHeader)
            var needed = Set(declarations.compactMap { if case .function(let f) = $0, f.body == nil { f.name } else { nil } })
                .subtracting(declarations.compactMap { if case .function(let f) = $0, f.body != nil { f.name } else { nil } })
            for other in linked where !needed.isEmpty {
                // A file that does not parse is skipped: its own compile reports why.
                guard let found = try? parse(other.text, file: other.file, macros: macros, readHeader: readHeader) else { continue }
                let defines = Set(found.compactMap { if case .function(let f) = $0, f.body != nil, f.stage == nil { f.name } else { nil } })
                guard !defines.isDisjoint(with: needed) else { continue }
                declarations += missing(from: found, in: declarations)
                needed.subtract(defines)
            }
            let program = try Program(declarations)
            var entryPoints: [TranslatedEntryPoint] = []
            for entry in program.entryPoints {
                var translator = Translator(program: program, entry: entry)
                entryPoints.append(try translator.run())
            }
            return .success(entryPoints)
        } catch {
            return .failure(error)
        }
    }

    /// The declarations of one file.
    private static func parse(_ source: String, file: String, macros: [String: String],
                              readHeader: @escaping Preprocessor.HeaderReader) throws(Diagnostic) -> [TopLevelDeclaration] {
        var preprocessor = try Preprocessor(macros: macros, readHeader: readHeader)
        let tokens = try preprocessor.run(source, file: file)
        var parser = Parser(tokens: tokens)
        return try parser.parse()
    }

    /// The declarations of `found` (another file) that `declarations` lack: every one but
    /// entry points and function prototypes, and but those whose names `declarations`
    /// already define (the headers both files include, chiefly).
    private static func missing(from found: [TopLevelDeclaration], in declarations: [TopLevelDeclaration]) -> [TopLevelDeclaration] {
        var defined: Set<String> = []
        for declaration in declarations {
            switch declaration {
            case .structure(let structure): defined.insert(structure.name)
            case .enumeration(let enumeration): defined.formUnion(enumeration.name.map { [$0] } ?? [])
            case .function(let function) where function.body != nil: defined.insert(function.name)
            case .function: break
            case .variable(let variable): defined.formUnion(variable.declarators.map(\.name))
            case .alias(let name, _, _): defined.insert(name)
            }
        }
        return found.filter { declaration in
            switch declaration {
            case .structure(let structure): !defined.contains(structure.name)
            case .enumeration(let enumeration): enumeration.name.map { !defined.contains($0) } ?? false
            case .function(let function): function.stage == nil && function.body != nil && !defined.contains(function.name)
            case .variable(let variable): !variable.declarators.contains { defined.contains($0.name) }
            case .alias(let name, _, _): !defined.contains(name)
            }
        }
    }
}
