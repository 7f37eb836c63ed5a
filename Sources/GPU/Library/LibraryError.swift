/// Why a shader library, function or pipeline could not be made.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a SPIR-V module.
    case notSPIRV(name: String, reason: String)
    /// The module breaks SPIR-V's rules for Vulkan: the SPIRV-Tools validator's message,
    /// with the word where it found the fault. SwiftGPU gives no driver such a module.
    case invalidSPIRV(name: String, reason: String)
    /// The module is valid SPIR-V but needs what SwiftGPU's devices do not enable: a
    /// capability that needs a device feature, or an extension.
    case unsupportedModule(name: String, reason: String)
    /// No function has this name; lists the names there are.
    case functionNotFound(name: String, available: [String])
    /// The name, without a stage extension, fits several functions (`textured` for
    /// `textured.vert` and `textured.frag`); lists them.
    case ambiguousFunctionName(name: String, candidates: [String])
    /// Several resource bundles beside the executable hold a function of this name, and
    /// none of them is the executable's own (the bundles of other executables of the same
    /// package sit beside it too); lists the bundles. Load the one meant with
    /// `makeLibrary(filePath:trustingBuildStamps:)`.
    case functionInSeveralBundles(name: String, bundles: [String])
    /// The bundle or folder holds no compiled shaders (`*.spv`).
    case noShaders(bundlePath: String)
    /// A shader file could not be read: missing, not a regular file (a FIFO, a device),
    /// larger than a module can be, or a read that failed; the reason says which.
    case unreadable(path: String, reason: String)
    /// GLSL given to `Device.makeLibrary(source:options:)` did not compile: the
    /// compiler's messages, each with its line in the source (`line 12: 'x' : undeclared
    /// identifier`). For Metal Shading Language the name is `program_source` and the
    /// message clang's form (`program_source:12:5: error: …`).
    case compilationFailed(name: String, messages: [String])
    /// Compiling GLSL took longer than `CompileOptions.compilationTimeLimit`; the compile
    /// was stopped.
    case compilationTimedOut(name: String, limit: Duration)
    /// The GLSL, or what compiling it needed or made, is larger than a `CompileOptions`
    /// limit allows: the source after its includes, the compiler's memory, or the module.
    /// The reason names the limit.
    case compilationTooLarge(name: String, reason: String)
    /// The GLSL's expressions or blocks nest deeper than the compiler's stack
    /// (`CompileOptions.compilationStackSize`) holds.
    case compilationNestedTooDeeply(name: String, reason: String)
    /// Run-time GLSL could not be compiled at all: the compiler process could not start or
    /// stopped for a reason of its own. The reason says which.
    case compilerUnavailable(reason: String)
    /// The function cannot be used the way it was asked to (wrong stage, a binding outside
    /// SwiftGPU's convention, ...).
    case unsupportedFunction(name: String, reason: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .notSPIRV(let name, let reason): "\(name) is not a SPIR-V module: \(reason)"
        case .invalidSPIRV(let name, let reason): "\(name) is not valid SPIR-V for Vulkan: \(reason)"
        case .unsupportedModule(let name, let reason): "\(name) cannot run on this device: \(reason)"
        case .functionNotFound(let name, let available):
            "no function named '\(name)' in the library; it has: \(available.joined(separator: ", "))"
        case .ambiguousFunctionName(let name, let candidates):
            "'\(name)' names several functions (\(candidates.joined(separator: ", "))); use the full name"
        case .functionInSeveralBundles(let name, let bundles):
            "'\(name)' is in several shader bundles beside the executable (\(bundles.joined(separator: ", "))), none of them "
                + "the executable's own; load the one meant with makeLibrary(filePath:)"
        case .noShaders(let path): "no compiled shaders (*.spv) in \(path)"
        case .unreadable(let path, let reason): "could not read shader file \(path): \(reason)"
        case .unsupportedFunction(let name, let reason): "function '\(name)' cannot be used: \(reason)"
        case .compilationTimedOut(let name, let limit):
            "GLSL for '\(name)' did not compile within \(limit) (CompileOptions.compilationTimeLimit); the compile was stopped"
        case .compilationTooLarge(let name, let reason): "GLSL for '\(name)' is too large to compile: \(reason)"
        case .compilationNestedTooDeeply(let name, let reason): "GLSL for '\(name)' nests too deeply to compile: \(reason)"
        case .compilerUnavailable(let reason): "run-time GLSL cannot be compiled: \(reason)"
        case .compilationFailed(let name, let messages):
            (name == Self.metalSourceName ? "Metal Shading Language source did not compile:\n"
                : "GLSL for '\(name)' did not compile:\n") + messages.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}

extension LibraryError {
    /// The name Metal Shading Language source compiled at run time goes by in errors, as in
    /// Metal's own messages. Here, not in the MSL compile path, so that the run-time GLSL
    /// fuzzer, which builds this file without that path, needs nothing more.
    static let metalSourceName = "program_source"
}
