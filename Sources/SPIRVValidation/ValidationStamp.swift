/// The record the build leaves beside a module that SPIRV-Tools' validator passed:
/// `add.comp.spv` gets `add.comp.spv.valid`, one line naming the validator, its version,
/// the environment, the module's size and its SipHash-2-4 (128-bit) under the build's
/// secret key.
///
/// A library skips the validator for a module whose stamp matches it under one of the keys
/// the executable holds (`buildKeys`, which the SPIRVCompiler plugin's generated source
/// put there), and only where the app trusts the folder (its bundles, or a library it
/// asked to trust stamps for); any other module, a stamp from another validator version,
/// another key, or a module changed after the build is validated at run time. What the key
/// stops is a stamp forged by whoever can write a module but not read the executable (a
/// module downloaded into a cache folder); whoever can read the executable has the key.
package enum ValidationStamp {
    /// The file extension of a stamp, added to its module's file name.
    package static let fileExtension = ".valid"

    /// The stamp for a module of `bytes` that the validator of this build passed, made
    /// with `key`.
    package static func make(for bytes: UnsafeRawBufferPointer, key: StampKey) -> String {
        "SPIRV-Tools \(SPIRVValidator.version); \(SPIRVValidator.environment); \(bytes.count) bytes; "
            + "siphash128 \(StampKey.hex(key.mac(bytes)))\n"
    }

    /// Whether `stamp` (a stamp file's bytes) says that this build's validator passed a
    /// module of exactly `bytes`, under one of `keys`.
    package static func matches(_ stamp: [UInt8], module bytes: UnsafeRawBufferPointer, keys: [StampKey]) -> Bool {
        // A stamp is one short line: anything longer is no stamp, and is not hashed.
        guard stamp.count < 256 else { return false }
        return keys.contains { stamp.elementsEqual(make(for: bytes, key: $0).utf8) }
    }
}
