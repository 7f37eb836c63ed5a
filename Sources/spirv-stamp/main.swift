// spirv-stamp INPUT.spv OUTPUT.valid
//
// The SPIRVCompiler plugin's second step for each shader: validates the module glslc wrote
// with SPIRV-Tools, as SwiftGPU does before any driver call, and writes its stamp (see
// `ValidationStamp`) so that the library made from the bundle does not validate it again.
// An invalid module fails the build with the validator's message.
import Glibc
import SPIRVValidation
import SwiftGPUSPIRV
import SwiftGPUSupport

/// Writes `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    var text = message + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: spirv-stamp INPUT.spv OUTPUT.valid") }
let (input, output) = (arguments[1], arguments[2])
guard let bytes = fileContents(atPath: input) else { fail("error: \(input): cannot be read") }
let module: SPIRVModule
do {
    module = try SPIRVModule(bytes: bytes)
} catch {
    fail("error: \(input): not SPIR-V: \(error.reason)")
}
if let problem = SPIRVValidator.problem(in: module.words) {
    fail("error: \(input): invalid SPIR-V for \(SPIRVValidator.environment): \(problem)")
}
do {
    try writeFileAtomically(Array(bytes.withUnsafeBytes { ValidationStamp.make(for: $0) }.utf8), toPath: output)
} catch {
    fail("error: \(output): \(error)")
}
