// SPIR-V reflection: a small parser that reads just enough of a SPIR-V module
// to describe its entry points, descriptor bindings, vertex inputs, fragment
// outputs, workgroup sizes and push-constant sizes.
//
// Written from the Khronos SPIR-V specification (unified, section 3 for the
// enumerants and section 3.42 for the instructions). Pure Swift, no C or Vulkan
// dependency. Every read is bounds-checked and every size computation
// saturates, so arbitrary input either parses or throws `SPIRVParseError`.

/// A parsed SPIR-V module.
package struct SPIRVModule: Sendable {
    /// The module's words, normalised to host endianness.
    package var words: [UInt32]
    /// The vertex, fragment and compute entry points, in declaration order.
    package var entryPoints: [SPIRVEntryPoint]
    /// The byte size of each uniform block in set 0, by binding.
    package var uniformBlockSizes: [UInt32: Int]
    /// The entry points of other execution models (geometry, tessellation, kernels, ...),
    /// which `entryPoints` leaves out: their names and models, to say why they cannot run.
    package var otherEntryPoints: [(name: String, executionModel: String)]
    /// The scalar specialization constants with a `SpecId`, sorted by it, for every entry
    /// point of the module (the local size's among them).
    package var specializationConstants: [SPIRVSpecializationConstant]
    /// The text of each `OpSourceExtension`, in order: where a compiler notes what the
    /// module was made from (see ``SPIRVSourceExtension``).
    package var sourceExtensions: [String]

    /// Parses a SPIR-V binary. Accepts either endianness of the magic number.
    package init(bytes: some Collection<UInt8>) throws(SPIRVParseError) {
        let byteCount = bytes.count
        guard byteCount % 4 == 0 else {
            throw SPIRVParseError(reason: "length \(byteCount) is not a multiple of 4")
        }
        #if _endian(little)
        // Contiguous bytes (`Data`, arrays) are the words as they are on a little-endian host:
        // copied at once, where iterating them byte by byte cost more than parsing the module.
        if let words = bytes.withContiguousStorageIfAvailable({ buffer in
            [UInt32](unsafeUninitializedCapacity: byteCount / 4) { words, count in
                UnsafeMutableRawBufferPointer(words).copyMemory(from: UnsafeRawBufferPointer(buffer))
                count = byteCount / 4
            }
        }) {
            try self.init(words: words)
            return
        }
        #endif
        var words: [UInt32] = []
        words.reserveCapacity(byteCount / 4)
        var iterator = bytes.makeIterator()
        // Assemble little-endian words; `init(words:)` swaps them all when the
        // magic number shows the module is big-endian.
        while let b0 = iterator.next(), let b1 = iterator.next(),
              let b2 = iterator.next(), let b3 = iterator.next() {
            words.append(UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24)
        }
        try self.init(words: words)
    }

    /// Parses a SPIR-V module given as words. A byte-swapped magic number
    /// makes every word be byte-swapped first.
    package init(words: [UInt32]) throws(SPIRVParseError) {
        var words = words
        guard let first = words.first else {
            throw SPIRVParseError(reason: "module is empty")
        }
        if first != spirvMagic {
            guard first.byteSwapped == spirvMagic else {
                throw SPIRVParseError(
                    reason: "bad magic number \(spirvHex(first)) (expected \(spirvHex(spirvMagic)))")
            }
            for index in words.indices { words[index] = words[index].byteSwapped }
        }
        guard words.count >= 5 else {
            throw SPIRVParseError(
                reason: "module has \(words.count) words, fewer than the 5-word header")
        }
        var parser = SPIRVParser(words: words)
        try parser.parse()
        var reflector = SPIRVReflector(parser)
        self.words = words
        self.entryPoints = reflector.entryPoints()
        self.uniformBlockSizes = reflector.uniformBlockSizes()
        self.otherEntryPoints = reflector.otherEntryPoints()
        self.specializationConstants = reflector.specializationConstants()
        self.sourceExtensions = parser.sourceExtensions
    }

    /// The first entry point with the given name (and stage, when given).
    package func entryPoint(named name: String, stage: ShaderStage? = nil) -> SPIRVEntryPoint? {
        entryPoints.first { $0.name == name && (stage == nil || $0.stage == stage) }
    }
}

/// Why a byte string is not usable SPIR-V.
package struct SPIRVParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `"length 13 is not a multiple of 4"`.
    package var reason: String
    /// `"not a SPIR-V module: "` followed by the reason.
    package var description: String { "not a SPIR-V module: \(reason)" }
}

/// Formats a word as `0x` followed by eight lowercase hex digits.
private func spirvHex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
