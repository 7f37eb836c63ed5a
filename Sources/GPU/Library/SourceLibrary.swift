import Dispatch
import FoundationEssentials
import SwiftGPUSPIRV

extension Device {
    /// Compiles GLSL or Metal Shading Language at run time into a library, Metal's
    /// `makeLibrary(source:options:)`.
    ///
    /// Metal Shading Language (`options.language` `.metal`, or a source that includes
    /// `<metal_stdlib>`) gives a function for each `kernel`, `vertex` and `fragment`
    /// function, named as in the source; errors are
    /// ``LibraryError/compilationFailed(name:messages:)`` with clang's form,
    /// `program_source:12:5: error: …`, and constructs outside the subset the front end
    /// compiles say `unsupported: <construct>`. The rest of this text is about GLSL, which
    /// gives a library of one function.
    ///
    /// The stage comes from the source's `#pragma shader_stage(vertex|fragment|compute)` or
    /// from `options.functionType`; `options.preprocessorMacros` are defined before the
    /// source. The function is named `options.functionName` (`main` by default). The output
    /// goes through the same checks as any SPIR-V (``makeLibrary(spirv:)``) and follows the
    /// same binding convention as the SPIRVCompiler plugin's.
    ///
    /// Throws ``LibraryError/compilationFailed(name:messages:)`` with the compiler's
    /// messages, each naming its line in `source`.
    public func makeLibrary(source: String, options: CompileOptions? = nil) throws(LibraryError) -> Library {
        try makeLibrary(source: source, values: (options ?? CompileOptions()).values(for: #function))
    }

    /// Compiles GLSL at run time off the calling thread; see ``makeLibrary(source:options:)``.
    public func makeLibrary(source: String, options: CompileOptions? = nil) async throws(LibraryError) -> Library {
        let values = (options ?? CompileOptions()).values(for: #function)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Library, LibraryError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(LibraryError) in
                    try self.makeLibrary(source: source, values: values)
                })
            }
        }
        return try result.get()
    }

    /// Compiles GLSL off the calling thread and calls `completionHandler` with the library
    /// or the error, Metal's `makeLibrary(source:options:completionHandler:)`.
    public func makeLibrary(source: String, options: CompileOptions?,
                            completionHandler: @escaping @Sendable (Library?, LibraryError?) -> Void) {
        let values = (options ?? CompileOptions()).values(for: #function)
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(LibraryError) {
                completionHandler(try self.makeLibrary(source: source, values: values), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    private func makeLibrary(source: String, values: CompileValues) throws(LibraryError) -> Library {
        if values.language ?? (MetalSourceCompiler.includesMetalStandardLibrary(source) ? .metal : .glsl) == .metal {
            return try MetalSourceCompiler.makeLibrary(source: source, values: values, device: self)
        }
        let words = try GLSLCompiler.compile(source, options: values).get()
        let data = words.withUnsafeBytes { Data($0) }
        let module = try Self.parse(data, name: values.functionName)
        guard let entryPoint = module.entryPoints.first else {
            throw .compilationFailed(name: values.functionName, messages: ["the compiled module has no entry point"])
        }
        return Library(device: self, functions: [Function(name: values.functionName, module: module, entryPoint: entryPoint)])
    }
}
