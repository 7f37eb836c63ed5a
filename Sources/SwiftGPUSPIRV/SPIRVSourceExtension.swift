/// Writing an `OpSourceExtension` into a module: text a compiler keeps with the module,
/// which drivers ignore and SwiftGPU's reader returns (``SPIRVModule/sourceExtensions``).
package enum SPIRVSourceExtension {
    /// The longest text one instruction holds: 65,535 words, less the opcode word and the
    /// terminating zero byte.
    package static let maximumLength = (Int(UInt16.max) - 1) * 4 - 1

    /// `words` with an `OpSourceExtension` of `text` added where the debug section begins
    /// (after the capabilities, extensions, memory model, entry points and execution
    /// modes, which SPIR-V's logical layout puts first), or nil when `text` holds a zero
    /// byte or is longer than ``maximumLength`` bytes, or `words` is not a module whose
    /// instructions can be walked.
    package static func inserting(_ text: String, into words: [UInt32]) -> [UInt32]? {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength, !bytes.contains(0), words.count >= 5 else { return nil }
        let before: Set<UInt32> = [SPIRVOp.capability, SPIRVOp.extension, SPIRVOp.extInstImport, SPIRVOp.memoryModel,
                                   SPIRVOp.entryPoint, SPIRVOp.executionMode, SPIRVOp.executionModeId]
        var index = 5
        while index < words.count, before.contains(words[index] & 0xFFFF) {
            let count = Int(words[index] >> 16)
            guard count > 0, count <= words.count - index else { return nil }
            index += count
        }
        // The string's bytes, little end first in each word, then at least one zero byte.
        var operand = [UInt32](repeating: 0, count: bytes.count / 4 + 1)
        for (position, byte) in bytes.enumerated() {
            operand[position / 4] |= UInt32(byte) << UInt32(8 * (position % 4))
        }
        let instruction = [UInt32(operand.count + 1) << 16 | SPIRVOp.sourceExtension] + operand
        return Array(words[..<index]) + instruction + Array(words[index...])
    }
}
