// The SPIRVCompiler plugin's step for Metal Shading Language: translates a `.metal` file's
// entry points with the MetalShadingLanguage front end and compiles each with glslc.
//
//     msl-compile <glslc> <file.metal> <output folder> [-I <folder>]... [-L <other.metal>]... <name>.<stage>...
//
// Each `<name>.<stage>` (stage `comp`, `vert` or `frag`) is an entry point the plugin found
// in the file and declared as the output `<output folder>/<name>.<stage>.spv`; the front
// end must find exactly those, or the build fails saying which differ. Errors are printed
// as `file:line:column: error: …`, which build logs and editors point at. Each `-L` file is
// another `.metal` file of the target: where the file calls a function it only declares,
// those files' definitions join it, as Metal's build links a target's files into one
// library. What a library
// sets up for a function beyond its SPIR-V (its `constexpr` samplers, its arguments under
// `[[function_constant]]`, its grid-size block) is written into the module as the text of
// an `OpSourceExtension` (the front end's `FunctionNotes`), which the library reads.
import Foundation
import MetalShadingLanguage
import SwiftGPUSPIRV

/// Fails the build with `message`.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    fail("usage: msl-compile <glslc> <file.metal> <output folder> [-I <folder>]... [-L <other.metal>]... <name>.<stage>...")
}
let glslc = arguments.removeFirst(), input = arguments.removeFirst(), outputFolder = arguments.removeFirst()
var includeFolders: [String] = []
var linkedFiles: [String] = []
var declared: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument == "-I", !arguments.isEmpty {
        includeFolders.append(arguments.removeFirst())
    } else if argument == "-L", !arguments.isEmpty {
        linkedFiles.append(arguments.removeFirst())
    } else {
        declared.append(argument)
    }
}

guard let source = try? String(contentsOfFile: input, encoding: .utf8) else { fail("\(input): error: cannot read the file") }
let linked = linkedFiles.map { file -> LinkedSource in
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { fail("\(file): error: cannot read the file") }
    return LinkedSource(text: text, file: file)
}
let translated: [TranslatedEntryPoint]
switch MetalCompiler.compile(source, file: input, linked: linked, readHeader: { name in
    for folder in includeFolders {
        let path = folder + "/" + name
        if let text = try? String(contentsOfFile: path, encoding: .utf8) { return .found(text: text, file: path) }
    }
    return .notFound
}) {
case .success(let entries): translated = entries
case .failure(let diagnostic): fail(diagnostic.description)
}

func stageExtension(_ stage: Stage) -> String {
    switch stage {
    case .kernel: "comp"
    case .vertex: "vert"
    case .fragment: "frag"
    }
}

let found = translated.map { "\($0.name).\(stageExtension($0.stage))" }
guard Set(found) == Set(declared) else {
    fail("\(input): error: SPIRVCompiler found the entry points \(declared.sorted().joined(separator: ", ")) in the file, "
        + "the Metal Shading Language front end \(found.sorted().joined(separator: ", ")); declare each entry point "
        + "on one line as `kernel void name(` (the plugin reads the file without its preprocessor)")
}
for (entry, name) in zip(translated, found) {
    let glsl = FileManager.default.temporaryDirectory.appending(path: "msl-compile-\(getpid())-\(name)")
    do {
        try entry.glsl.write(to: glsl, atomically: true, encoding: .utf8)
    } catch {
        fail("\(input): error: cannot write \(glsl.path): \(error)")
    }
    defer { try? FileManager.default.removeItem(at: glsl) }
    let output = outputFolder + "/" + name + ".spv"
    let process = Process()
    process.executableURL = URL(filePath: glslc)
    process.arguments = ["--target-env=vulkan1.2", "-O", "-fshader-stage=\(stageExtension(entry.stage))",
                         "-o", output, glsl.path]
    let errors = Pipe()
    process.standardError = errors
    do {
        try process.run()
    } catch {
        fail("\(input): error: cannot run glslc at \(glslc): \(error)")
    }
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fail("\(input): error: internal error: the GLSL translation of '\(entry.name)' did not compile "
            + "(a front-end bug; please report it):\n\(message)\n\(entry.glsl)")
    }
    let notes = entry.notes
    guard !notes.isEmpty else { continue }
    // What the library sets up beyond the module (constexpr samplers, arguments under
    // function constants, the grid-size block) travels in it, as run-time libraries keep it.
    guard let data = FileManager.default.contents(atPath: output), data.count % 4 == 0 else {
        fail("\(input): error: cannot read glslc's module \(output)")
    }
    let words = data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    guard let noted = SPIRVSourceExtension.inserting(notes.text, into: words) else {
        fail("\(input): error: internal error: the notes of '\(entry.name)' do not fit its module (a front-end bug; please report it)")
    }
    do {
        try noted.withUnsafeBytes { Data($0) }.write(to: URL(filePath: output))
    } catch {
        fail("\(input): error: cannot write \(output): \(error)")
    }
}
