/// One entry point of a Metal Shading Language source, as GLSL 450.
package struct TranslatedEntryPoint: Sendable, Hashable {
    /// The function's name in the source, the name the library gives it.
    package var name: String
    /// Its stage.
    package var stage: Stage
    /// The GLSL module, whose `main` is the function.
    package var glsl: String
    /// The `constexpr sampler`s it uses, by the sampler index the GLSL declares each at.
    package var constantSamplers: [Int: ConstantSampler]
    /// Buffer and texture arguments present only when a function constant is true
    /// (`[[function_constant(c)]]`): the constant's index, by the binding the GLSL declares
    /// the argument at. Where the constant is false, the app need not bind one.
    package var conditionalBindings: [Int: Int] = [:]
    /// Texture arguments the function asks `is_null_texture` of, by binding: the app may
    /// leave them unbound, and the function then sees a texture of size zero.
    package var nullableBindings: Set<Int> = []
    /// For a kernel that reads `[[threads_per_grid]]` or `[[threadgroups_per_grid]]`, the
    /// buffer index (past Metal's) at which each dispatch binds the grid's size: two
    /// `uint4`s, the threads and the threadgroups.
    package var gridSizeIndex: Int?
    /// A kernel's `[[threadgroup(n)]]` arguments, by index n: threadgroup memory whose
    /// length each dispatch's `setThreadgroupMemoryLength(_:index:)` gives.
    package var threadgroupArguments: [Int: ThreadgroupArgument] = [:]
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

/// The front end's entry: Metal Shading Language source to one GLSL module per entry point.
package enum MetalCompiler {
    /// Preprocesses, parses and checks `source` (named `file` in diagnostics), and
    /// translates each `kernel`, `vertex` and `fragment` function, in the order they are
    /// declared. `macros` are defined before the source; `#include "name"` reads through
    /// `readHeader`. The first error ends the compile.
    package static func compile(_ source: String, file: String, macros: [String: String] = [:],
                                readHeader: @escaping Preprocessor.HeaderReader = { _ in .notFound })
        -> Result<[TranslatedEntryPoint], Diagnostic> {
        do throws(Diagnostic) {
            var preprocessor = try Preprocessor(macros: macros, readHeader: readHeader)
            let tokens = try preprocessor.run(source, file: file)
            var parser = Parser(tokens: tokens)
            let program = try Program(try parser.parse())
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
}
