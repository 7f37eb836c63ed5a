import Foundation
import CSPIRVTools

/// SPIRV-Tools' validator, run on every module before any driver call: drivers assume valid
/// SPIR-V, and a malformed module can crash one inside pipeline creation.
enum SPIRVValidator {
    /// Why `words` is not a valid module for Vulkan 1.3 (SwiftGPU's minimum), as the
    /// validator says it with the word where it found the fault; nil when it is valid.
    static func problem(in words: [UInt32]) -> String? {
        guard let context = spvContextCreate(SPV_ENV_VULKAN_1_3) else { return "the SPIR-V validator could not start" }
        defer { spvContextDestroy(context) }
        guard let options = spvValidatorOptionsCreate() else { return "the SPIR-V validator could not start" }
        defer { spvValidatorOptionsDestroy(options) }
        var diagnostic: spv_diagnostic?
        defer { spvDiagnosticDestroy(diagnostic) }
        let result = words.withUnsafeBufferPointer { words in
            var binary = spv_const_binary_t(code: words.baseAddress, wordCount: words.count)
            return spvValidateWithOptions(context, options, &binary, &diagnostic)
        }
        guard result != SPV_SUCCESS else { return nil }
        guard let diagnostic = diagnostic?.pointee, let error = diagnostic.error else {
            return "the SPIR-V validator rejected it (\(result.rawValue))"
        }
        let message = String(cString: error).trimmingCharacters(in: .whitespacesAndNewlines)
        return "word \(diagnostic.position.index): \(message)"
    }
}
