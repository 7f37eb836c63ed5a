import Foundation
import PackagePlugin

/// A build-tool plugin that compiles the GLSL shaders of a target to SPIR-V with `glslc`
/// and validates them with SPIRV-Tools.
///
/// A target with shaders first gets its stamp key (`spirv-stamp` is a tool of this package):
///
///     spirv-stamp key <pluginWorkDirectory>/ShaderStampKey.swift
///
/// a random 128-bit key, made once and kept in that Swift source, which the target compiles
/// and which places the key in the executable (no other output: SwiftPM would copy any
/// other file a command makes into the resource bundle, beside the stamps). Then every file of the target
/// whose extension names a shader stage (`vert`, `frag`, `comp`, `geom`, `tesc`, `tese`)
/// gets two build commands:
///
///     glslc --target-env=vulkan1.2 -O -o <pluginWorkDirectory>/<file>.spv <file>
///     spirv-stamp <pluginWorkDirectory>/ShaderStampKey.swift <pluginWorkDirectory>/<file>.spv <pluginWorkDirectory>/<file>.spv.valid
///
/// so `add.comp` becomes `add.comp.spv`, and `spirv-stamp` validates it as SwiftGPU
/// validates every module before a driver sees it: an invalid module fails the build with
/// the validator's message, a valid one gets the stamp `add.comp.spv.valid` (a keyed hash of
/// the module), and a library made from the app's bundle does not validate it again at run
/// time. SwiftPM treats the modules and stamps as resources of the target, so they are
/// copied into its resource bundle and can be found through `Bundle.module`; the key stays
/// out of the bundle.
///
/// A Metal Shading Language file (`.metal`) gives a module for each of its entry points:
/// the plugin reads the file for `kernel`, `vertex` and `fragment` functions and runs
///
///     msl-compile <glslc> <file> <pluginWorkDirectory> -I <file's folder> -I <target folder> [-L <other .metal file>]... <name>.<stage>...
///
/// (each `-L` another `.metal` file of the target, whose definitions the file's
/// declarations may name, as Metal's build links a target's files into one library),
/// which translates them with SwiftGPU's front end and compiles each with glslc, as
/// `<name>.comp.spv`, `<name>.vert.spv` or `<name>.frag.spv` (found as `<name>`), then stamps
/// each as above.
@main
struct SPIRVCompiler: BuildToolPlugin {
    /// File extensions that `glslc` maps to a shader stage on its own.
    static let stageExtensions: Set<String> = ["vert", "frag", "comp", "geom", "tesc", "tese"]

    /// Creates one `glslc` command for each GLSL shader in `target`.
    ///
    /// - Throws: `SPIRVCompilerError` if the target has shaders but `glslc` cannot be found.
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let shaders = module.sourceFiles.filter {
            Self.stageExtensions.contains($0.url.pathExtension)
        }
        let metalFiles = module.sourceFiles.filter { $0.url.pathExtension == "metal" }
        guard !shaders.isEmpty || !metalFiles.isEmpty else { return [] }

        let glslc = try Self.findGLSLC(context: context)
        let stamp = try context.tool(named: "spirv-stamp").url
        let outputDirectory = context.pluginWorkDirectoryURL
        let keySource = outputDirectory.appending(path: "ShaderStampKey.swift")
        let key = Command.buildCommand(
            displayName: "Making the shader stamp key of \(target.name)",
            executable: stamp,
            arguments: ["key", keySource.path(percentEncoded: false)],
            inputFiles: [stamp],
            outputFiles: [keySource]
        )
        func stampCommand(_ output: URL) -> Command {
            let stampFile = outputDirectory.appending(path: output.lastPathComponent + ".valid")
            return .buildCommand(
                displayName: "Validating \(output.lastPathComponent)",
                executable: stamp,
                arguments: [keySource.path(percentEncoded: false), output.path(percentEncoded: false),
                            stampFile.path(percentEncoded: false)],
                inputFiles: [keySource, output, stamp],
                outputFiles: [stampFile]
            )
        }
        let glslCommands = shaders.flatMap { shader -> [Command] in
            let input = shader.url
            let output = outputDirectory.appending(path: input.lastPathComponent + ".spv")
            return [
                .buildCommand(
                    displayName: "Compiling \(input.lastPathComponent) to SPIR-V",
                    executable: glslc,
                    arguments: [
                        "--target-env=vulkan1.2", "-O",
                        "-o", output.path(percentEncoded: false),
                        input.path(percentEncoded: false),
                    ],
                    inputFiles: [input],
                    outputFiles: [output]
                ),
                stampCommand(output),
            ]
        }
        var metalCommands: [Command] = []
        if !metalFiles.isEmpty {
            let translator = try context.tool(named: "msl-compile").url
            for file in metalFiles {
                let input = file.url
                let entryPoints = try Self.entryPoints(in: String(contentsOf: input, encoding: .utf8))
                guard !entryPoints.isEmpty else { continue }
                let outputs = entryPoints.map { outputDirectory.appending(path: $0 + ".spv") }
                // The target's other .metal files, whose definitions this file may call.
                let others = metalFiles.map(\.url).filter { $0 != input }
                metalCommands.append(.buildCommand(
                    displayName: "Compiling \(input.lastPathComponent) to SPIR-V",
                    executable: translator,
                    arguments: [glslc.path(percentEncoded: false), input.path(percentEncoded: false),
                                outputDirectory.path(percentEncoded: false),
                                "-I", input.deletingLastPathComponent().path(percentEncoded: false),
                                "-I", module.directoryURL.path(percentEncoded: false)]
                        + others.flatMap { ["-L", $0.path(percentEncoded: false)] } + entryPoints,
                    inputFiles: [input, translator] + others,
                    outputFiles: outputs
                ))
                metalCommands += outputs.map(stampCommand)
            }
        }
        return [key] + glslCommands + metalCommands
    }

    /// The entry points of Metal Shading Language `source` as `<name>.<stage>` (`comp`,
    /// `vert`, `frag`): each `kernel`, `vertex` or `fragment` qualifier outside comments
    /// that a return type, a name and `(` follow. The front end checks the list against what
    /// it finds after preprocessing.
    static func entryPoints(in source: String) -> [String] {
        var tokens: [String] = []
        var characters = Substring(source)
        while let first = characters.first {
            if characters.hasPrefix("//") {
                characters = characters.drop { $0 != "\n" }
            } else if characters.hasPrefix("/*") {
                characters = characters.dropFirst(2)
                while !characters.isEmpty && !characters.hasPrefix("*/") { characters = characters.dropFirst() }
                characters = characters.dropFirst(2)
            } else if first.isLetter || first == "_" {
                let name = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                tokens.append(String(name))
                characters = characters.dropFirst(name.count)
            } else {
                if !first.isWhitespace { tokens.append(String(first)) }
                characters = characters.dropFirst()
            }
        }
        let stages = ["kernel": "comp", "vertex": "vert", "fragment": "frag"]
        var entries: [String] = []
        for (index, token) in tokens.enumerated() {
            guard let stage = stages[token], index == 0 || ![".", ">", "[", "-"].contains(tokens[index - 1]) else { continue }
            var end = index + 1
            while end < tokens.count, !["(", ";", "{", "}", "="].contains(tokens[end]) { end += 1 }
            guard end < tokens.count, tokens[end] == "(", end - 1 > index + 1,
                  let name = tokens[end - 1].first, name.isLetter || name == "_" else { continue }
            entries.append("\(tokens[end - 1]).\(stage)")
        }
        return entries
    }

    /// Locates `glslc`: the `GLSLC` environment variable if set and non-empty, else the first
    /// executable `glslc` in a `PATH` directory, else a `glslc` shipped with the toolchain.
    ///
    /// - Throws: `SPIRVCompilerError` if `GLSLC` is not executable or no `glslc` is found.
    static func findGLSLC(context: PluginContext) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let fileManager = FileManager.default

        if let override = environment["GLSLC"], !override.isEmpty {
            guard fileManager.isExecutableFile(atPath: override) else {
                throw SPIRVCompilerError.notExecutable(override)
            }
            return URL(filePath: override)
        }

        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: "glslc")
            if fileManager.isExecutableFile(atPath: candidate.path(percentEncoded: false)) {
                return candidate
            }
        }

        if let tool = try? context.tool(named: "glslc") {
            return tool.url
        }
        throw SPIRVCompilerError.notFound
    }
}

/// Why the SPIRVCompiler plugin could not set up the shader build.
enum SPIRVCompilerError: Error, CustomStringConvertible {
    /// The `GLSLC` environment variable names a path that is not an executable file.
    case notExecutable(String)
    /// No `glslc` was found on `PATH` or in the toolchain.
    case notFound

    var description: String {
        switch self {
        case .notExecutable(let path):
            "SPIRVCompiler: GLSLC is set to '\(path)', which is not an executable file."
        case .notFound:
            "SPIRVCompiler: glslc not found on PATH (set GLSLC to its path). "
                + "On Debian/Ubuntu install it with: apt-get install glslc"
        }
    }
}
