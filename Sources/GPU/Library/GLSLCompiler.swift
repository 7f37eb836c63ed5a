import CGlslang

/// Compiles GLSL to SPIR-V at run time with glslang's C interface, as the SPIRVCompiler
/// plugin's `glslc --target-env=vulkan1.2 -O` does at build time: same target, same
/// optimizer, so the output follows the same binding convention and reflection.
enum GLSLCompiler {
    /// What a compile made: the module's words, or the compiler's messages.
    typealias Outcome = Result<[UInt32], LibraryError>

    /// glslang's process-wide tables, set up once before the first compile (later compiles
    /// may run on any thread at the same time).
    private static let processReady: Bool = glslang_initialize_process() != 0

    /// Compiles `source` as one stage.
    static func compile(_ original: String, options: CompileValues) -> Outcome {
        let name = options.functionName
        let source: String
        switch GLSLIncludes.expand(original, folders: options.includeFolders) {
        case .success(let expanded): source = expanded
        case .failure(let problem): return .failure(.compilationFailed(name: name, messages: [problem.message]))
        }
        let stage: FunctionType
        switch shaderStage(of: source, options: options) {
        case .success(let found): stage = found
        case .failure(let error): return .failure(error)
        }
        if let problem = macroProblem(options.preprocessorMacros) {
            return .failure(.compilationFailed(name: name, messages: [problem]))
        }
        guard processReady else {
            return .failure(.compilationFailed(name: name, messages: ["glslang could not initialize"]))
        }
        return source.withCString { code in
            preamble(options.preprocessorMacros).withCString { preamble in
                run(code: code, preamble: preamble, stage: stage, options: options)
            }
        }
    }

    /// The glslang calls for one compile; every object made is deleted before returning.
    private static func run(code: UnsafePointer<CChar>, preamble: UnsafePointer<CChar>, stage: FunctionType,
                            options: CompileValues) -> Outcome {
        let name = options.functionName
        let messages = glslang_messages_t(GLSLANG_MSG_SPV_RULES_BIT.rawValue | GLSLANG_MSG_VULKAN_RULES_BIT.rawValue)
        var input = glslang_input_t()
        input.language = GLSLANG_SOURCE_GLSL
        input.stage = stage.glslangStage
        input.client = GLSLANG_CLIENT_VULKAN
        input.client_version = GLSLANG_TARGET_VULKAN_1_2
        input.target_language = GLSLANG_TARGET_SPV
        input.target_language_version = GLSLANG_TARGET_SPV_1_5
        input.code = code
        input.default_version = 450
        input.default_profile = GLSLANG_NO_PROFILE
        input.messages = messages
        input.resource = glslang_default_resource()

        guard let shader = glslang_shader_create(&input) else {
            return .failure(.compilationFailed(name: name, messages: ["glslang could not make a shader object"]))
        }
        defer { glslang_shader_delete(shader) }
        glslang_shader_set_preamble(shader, preamble)
        guard glslang_shader_preprocess(shader, &input) != 0, glslang_shader_parse(shader, &input) != 0 else {
            return .failure(.compilationFailed(name: name, messages: errorLines(glslang_shader_get_info_log(shader))))
        }
        guard let program = glslang_program_create() else {
            return .failure(.compilationFailed(name: name, messages: ["glslang could not make a program object"]))
        }
        defer { glslang_program_delete(program) }
        glslang_program_add_shader(program, shader)
        guard glslang_program_link(program, Int32(messages.rawValue)) != 0 else {
            return .failure(.compilationFailed(name: name, messages: errorLines(glslang_program_get_info_log(program))))
        }
        var spvOptions = glslang_spv_options_t()
        spvOptions.disable_optimizer = !options.optimizationEnabled
        glslang_program_SPIRV_generate_with_options(program, input.stage, &spvOptions)
        let count = glslang_program_SPIRV_get_size(program)
        guard count > 0, let words = glslang_program_SPIRV_get_ptr(program) else {
            let log = errorLines(glslang_program_SPIRV_get_messages(program))
            return .failure(.compilationFailed(name: name, messages: log.isEmpty ? ["glslang produced no SPIR-V"] : log))
        }
        return .success(Array(UnsafeBufferPointer(start: words, count: count)))
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
    static func errorLines(_ log: UnsafePointer<CChar>?) -> [String] {
        guard let log else { return [] }
        return String(cString: log).split(separator: "\n").compactMap { line -> String? in
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
