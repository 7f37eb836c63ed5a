import CStampKeys

extension ValidationStamp {
    /// The keys of the stamps this executable's build made: one for each target whose
    /// shaders the SPIRVCompiler plugin compiled, read from the executable's
    /// `swiftgpu_stamp_keys` section. None where no target built shaders, or where
    /// SwiftGPU is a shared library of its own (the section is the executable's): every
    /// module is then validated at run time.
    package static let buildKeys: [StampKey] = {
        var size = 0
        guard let start = swiftgpu_stamp_keys(&size) else { return [] }
        let bytes = UnsafeRawBufferPointer(start: start, count: size)
        return stride(from: 0, to: size - size % 16, by: 16).map { offset in
            StampKey(k0: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                     k1: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        }
    }()
}
