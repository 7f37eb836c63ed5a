/// The record the build leaves beside a module that SPIRV-Tools' validator passed:
/// `add.comp.spv` gets `add.comp.spv.valid`, one line naming the validator, its version,
/// the environment and the module's size and FNV-1a hash.
///
/// A library made from a bundle skips the validator for a module whose stamp matches it
/// exactly; any other module, a stamp from another validator version, and a module changed
/// after the build are validated at run time as before. The stamp guards against accidents
/// (a file replaced or damaged after the build), not against someone forging one: who can
/// write the bundle can write the executable.
package enum ValidationStamp {
    /// The file extension of a stamp, added to its module's file name.
    package static let fileExtension = ".valid"

    /// The stamp for a module of `bytes` that the validator of this build passed.
    package static func make(for bytes: UnsafeRawBufferPointer) -> String {
        "SPIRV-Tools \(SPIRVValidator.version); \(SPIRVValidator.environment); \(bytes.count) bytes; fnv1a64 \(hex(hash(bytes)))\n"
    }

    /// Whether `stamp` (a stamp file's bytes) says that this build's validator passed a
    /// module of exactly `bytes`.
    package static func matches(_ stamp: [UInt8], module bytes: UnsafeRawBufferPointer) -> Bool {
        stamp.elementsEqual(make(for: bytes).utf8)
    }

    /// 64-bit FNV-1a of `bytes`.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return value
    }

    /// `value` as 16 lowercase hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
