import CSPIRVTools

/// SPIRV-Tools' validator, run on every module before any driver call: drivers assume valid
/// SPIR-V, and a malformed module can crash one inside pipeline creation. The build runs it
/// too (the `spirv-stamp` tool of the SPIRVCompiler plugin), so that a module it passed is
/// not validated again at run time (see ``ValidationStamp``).
package enum SPIRVValidator {
    /// The environment modules are validated for: Vulkan 1.3, SwiftGPU's minimum.
    package static let environment = "vulkan1.3"

    /// The validator's own version, as SPIRV-Tools names it.
    package static var version: String { String(cString: spvSoftwareVersionString()) }

    /// Why `words` is not a valid module for Vulkan 1.3, as the validator says it with the
    /// word where it found the fault; nil when it is valid. Blocks may be laid out by the
    /// scalar rules unless `scalarBlockLayout` is false: a device that lacks the feature
    /// refuses such a module when a pipeline is made of it (it is valid SPIR-V, for a
    /// device with the feature).
    package static func problem(in words: [UInt32], scalarBlockLayout: Bool = true) -> String? {
        guard let context = spvContextCreate(SPV_ENV_VULKAN_1_3) else { return "the SPIR-V validator could not start" }
        defer { spvContextDestroy(context) }
        guard let options = spvValidatorOptionsCreate() else { return "the SPIR-V validator could not start" }
        defer { spvValidatorOptionsDestroy(options) }
        spvValidatorOptionsSetScalarBlockLayout(options, scalarBlockLayout)
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
        let message = trimmed(String(cString: error))
        return "word \(diagnostic.position.index): \(message)"
    }

    /// `text` without the white space at either end.
    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[first...last])
    }
}
