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
        guard !shaders.isEmpty else { return [] }

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
        return [key] + shaders.flatMap { shader -> [Command] in
            let input = shader.url
            let output = outputDirectory.appending(path: input.lastPathComponent + ".spv")
            let stampFile = outputDirectory.appending(path: input.lastPathComponent + ".spv.valid")
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
                .buildCommand(
                    displayName: "Validating \(output.lastPathComponent)",
                    executable: stamp,
                    arguments: [keySource.path(percentEncoded: false), output.path(percentEncoded: false),
                                stampFile.path(percentEncoded: false)],
                    inputFiles: [keySource, output, stamp],
                    outputFiles: [stampFile]
                ),
            ]
        }
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
