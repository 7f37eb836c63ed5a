import Foundation
import Testing
@testable import SwiftGPUSPIRV

@Suite("SPIR-V reflection")
struct SPIRVReflectionTests {
    // MARK: Helpers

    /// The module's words as bytes, little-endian unless `bigEndian`.
    static func bytes(_ words: [UInt32], bigEndian: Bool = false) -> [UInt8] {
        words.flatMap { word -> [UInt8] in
            let le = [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
            return bigEndian ? le.reversed() : le
        }
    }

    /// Start index, word count and opcode of every instruction of a valid module.
    static func instructions(_ words: [UInt32]) -> [(start: Int, count: Int, opcode: UInt32)] {
        var result: [(start: Int, count: Int, opcode: UInt32)] = []
        var index = 5
        while index < words.count {
            let count = Int(words[index] >> 16)
            result.append((index, count, words[index] & 0xFFFF))
            index += max(count, 1)
        }
        return result
    }

    /// The single entry point of a fixture.
    static func onlyEntryPoint(_ words: [UInt32]) throws -> SPIRVEntryPoint {
        let module = try SPIRVModule(words: words)
        try #require(module.entryPoints.count == 1)
        return module.entryPoints[0]
    }

    /// Deterministic xorshift64* generator, so the fuzz inputs are the same on every run.
    struct XorShift: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    // MARK: Compute

    @Test("compute: storage buffers, uniform block, names, read-only, local size")
    func computeBuffers() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.computeBuffers)
        #expect(entry.name == "main")
        #expect(entry.stage == .compute)
        let size = try #require(entry.localSize)
        #expect((size.x, size.y, size.z) == (64, 1, 1))
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 0, kind: .storageBuffer, count: 1, name: "src", isReadOnly: true),
            SPIRVBinding(set: 0, binding: 1, kind: .storageBuffer, count: 1, name: "dst", isReadOnly: false),
            // Anonymous block: the variable's OpName is "", so the block's type name is used.
            SPIRVBinding(set: 0, binding: 3, kind: .uniformBuffer, count: 1, name: "Params", isReadOnly: true),
        ])
        #expect(entry.inputs.isEmpty)  // gl_GlobalInvocationID is a built-in
        #expect(entry.outputs.isEmpty)
        #expect(entry.pushConstantSize == 0)
    }

    @Test("buffer references: physical storage buffer pointers (a forward pointer, a block that points to itself) reflect; a block holding one is 12 bytes and moves to push constants")
    func bufferReferences() throws {
        let module = try SPIRVModule(words: SPIRVFixtures.bufferReferences)
        try #require(module.entryPoints.count == 1)
        let entry = module.entryPoints[0]
        #expect(entry.bindings == [
            // -O drops the names.
            SPIRVBinding(set: 0, binding: 0, kind: .uniformBuffer, count: 1, name: "", isReadOnly: true),
            SPIRVBinding(set: 0, binding: 1, kind: .storageBuffer, count: 1, name: "", isReadOnly: false),
        ])
        // The 8-byte pointer at 0, the count at 8.
        #expect(module.uniformBlockSizes == [0: 12])
        let moved = try #require(SPIRVModule.movingUniformBlock(in: module.words, atBinding: 0, toPushConstantOffset: 0))
        let rewritten = try SPIRVModule(words: moved)
        #expect(rewritten.entryPoints[0].pushConstantSize == 12)
        #expect(rewritten.entryPoints[0].bindings.map(\.binding) == [1])
    }

    @Test("LocalSizeId resolves OpConstant ids (glslc --target-env=vulkan1.3)")
    func localSizeId() throws {
        // Make sure the fixture really uses OpExecutionModeId LocalSizeId (opcode 331, mode 38).
        let words = SPIRVFixtures.localSizeId
        let usesLocalSizeId = Self.instructions(words).contains { $0.opcode == 331 && words[$0.start + 2] == 38 }
        #expect(usesLocalSizeId)
        #expect(words[1] == 0x0001_0600)  // SPIR-V 1.6

        let entry = try Self.onlyEntryPoint(words)
        let size = try #require(entry.localSize)
        #expect((size.x, size.y, size.z) == (32, 1, 1))
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 0, kind: .storageBuffer, count: 1, name: "", isReadOnly: false),
        ])
    }

    @Test("BuiltIn WorkgroupSize constant overrides LocalSize; spec constants use their defaults")
    func specConstantWorkgroupSize() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.specWorkgroupSize)
        let size = try #require(entry.localSize)
        #expect((size.x, size.y, size.z) == (1, 4, 1))

        // Change the default of the spec constant (OpSpecConstant, opcode 50) to 16.
        // LocalSize still says 1 4 1, so 16 can only come from the WorkgroupSize composite.
        var words = SPIRVFixtures.specWorkgroupSize
        let specConstant = try #require(Self.instructions(words).first { $0.opcode == 50 })
        words[specConstant.start + 3] = 16
        let patched = try #require(try Self.onlyEntryPoint(words).localSize)
        #expect((patched.x, patched.y, patched.z) == (16, 4, 1))
    }

    @Test("local_size_x_id: the dimension set by a specialization constant carries its SpecId")
    func localSizeSpecIds() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.specWorkgroupSize)
        #expect(entry.localSizeSpecIds == [0, nil, nil])
        #expect(try Self.onlyEntryPoint(SPIRVFixtures.computeBuffers).localSizeSpecIds == [nil, nil, nil])
    }

    @Test("the fuzzer's regression inputs read and rewrite without a trap")
    func fuzzRegressions() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/SPIRVFuzzer/regressions").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            guard let module = try? SPIRVModule(bytes: bytes) else { continue }
            for binding in module.uniformBlockSizes.keys {
                for offset: UInt32 in [0, 16, 112] {
                    _ = SPIRVModule.movingUniformBlock(in: module.words, atBinding: binding, toPushConstantOffset: offset)
                }
            }
        }
    }

    @Test("push constants, descriptor arrays, separate sampler, writeonly storage image")
    func pushConstants() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.pushConstants)
        #expect(entry.pushConstantSize == 16)
        let size = try #require(entry.localSize)
        #expect((size.x, size.y, size.z) == (8, 8, 1))
        #expect(entry.bindings == [
            SPIRVBinding(set: 1, binding: 0, kind: .sampledImage, count: 4, name: "", isReadOnly: true),
            SPIRVBinding(set: 1, binding: 1, kind: .sampler, count: 1, name: "", isReadOnly: true),
            SPIRVBinding(set: 1, binding: 2, kind: .storageImage, count: 1, name: "", isReadOnly: false),
        ])
    }

    @Test("push-constant size uses Offset, ArrayStride and MatrixStride")
    func pushConstantLayout() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.pushLayout)
        // mat3 at offset 32 with MatrixStride 16 ends at 32 + 3 * 16.
        #expect(entry.pushConstantSize == 80)
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 0, kind: .storageBuffer, count: 1, name: "", isReadOnly: false),
            SPIRVBinding(set: 0, binding: 1, kind: .storageImage, count: 1, name: "", isReadOnly: true),
        ])
    }

    @Test("SPIR-V 1.0 Uniform + BufferBlock is a storage buffer")
    func oldStyleBuffers() throws {
        #expect(SPIRVFixtures.oldStyleBuffers[1] == 0x0001_0000)
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.oldStyleBuffers)
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 0, kind: .storageBuffer, count: 1, name: "", isReadOnly: true),
            SPIRVBinding(set: 0, binding: 1, kind: .storageBuffer, count: 1, name: "", isReadOnly: false),
        ])
    }

    // MARK: Graphics

    @Test("vertex: inputs by location, uniform block, built-ins excluded")
    func vertex() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.vertex)
        #expect(entry.stage == .vertex)
        #expect(entry.localSize == nil)
        #expect(entry.inputs == [
            SPIRVInterfaceVariable(location: 0, componentType: .float32, componentCount: 3),
            SPIRVInterfaceVariable(location: 1, componentType: .float32, componentCount: 4),
        ])
        // vColor; gl_PerVertex (gl_Position) is a built-in block and is left out.
        #expect(entry.outputs == [
            SPIRVInterfaceVariable(location: 0, componentType: .float32, componentCount: 4),
        ])
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 0, kind: .uniformBuffer, count: 1, name: "", isReadOnly: true),
        ])
        #expect(entry.pushConstantSize == 0)
    }

    @Test("fragment: combined, separate texture and sampler, two outputs")
    func fragment() throws {
        let entry = try Self.onlyEntryPoint(SPIRVFixtures.fragment)
        #expect(entry.stage == .fragment)
        #expect(entry.localSize == nil)
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 0, kind: .combinedImageSampler, count: 1, name: "", isReadOnly: true),
            SPIRVBinding(set: 0, binding: 32, kind: .sampledImage, count: 1, name: "", isReadOnly: true),
            SPIRVBinding(set: 0, binding: 48, kind: .sampler, count: 1, name: "", isReadOnly: true),
        ])
        #expect(entry.outputs == [
            SPIRVInterfaceVariable(location: 0, componentType: .float32, componentCount: 4),
            SPIRVInterfaceVariable(location: 1, componentType: .float32, componentCount: 4),
        ])
        #expect(entry.inputs == [
            SPIRVInterfaceVariable(location: 0, componentType: .float32, componentCount: 2),
        ])
    }

    // MARK: Byte order and equality

    @Test("bytes of either endianness give the same module")
    func byteOrder() throws {
        let words = SPIRVFixtures.fragment
        let little = try SPIRVModule(bytes: Self.bytes(words))
        let big = try SPIRVModule(bytes: Self.bytes(words, bigEndian: true))
        let swappedWords = try SPIRVModule(words: words.map(\.byteSwapped))
        #expect(little.words == words)
        #expect(big.words == words)
        #expect(swappedWords.words == words)
        #expect(little.entryPoints == big.entryPoints)
        #expect(little.entryPoints == swappedWords.entryPoints)
        #expect(little.entryPoint(named: "main", stage: .fragment) != nil)
        #expect(little.entryPoint(named: "main", stage: .vertex) == nil)
    }

    @Test("contiguous bytes (an array, Data, an unaligned slice) read as iterated bytes do, in either byte order")
    func contiguousAndIteratedBytes() throws {
        for bigEndian in [false, true] {
            let bytes = Self.bytes(SPIRVFixtures.fragment, bigEndian: bigEndian)
            // A lazy map has no contiguous storage: the byte-by-byte path.
            let iterated = try SPIRVModule(bytes: bytes.lazy.map { $0 })
            #expect(iterated.words == SPIRVFixtures.fragment)
            // One byte in front puts the slice's words off their 4-byte alignment.
            let shifted = [0xAB] + bytes
            for module in [try SPIRVModule(bytes: bytes), try SPIRVModule(bytes: Data(bytes)),
                           try SPIRVModule(bytes: shifted[1...]), try SPIRVModule(bytes: Data(shifted).dropFirst())] {
                #expect(module.words == iterated.words)
                #expect(module.entryPoints == iterated.entryPoints)
            }
        }
        #expect(throws: SPIRVParseError.self) { try SPIRVModule(bytes: Data(Self.bytes(SPIRVFixtures.fragment).dropLast(2))) }
    }

    @Test("entry points are Hashable, including the local size")
    func entryPointHashable() throws {
        let a = try Self.onlyEntryPoint(SPIRVFixtures.computeBuffers)
        let b = try Self.onlyEntryPoint(SPIRVFixtures.computeBuffers)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        var c = a
        c.localSize = (x: 32, y: 1, z: 1)
        #expect(a != c)
        c.localSize = nil
        #expect(a != c)
    }

    // MARK: Errors

    @Test("empty input")
    func emptyInput() {
        #expect(throws: SPIRVParseError(reason: "module is empty")) {
            try SPIRVModule(bytes: [UInt8]())
        }
        #expect(throws: SPIRVParseError(reason: "module is empty")) {
            try SPIRVModule(words: [])
        }
    }

    @Test("length not a multiple of 4")
    func oddLength() {
        let error = #expect(throws: SPIRVParseError.self) {
            try SPIRVModule(bytes: [UInt8](repeating: 0, count: 13))
        }
        #expect(error?.reason == "length 13 is not a multiple of 4")
        #expect(error?.description == "not a SPIR-V module: length 13 is not a multiple of 4")
    }

    @Test("bad magic number")
    func badMagic() {
        var words = SPIRVFixtures.vertex
        words[0] = 0x1234_5678
        #expect(throws: SPIRVParseError(reason: "bad magic number 0x12345678 (expected 0x07230203)")) {
            try SPIRVModule(bytes: Self.bytes(words))
        }
    }

    @Test("header shorter than 5 words")
    func shortHeader() {
        for count in 1..<5 {
            #expect(throws: SPIRVParseError(reason: "module has \(count) words, fewer than the 5-word header")) {
                try SPIRVModule(words: Array(SPIRVFixtures.vertex.prefix(count)))
            }
        }
    }

    /// Fixtures by name, for parameterised tests with readable arguments.
    static let fixtures: [String: [UInt32]] = [
        "computeBuffers": SPIRVFixtures.computeBuffers,
        "localSizeId": SPIRVFixtures.localSizeId,
        "specWorkgroupSize": SPIRVFixtures.specWorkgroupSize,
        "vertex": SPIRVFixtures.vertex,
        "fragment": SPIRVFixtures.fragment,
        "pushConstants": SPIRVFixtures.pushConstants,
        "pushLayout": SPIRVFixtures.pushLayout,
        "oldStyleBuffers": SPIRVFixtures.oldStyleBuffers,
    ]

    @Test("truncated modules", arguments: [
        "computeBuffers", "localSizeId", "specWorkgroupSize", "vertex", "fragment",
        "pushConstants", "pushLayout", "oldStyleBuffers",
    ])
    func truncated(_ fixture: String) throws {
        let words = try #require(Self.fixtures[fixture])
        #expect(throws: SPIRVParseError.self) {
            try SPIRVModule(bytes: Self.bytes(Array(words.dropLast(4))))
        }
        #expect(throws: SPIRVParseError(reason: "missing OpMemoryModel")) {
            try SPIRVModule(bytes: Self.bytes(Array(words.prefix(5))))
        }
        // Every proper prefix fails: it is cut inside an instruction or a function,
        // before OpMemoryModel, before the first OpEntryPoint, or before the
        // OpFunction an entry point names.
        for count in 0..<words.count {
            #expect(throws: SPIRVParseError.self) { try SPIRVModule(words: Array(words.prefix(count))) }
        }
    }

    @Test("instruction with word count 0")
    func wordCountZero() {
        var words = SPIRVFixtures.computeBuffers
        words[5] = 0x0000_0011  // OpCapability with word count 0
        #expect(throws: SPIRVParseError(reason: "instruction at word 5 has word count 0")) {
            try SPIRVModule(words: words)
        }
    }

    @Test("instruction running past the end")
    func runsPastEnd() throws {
        var words = SPIRVFixtures.fragment
        let last = try #require(Self.instructions(words).last)
        words[last.start] = 0xFFFF_0000 | last.opcode
        #expect(throws: SPIRVParseError(
            reason: "instruction at word \(last.start) runs past the end of the module")) {
            try SPIRVModule(words: words)
        }
    }

    @Test("instruction too short for its opcode")
    func tooShort() throws {
        var words = SPIRVFixtures.vertex
        // Shrink the OpEntryPoint (opcode 15) to 2 words and pad with OpNops.
        let entry = try #require(Self.instructions(words).first { $0.opcode == 15 })
        words[entry.start] = 0x0002_000F
        for index in (entry.start + 2)..<(entry.start + entry.count) { words[index] = 0x0001_0000 }
        #expect(throws: SPIRVParseError(reason: "instruction at word \(entry.start) (opcode 15) is too short")) {
            try SPIRVModule(words: words)
        }
    }

    /// One instruction: word count and opcode, then the operands.
    static func instruction(_ opcode: UInt32, _ operands: [UInt32]) -> [UInt32] {
        [UInt32(operands.count + 1) << 16 | opcode] + operands
    }

    @Test("cyclic, huge, wide and deep type graphs terminate and saturate")
    func adversarialTypes() throws {
        let op = Self.instruction
        var words: [UInt32] = [0x0723_0203, 0x0001_0000, 0, 60_000, 0]
        words += op(17, [1])                                  // OpCapability Shader
        words += op(14, [0, 1])                               // OpMemoryModel Logical GLSL450
        words += op(15, [5, 1] + Self.main)                   // OpEntryPoint GLCompute %1 "main"
        words += op(16, [1, 17, 1, 1, 1])                     // OpExecutionMode %1 LocalSize 1 1 1
        words += op(71, [6, 6, 0xFFFF_FFFF])                  // OpDecorate %6 ArrayStride 0xffffffff
        words += op(71, [30, 34, 0])                          // OpDecorate %30 DescriptorSet 0
        words += op(71, [30, 33, 7])                          // OpDecorate %30 Binding 7
        words += op(19, [2])                                  // %2 = OpTypeVoid
        words += op(21, [3, 32, 0])                           // %3 = OpTypeInt 32 0
        words += op(21, [4, 64, 0])                           // %4 = OpTypeInt 64 0
        words += op(43, [4, 5, 0xFFFF_FFFF, 0xFFFF_FFFF])     // %5 = OpConstant %4 2^64 - 1
        words += op(28, [6, 3, 5])                            // %6 = OpTypeArray %3 %5
        words += op(28, [7, 6, 5])                            // %7 = OpTypeArray %6 %5
        words += op(30, [8, 7, 8, 9])                         // %8 = OpTypeStruct %7 %8 %9 (cyclic)
        words += op(30, [9, 8])                               // %9 = OpTypeStruct %8
        // %100...%139: each struct has 500 members of the next one.
        for id in UInt32(100)..<140 {
            words += op(30, [id] + Array(repeating: id + 1, count: 500))
        }
        // %1000...%50999: 50,000 structs, each wrapping the next (far deeper than any stack allows).
        for id in UInt32(1_000)..<51_000 {
            words += op(30, [id, id + 1])
        }
        words += op(32, [14, 9, 1_000])                       // %14 = OpTypePointer PushConstant %1000
        words += op(59, [14, 15, 9])                          // %15 = OpVariable %14 PushConstant
        words += op(32, [10, 9, 8])                           // %10 = OpTypePointer PushConstant %8
        words += op(59, [10, 11, 9])                          // %11 = OpVariable %10 PushConstant
        words += op(32, [12, 9, 100])                         // %12 = OpTypePointer PushConstant %100
        words += op(59, [12, 13, 9])                          // %13 = OpVariable %12 PushConstant
        words += op(26, [20])                                 // %20 = OpTypeSampler
        words += op(28, [21, 20, 5])                          // %21 = OpTypeArray %20 %5
        words += op(28, [22, 21, 5])                          // %22 = OpTypeArray %21 %5
        words += op(32, [23, 0, 22])                          // %23 = OpTypePointer UniformConstant %22
        words += op(59, [23, 30, 0])                          // %30 = OpVariable %23 UniformConstant
        words += op(33, [24, 2])                              // %24 = OpTypeFunction %2
        words += op(54, [2, 1, 0, 24])                        // %1 = OpFunction %2 None %24
        words += op(56, [])                                   // OpFunctionEnd

        let entry = try Self.onlyEntryPoint(words)
        #expect(entry.pushConstantSize == Int.max)
        #expect(entry.bindings == [
            SPIRVBinding(set: 0, binding: 7, kind: .sampler, count: .max, name: "", isReadOnly: true),
        ])
    }

    /// A literal string operand: UTF-8, nul-terminated, packed little-endian into words.
    static func literal(_ string: String) -> [UInt32] {
        let bytes = Array(string.utf8) + [0]
        return stride(from: 0, to: bytes.count, by: 4).map { start in
            bytes[start..<min(start + 4, bytes.count)].enumerated()
                .reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
    }

    /// "main" as a literal string.
    static let main = literal("main")

    @Test("decoration groups, texel buffers and input attachments")
    func decorationGroupsAndImageKinds() throws {
        let op = Self.instruction
        var words: [UInt32] = [0x0723_0203, 0x0001_0000, 0, 100, 0]
        words += op(17, [1])                                  // OpCapability Shader
        words += op(14, [0, 1])                               // OpMemoryModel Logical GLSL450
        words += op(15, [5, 1] + Self.main)                   // OpEntryPoint GLCompute %1 "main"
        words += op(16, [1, 17, 4, 2, 1])                     // OpExecutionMode %1 LocalSize 4 2 1
        words += op(71, [50, 34, 2])                          // OpDecorate %50 DescriptorSet 2
        words += op(71, [50, 24])                             // OpDecorate %50 NonWritable
        words += op(73, [50])                                 // %50 = OpDecorationGroup
        words += op(74, [50, 10, 11, 12, 13])                 // OpGroupDecorate %50 %10 %11 %12 %13
        words += op(75, [50, 6, 0])                           // OpGroupMemberDecorate %50 %6 0
        words += op(71, [10, 33, 0])                          // OpDecorate %10 Binding 0
        words += op(71, [11, 33, 1])                          // OpDecorate %11 Binding 1
        words += op(71, [12, 33, 2])                          // OpDecorate %12 Binding 2
        words += op(71, [13, 33, 3])                          // OpDecorate %13 Binding 3
        words += op(71, [6, 3])                               // OpDecorate %6 BufferBlock
        words += op(5, [6] + Self.literal("Flags"))         // OpName %6 "Flags"
        words += op(19, [2])                                  // %2 = OpTypeVoid
        words += op(22, [3, 32])                              // %3 = OpTypeFloat 32
        words += op(25, [4, 3, 5, 0, 0, 0, 1, 0])             // %4 = OpTypeImage %3 Buffer ... Sampled 1
        words += op(25, [5, 3, 6, 0, 0, 0, 2, 0])             // %5 = OpTypeImage %3 SubpassData ... Sampled 2
        words += op(30, [6, 3])                               // %6 = OpTypeStruct %3
        words += op(30, [7, 3])                               // %7 = OpTypeStruct %3
        words += op(32, [20, 0, 4])                           // %20 = OpTypePointer UniformConstant %4
        words += op(32, [21, 0, 5])                           // %21 = OpTypePointer UniformConstant %5
        words += op(32, [22, 2, 6])                           // %22 = OpTypePointer Uniform %6
        words += op(32, [23, 12, 7])                          // %23 = OpTypePointer StorageBuffer %7
        words += op(59, [20, 10, 0])                          // %10 = OpVariable %20 UniformConstant
        words += op(59, [21, 11, 0])                          // %11 = OpVariable %21 UniformConstant
        words += op(59, [22, 12, 2])                          // %12 = OpVariable %22 Uniform
        words += op(59, [23, 13, 12])                         // %13 = OpVariable %23 StorageBuffer
        words += op(33, [24, 2])                              // %24 = OpTypeFunction %2
        words += op(54, [2, 1, 0, 24])                        // %1 = OpFunction %2 None %24
        words += op(248, [30])                                // %30 = OpLabel
        words += op(253, [])                                  // OpReturn
        words += op(56, [])                                   // OpFunctionEnd

        let entry = try Self.onlyEntryPoint(words)
        let size = try #require(entry.localSize)
        #expect((size.x, size.y, size.z) == (4, 2, 1))
        // The input attachment (SubpassData) at binding 1 has no descriptor kind and is left out.
        #expect(entry.bindings == [
            SPIRVBinding(set: 2, binding: 0, kind: .sampledImage, count: 1, name: "", isReadOnly: true),
            SPIRVBinding(set: 2, binding: 2, kind: .storageBuffer, count: 1, name: "Flags", isReadOnly: true),
            SPIRVBinding(set: 2, binding: 3, kind: .storageBuffer, count: 1, name: "", isReadOnly: true),
        ])
    }

    @Test("a module needs an entry point unless it declares Linkage")
    func libraryModules() throws {
        let op = Self.instruction
        let header: [UInt32] = [0x0723_0203, 0x0001_0000, 0, 10, 0]
        let memoryModel = op(14, [0, 1])
        let library = try SPIRVModule(words: header + op(17, [5]) + memoryModel)
        #expect(library.entryPoints.isEmpty)
        #expect(throws: SPIRVParseError(reason: "no OpEntryPoint (and no Linkage capability)")) {
            try SPIRVModule(words: header + op(17, [1]) + memoryModel)
        }
        #expect(throws: SPIRVParseError(reason: "entry point \"main\" names undefined function %7")) {
            try SPIRVModule(words: header + op(17, [1]) + memoryModel + op(15, [5, 7] + Self.main))
        }
        // Geometry (3) entry points are valid but skipped.
        let geometry = header + op(17, [1]) + memoryModel + op(15, [3, 7] + Self.main)
            + op(19, [2]) + op(33, [3, 2]) + op(54, [2, 7, 0, 3]) + op(56, [])
        #expect(try SPIRVModule(words: geometry).entryPoints.isEmpty)
    }

    // MARK: Fuzzing

    @Test("2,000 random byte strings after a valid magic number throw or parse")
    func fuzzRandomBytes() {
        var random = XorShift(state: 0x9E37_79B9_7F4A_7C15)
        var thrown = 0
        for _ in 0..<2_000 {
            var bytes: [UInt8] = [0x03, 0x02, 0x23, 0x07]
            let length = Int.random(in: 0..<400, using: &random)
            for _ in 0..<length { bytes.append(UInt8.random(in: 0...255, using: &random)) }
            do {
                _ = try SPIRVModule(bytes: bytes)
            } catch {
                #expect(!error.reason.isEmpty)
                thrown += 1
            }
        }
        #expect(thrown > 1_000)  // random words almost never form a module with an entry point
    }

    @Test("2,000 mutated fixtures throw or parse")
    func fuzzMutatedFixtures() {
        let fixtures = Self.fixtures.keys.sorted().compactMap { Self.fixtures[$0] }
        var random = XorShift(state: 0x0123_4567_89AB_CDEF)
        var parsed = 0
        for _ in 0..<2_000 {
            var words = fixtures[Int.random(in: 0..<fixtures.count, using: &random)]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 5..<words.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: words[index] = UInt32.random(in: 0...UInt32.max, using: &random)
                case 1: words[index] = UInt32.random(in: 0..<64, using: &random)  // small ids and enumerants
                case 2: words[index] ^= 1 << UInt32.random(in: 0..<32, using: &random)
                default: words[index] = UInt32.max
                }
            }
            do {
                _ = try SPIRVModule(words: words)
                parsed += 1
            } catch {
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(parsed > 0)  // most single-word mutations still parse and exercise reflection
    }
}
