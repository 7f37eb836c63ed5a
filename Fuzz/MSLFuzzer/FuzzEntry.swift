// libFuzzer entry for SwiftGPU's Metal Shading Language front end: preprocessor, parser,
// type checking and the translation to GLSL. Built with the MetalShadingLanguage sources as
// one module by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address).
//
// Each input is a source and, after its first NUL byte, the text every `#include "name"`
// reads, as `makeLibrary(source:options:)` and the SPIRVCompiler plugin give them. A
// diagnostic is the expected answer to bad input; a trap, an out-of-bounds access, a leak
// or an empty translation is a finding, as is an entry point's notes that do not read back
// from their text. The whole input is also read as notes text (`FunctionNotes`), which a
// library reads from any module: an error is the expected answer there.

/// Compiles one input with a header reader that answers every quoted include with the
/// input's second part (or "not found" when it has none).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0)
    let source = String(decoding: bytes[..<(split ?? bytes.endIndex)], as: UTF8.self)
    let header = split.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
    _ = try? FunctionNotes(text: String(decoding: bytes, as: UTF8.self))
    let result = MetalCompiler.compile(source, file: "fuzz.metal", macros: ["FUZZ": "1"]) { name in
        header.map { .found(text: $0, file: name) } ?? .notFound
    }
    switch result {
    case .success(let entries):
        for entry in entries where !entry.glsl.hasPrefix("#version 450\n") || !entry.glsl.contains("void main()") {
            fatalError("\(entry.name): a translation without a GLSL 450 main")
        }
        for entry in entries where (try? FunctionNotes(text: entry.notes.text)) != entry.notes {
            fatalError("\(entry.name): notes that do not read back from their text: \(entry.notes.text)")
        }
    case .failure(let diagnostic):
        if diagnostic.message.isEmpty || diagnostic.location.line < 1 || diagnostic.location.column < 1 {
            fatalError("a diagnostic without a message or a place: \(diagnostic)")
        }
    }
    return 0
}
