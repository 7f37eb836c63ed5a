import CGlslang
import CShaderCompiler

/// Compiles GLSL to SPIR-V at run time with glslang, as the SPIRVCompiler plugin's
/// `glslc --target-env=vulkan1.2 -O` does at build time: same target, same optimizer, so
/// the output follows the same binding convention and reflection.
///
/// glslang runs in a compiler process (`ShaderCompilerProcess`), never in the app's: a
/// source can make it recurse past any stack, allocate without end or run for hours, and
/// there it costs the compile alone. Includes, the stage and the macros are settled here,
/// so that only a bounded source crosses.
enum GLSLCompiler {
    /// What a compile made: the module's words, or why there is none.
    typealias Outcome = Result<[UInt32], LibraryError>

    /// Compiles `source` as one stage.
    static func compile(_ original: String, options: CompileValues) -> Outcome {
        let name = options.functionName
        let limits = options.limits
        let source: String
        switch GLSLIncludes.expand(original, folders: options.includeFolders, limit: limits.sourceLength) {
        case .success(let expanded): source = expanded
        case .failure(.tooLarge(let message)): return .failure(.compilationTooLarge(name: name, reason: message))
        case .failure(.refused(let message)): return .failure(.compilationFailed(name: name, messages: [message]))
        }
        let stage: FunctionType
        switch shaderStage(of: source, options: options) {
        case .success(let found): stage = found
        case .failure(let error): return .failure(error)
        }
        if let problem = macroProblem(options.preprocessorMacros) {
            return .failure(.compilationFailed(name: name, messages: [problem]))
        }
        let preamble = preamble(options.preprocessorMacros)
        let length = source.utf8.count + preamble.utf8.count
        guard length <= limits.sourceLength else {
            return .failure(.compilationTooLarge(name: name, reason: "the source is \(length) bytes with its includes and "
                + "macros, over CompileOptions.maximumSourceLength (\(limits.sourceLength))"))
        }
        let request = swiftgpu_compile_request(
            magic: SWIFTGPU_SHADER_COMPILER_MAGIC, stage: stage.glslangStage.rawValue,
            optimize: options.optimizationEnabled ? 1 : 0, preambleLength: UInt32(preamble.utf8.count),
            codeLength: UInt64(source.utf8.count), memoryLimit: UInt64(limits.memory), stackSize: UInt64(limits.stack),
            maximumWords: UInt64(limits.moduleLength / 4), secondsLimit: UInt64(limits.time.components.seconds) + 1)
        return run(request, preamble: preamble, code: source, name: name, limits: limits)
    }

    /// Runs `request` on a pooled compiler process; again on the next when a kept one had
    /// ended while idle (every kept one may have), and on a new one after `maximumIdle` of
    /// those. A new process that breaks off is an error.
    private static func run(_ request: swiftgpu_compile_request, preamble: String, code: String, name: String,
                            limits: CompileLimits) -> Outcome {
        let pool = ShaderCompilerPool.shared
        let deadline = ShaderCompilerProcess.deadline(after: limits.time)
        for attempt in 0...ShaderCompilerPool.maximumIdle {
            let process: ShaderCompilerProcess, pooled: Bool
            switch pool.take(fresh: attempt == ShaderCompilerPool.maximumIdle) {
            case .success(let taken): (process, pooled) = taken
            case .failure(let error): return .failure(error)
            }
            switch process.compile(request, preamble: preamble, code: code, deadline: deadline) {
            case .timedOut:
                process.stop()
                return .failure(.compilationTimedOut(name: name, limit: limits.time))
            case .broken(let reason):
                let ending = process.stop()
                if pooled { continue }
                return .failure(.compilerUnavailable(reason: "the shader compiler process \(ending): \(reason)"))
            case .answered(let status, let detail, let payload):
                return answer(status: status, detail: detail, payload: payload, process: process, name: name, limits: limits)
            }
        }
        preconditionFailure("unreachable: the last attempt takes a new process, which returns")
    }

    /// The outcome of an answer; `process` goes back to the pool when it is still usable.
    private static func answer(status: UInt32, detail: UInt64, payload: [UInt8], process: ShaderCompilerProcess,
                               name: String, limits: CompileLimits) -> Outcome {
        switch swiftgpu_compile_status(rawValue: status) {
        case SWIFTGPU_COMPILE_SUCCEEDED:
            ShaderCompilerPool.shared.giveBack(process)
            return .success(payload.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) })
        case SWIFTGPU_COMPILE_FAILED:
            ShaderCompilerPool.shared.giveBack(process)
            let log = errorLines(String(decoding: payload, as: UTF8.self))
            return .failure(.compilationFailed(name: name, messages: log.isEmpty ? ["glslang produced no SPIR-V"] : log))
        case SWIFTGPU_COMPILE_TOO_LARGE:
            ShaderCompilerPool.shared.giveBack(process)
            return .failure(.compilationTooLarge(name: name, reason: "the compiled module would be \(detail * 4) bytes of "
                + "SPIR-V, over CompileOptions.maximumModuleLength (\(limits.moduleLength))"))
        case SWIFTGPU_COMPILE_OUT_OF_MEMORY:
            process.closeAndReap()
            return .failure(.compilationTooLarge(name: name, reason: "compiling it needs more than "
                + "CompileOptions.compilationMemoryLimit (\(limits.memory) bytes)"))
        case SWIFTGPU_COMPILE_STACK_OVERFLOW:
            process.closeAndReap()
            return .failure(.compilationNestedTooDeeply(name: name, reason: "its expressions or blocks nest deeper than "
                + "the compiler's stack of \(limits.stack) bytes holds (CompileOptions.compilationStackSize)"))
        default:
            let ending = process.closeAndReap()
            return .failure(.compilationFailed(name: name, messages: [
                "the compiler stopped on signal \(detail) while compiling it (its process \(ending))",
            ]))
        }
    }

    /// The stage: the source's `#pragma shader_stage(…)`, or the options' `functionType`.
    static func shaderStage(of source: String, options: CompileValues) -> Result<FunctionType, LibraryError> {
        let name = options.functionName
        var pragma: (stage: String, line: Int)?
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" || $0 == "#" })
            if words.count >= 3, words[0] == "pragma", words[1] == "shader_stage" {
                pragma = (String(words[2]), index + 1)
                break
            }
        }
        guard let pragma else {
            if let type = options.functionType { return .success(type) }
            return .failure(.compilationFailed(name: name, messages: [
                "no shader stage: put #pragma shader_stage(vertex), (fragment) or (compute) in the source, "
                    + "or set CompileOptions.functionType",
            ]))
        }
        let stages: [String: FunctionType] = ["vertex": .vertex, "fragment": .fragment, "compute": .kernel]
        guard let stage = stages[pragma.stage] else {
            return .failure(.compilationFailed(name: name, messages: [
                "line \(pragma.line): shader stage '\(pragma.stage)' is not one SwiftGPU runs (vertex, fragment, compute)",
            ]))
        }
        if let type = options.functionType, type != stage {
            return .failure(.compilationFailed(name: name, messages: [
                "line \(pragma.line): the source's stage '\(pragma.stage)' differs from CompileOptions.functionType \(type)",
            ]))
        }
        return .success(stage)
    }

    /// Why `macros` cannot be defined, or nil.
    static func macroProblem(_ macros: [String: String]) -> String? {
        for (name, value) in macros.sorted(by: { $0.key < $1.key }) {
            let isIdentifier = name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            guard isIdentifier else { return "preprocessor macro name '\(name)' is not an identifier" }
            guard !value.contains(where: \.isNewline) else {
                return "preprocessor macro \(name)'s value spans several lines"
            }
        }
        return nil
    }

    /// The `#define` lines glslang reads before the source (after its `#version`).
    private static func preamble(_ macros: [String: String]) -> String {
        macros.sorted(by: { $0.key < $1.key }).map { "#define \($0.key) \($0.value)\n" }.joined()
    }

    /// glslang's log as messages: `ERROR: 0:12: 'x' : undeclared identifier` reads
    /// `line 12: 'x' : undeclared identifier`; its closing count of errors is dropped.
    static func errorLines(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            var text = String(line.drop(while: \.isWhitespace))
            while text.last?.isWhitespace == true { text.removeLast() }
            guard !text.isEmpty, !text.hasSuffix("compilation errors.  No code generated.") else { return nil }
            for prefix in ["ERROR: ", "WARNING: "] where text.hasPrefix(prefix) {
                text = (prefix == "WARNING: " ? "warning: " : "") + text.dropFirst(prefix.count)
            }
            // "<string>:<line>: message" → "line <line>: message"
            let parts = text.split(separator: ":", maxSplits: 2)
            if parts.count == 3, Int(parts[0]) != nil, let number = Int(parts[1]) {
                return "line \(number):\(parts[2])"
            }
            return text
        }
    }
}

extension FunctionType {
    /// glslang's stage.
    var glslangStage: glslang_stage_t {
        switch self {
        case .vertex: GLSLANG_STAGE_VERTEX
        case .fragment: GLSLANG_STAGE_FRAGMENT
        case .kernel: GLSLANG_STAGE_COMPUTE
        }
    }
}
