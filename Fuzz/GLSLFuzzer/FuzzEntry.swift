// libFuzzer entry for run-time GLSL compilation: the app's side of
// `Device.makeLibrary(source:options:)` (includes, stage, macros, the source bound, the
// compiler process's protocol) and, in the compiler process, glslang under its limits.
// Built by scripts/fuzz.sh --glsl with SwiftGPUSupport and the GPU module's compile files;
// the fuzzer's own executable, started again, is the compiler process.
//
// Each input is a source: its first byte picks the stage and whether macros and the
// optimizer are on, the rest is the GLSL. Any LibraryError is an expected answer; a trap,
// an out-of-bounds access, a compile that outlasts its limit by more than the time to stop
// it, or a module that is not SPIR-V is a finding.
import Glibc

/// The include folder: a header that includes another, and one that includes itself.
private let includeFolder: String = {
    var template = Array("/tmp/swiftgpu-glsl-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    let folder = String(cString: made)
    let headers = ["a.glsl": "#include \"b.glsl\"\n#define FROM_A 1\n", "b.glsl": "float fromB() { return 1.0; }\n",
                   "self.glsl": "#include \"self.glsl\"\n"]
    for (name, text) in headers {
        let file = fopen(folder + "/" + name, "w")
        fputs(text, file)
        fclose(file)
    }
    return folder
}()

/// Bounds small enough that a hostile input costs little, so the fuzzer keeps its pace.
private func values(for flags: UInt8) -> CompileValues {
    let stages: [FunctionType?] = [nil, .vertex, .fragment, .kernel]
    return CompileValues(
        preprocessorMacros: flags & 4 != 0 ? ["SIZE": "4", "EMPTY": ""] : [:], functionType: stages[Int(flags & 3)],
        functionName: "main", optimizationEnabled: flags & 8 != 0, includeFolders: [includeFolder],
        limits: CompileLimits(time: .seconds(2), memory: 256 << 20, stack: 4 << 20, sourceLength: 64 << 10,
                              moduleLength: 256 << 10))
}

/// Compiles one input and checks the answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let options = values(for: data[0])
    let source = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let clock = ContinuousClock()
    let start = clock.now
    let outcome = GLSLCompiler.compile(source, options: options)
    // The limit, and the time to stop a process and start the next.
    guard clock.now - start < options.limits.time + .seconds(3) else {
        fatalError("a compile took \(clock.now - start), over its limit of \(options.limits.time)")
    }
    if case .success(let words) = outcome {
        guard words.first == 0x0723_0203, words.count <= options.limits.moduleLength / 4 else {
            fatalError("the compile answered \(words.count) words that are not a SPIR-V module within the bound")
        }
    }
    return 0
}
