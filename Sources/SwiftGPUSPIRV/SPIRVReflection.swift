// SPIR-V reflection: a small parser that reads just enough of a SPIR-V module
// to describe its entry points, descriptor bindings, vertex inputs, fragment
// outputs, workgroup sizes and push-constant sizes.
//
// Written from the Khronos SPIR-V specification (unified, section 3 for the
// enumerants and section 3.42 for the instructions). Pure Swift, no C or Vulkan
// dependency. Every read is bounds-checked and every size computation
// saturates, so arbitrary input either parses or throws `SPIRVParseError`.

// MARK: - Public (internal) model

/// Shader stage of an entry point.
///
/// Entry points with any other execution model (geometry, tessellation,
/// kernels, ray tracing, mesh shading, ...) are skipped by `SPIRVModule`.
package enum ShaderStage: Sendable, Hashable {
    /// The `Vertex` execution model.
    case vertex
    /// The `Fragment` execution model.
    case fragment
    /// The `GLCompute` execution model.
    case compute
}

/// Scalar type of the components of an interface variable.
package enum ScalarType: Sendable, Hashable {
    /// 32-bit IEEE float.
    case float32
    /// 32-bit signed integer.
    case int32
    /// 32-bit unsigned integer.
    case uint32
    /// 16-bit IEEE float.
    case float16
    /// Any other scalar (64-bit, 8/16-bit integers, booleans) or a non-numeric type.
    case other
}

/// What kind of descriptor a resource variable needs.
package enum SPIRVDescriptorKind: Sendable, Hashable {
    /// `Uniform` storage class with a `Block` struct (GLSL `uniform` block).
    case uniformBuffer
    /// `StorageBuffer` storage class, or `Uniform` with a `BufferBlock` struct (pre-1.3 style).
    case storageBuffer
    /// `OpTypeImage` with Sampled = 1: a texture without a sampler
    /// (also used for uniform texel buffers, `Dim` = `Buffer`).
    case sampledImage
    /// `OpTypeImage` with Sampled = 2: a storage image
    /// (also used for storage texel buffers, `Dim` = `Buffer`).
    case storageImage
    /// `OpTypeSampler`: a separate sampler.
    case sampler
    /// `OpTypeSampledImage`: a combined image sampler.
    case combinedImageSampler
}

/// One descriptor binding declared by a module.
package struct SPIRVBinding: Sendable, Hashable {
    /// The `DescriptorSet` decoration of the variable.
    package var set: UInt32
    /// The `Binding` decoration of the variable.
    package var binding: UInt32
    /// The kind of descriptor the variable needs.
    package var kind: SPIRVDescriptorKind
    /// Number of descriptors: the product of the array lengths when the
    /// variable is an array (of arrays) of resources, 1 when it is not an
    /// array, 0 for a runtime (unsized) array or a length that cannot be resolved.
    package var count: UInt32
    /// `OpName` of the variable or, for buffer blocks whose variable is
    /// unnamed, the name of the block's struct type; `""` when neither exists
    /// (e.g. modules compiled with `-O`, which strips names).
    package var name: String
    /// Whether the shader never writes through this binding. Always `true`
    /// for uniform buffers, sampled images, samplers and combined image
    /// samplers; for storage buffers, `true` when the variable is
    /// `NonWritable` or every member of the block is `NonWritable`; for
    /// storage images, `true` when the variable is `NonWritable`.
    package var isReadOnly: Bool
}

/// One stage input or output variable at a location (vertex inputs,
/// fragment outputs, and inter-stage varyings).
package struct SPIRVInterfaceVariable: Sendable, Hashable {
    /// The `Location` decoration of the variable.
    package var location: UInt32
    /// Scalar type of the components. For arrays this describes the element,
    /// for matrices a column.
    package var componentType: ScalarType
    /// Number of components: 1 for scalars, 2...4 for vectors (the column
    /// size for matrices), 0 for structs and other non-numeric types.
    package var componentCount: UInt32
}

/// One entry point with what it uses.
package struct SPIRVEntryPoint: Sendable, Hashable {
    /// The entry point's name, e.g. `"main"`.
    package var name: String
    /// The stage the entry point runs in.
    package var stage: ShaderStage
    /// Workgroup size of a compute entry point, `nil` for other stages.
    ///
    /// Taken, in order of precedence, from a constant decorated
    /// `BuiltIn WorkgroupSize`, from `LocalSizeId` (resolving `OpConstant`
    /// ids), or from `LocalSize`. Specialization constants resolve to their
    /// default values. `nil` also when a size cannot be resolved.
    package var localSize: (x: UInt32, y: UInt32, z: UInt32)?
    /// For each dimension of `localSize` (x, y, z), the `SpecId` of the specialization
    /// constant it comes from (`layout(local_size_x_id = 0)`), or nil where the size is
    /// fixed. Empty for other stages.
    package var localSizeSpecIds: [UInt32?] = []
    /// Descriptor bindings of the module: every `Uniform`, `StorageBuffer`
    /// and `UniformConstant` resource variable with `DescriptorSet` and
    /// `Binding` decorations, sorted by (set, binding). Before SPIR-V 1.4 the
    /// interface list of an entry point holds only inputs and outputs, so this
    /// lists all resources of the module, used by this entry point or not.
    package var bindings: [SPIRVBinding]
    /// `Input` variables of the entry point's interface that have a
    /// `Location` (built-ins excluded), sorted by location.
    package var inputs: [SPIRVInterfaceVariable]
    /// `Output` variables of the entry point's interface that have a
    /// `Location` (built-ins excluded), sorted by location.
    package var outputs: [SPIRVInterfaceVariable]
    /// Byte size of the push-constant block (the end of its furthest member),
    /// 0 when the entry point has none.
    package var pushConstantSize: Int
    /// Scalar components of the `Input` variables, built-in blocks included (variables
    /// decorated `BuiltIn` themselves excluded): what the device's input component limit
    /// bounds. Derived from the rest, so not compared.
    package var inputComponentCount = 0
    /// Scalar components of the `Output` variables, counted the same way.
    package var outputComponentCount = 0
    /// In a compute entry point, the first `Input` or `Output` variable of the interface
    /// that is not a built-in: compute functions have no user-defined inputs or outputs, but
    /// SPIRV-Tools' validator lets one through. Derived from the rest, so not compared.
    package var nonBuiltInComputeVariable: (id: UInt32, isInput: Bool)?

    /// Compares every property; the local size component-wise (tuples are not `Equatable`).
    package static func == (lhs: SPIRVEntryPoint, rhs: SPIRVEntryPoint) -> Bool {
        lhs.name == rhs.name
            && lhs.stage == rhs.stage
            && lhs.localSize?.x == rhs.localSize?.x
            && lhs.localSize?.y == rhs.localSize?.y
            && lhs.localSize?.z == rhs.localSize?.z
            && lhs.localSizeSpecIds == rhs.localSizeSpecIds
            && lhs.bindings == rhs.bindings
            && lhs.inputs == rhs.inputs
            && lhs.outputs == rhs.outputs
            && lhs.pushConstantSize == rhs.pushConstantSize
    }

    /// Hashes every property, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(stage)
        if let size = localSize {
            hasher.combine(true)
            hasher.combine(size.x)
            hasher.combine(size.y)
            hasher.combine(size.z)
        } else {
            hasher.combine(false)
        }
        hasher.combine(localSizeSpecIds)
        hasher.combine(bindings)
        hasher.combine(inputs)
        hasher.combine(outputs)
        hasher.combine(pushConstantSize)
    }
}

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

// MARK: - Enumerants (SPIR-V specification, section 3)

/// The SPIR-V magic number, first word of every module.
private let spirvMagic: UInt32 = 0x0723_0203

/// Opcodes this parser reads (specification section 3.42).
package enum SPIRVOp {
    /// `OpName`.
    package static let name: UInt32 = 5
    /// `OpMemberName`.
    package static let memberName: UInt32 = 6
    /// `OpCapability`.
    package static let capability: UInt32 = 17
    /// `OpMemoryModel`.
    package static let memoryModel: UInt32 = 14
    /// `OpEntryPoint`.
    package static let entryPoint: UInt32 = 15
    /// `OpExecutionMode`.
    package static let executionMode: UInt32 = 16
    /// `OpTypeBool`.
    package static let typeBool: UInt32 = 20
    /// `OpTypeInt`.
    package static let typeInt: UInt32 = 21
    /// `OpTypeFloat`.
    package static let typeFloat: UInt32 = 22
    /// `OpTypeVector`.
    package static let typeVector: UInt32 = 23
    /// `OpTypeMatrix`.
    package static let typeMatrix: UInt32 = 24
    /// `OpTypeImage`.
    package static let typeImage: UInt32 = 25
    /// `OpTypeSampler`.
    package static let typeSampler: UInt32 = 26
    /// `OpTypeSampledImage`.
    package static let typeSampledImage: UInt32 = 27
    /// `OpTypeArray`.
    package static let typeArray: UInt32 = 28
    /// `OpTypeRuntimeArray`.
    package static let typeRuntimeArray: UInt32 = 29
    /// `OpTypeStruct`.
    package static let typeStruct: UInt32 = 30
    /// `OpTypePointer`.
    package static let typePointer: UInt32 = 32
    /// `OpConstant`.
    package static let constant: UInt32 = 43
    /// `OpConstantComposite`.
    package static let constantComposite: UInt32 = 44
    /// `OpSpecConstant`.
    package static let specConstant: UInt32 = 50
    /// `OpSpecConstantComposite`.
    package static let specConstantComposite: UInt32 = 51
    /// `OpFunction`.
    package static let function: UInt32 = 54
    /// `OpFunctionEnd`.
    package static let functionEnd: UInt32 = 56
    /// `OpVariable`.
    package static let variable: UInt32 = 59
    /// `OpLoad`.
    package static let load: UInt32 = 61
    /// `OpAccessChain`.
    package static let accessChain: UInt32 = 65
    /// `OpInBoundsAccessChain`.
    package static let inBoundsAccessChain: UInt32 = 66
    /// `OpDecorate`.
    package static let decorate: UInt32 = 71
    /// `OpMemberDecorate`.
    package static let memberDecorate: UInt32 = 72
    /// `OpGroupDecorate`.
    package static let groupDecorate: UInt32 = 74
    /// `OpGroupMemberDecorate`.
    package static let groupMemberDecorate: UInt32 = 75
    /// `OpExecutionModeId`.
    package static let executionModeId: UInt32 = 331
}

/// Execution models (section 3.4).
private enum SPIRVExecutionModel {
    /// `Vertex`.
    package static let vertex: UInt32 = 0
    /// `Fragment`.
    package static let fragment: UInt32 = 4
    /// `GLCompute`.
    package static let glCompute: UInt32 = 5
}

/// Execution modes (section 3.6).
private enum SPIRVExecutionMode {
    /// `LocalSize`.
    package static let localSize: UInt32 = 17
    /// `LocalSizeId`.
    package static let localSizeId: UInt32 = 38
}

/// Storage classes (section 3.7).
package enum SPIRVStorageClass {
    /// `UniformConstant`.
    package static let uniformConstant: UInt32 = 0
    /// `Input`.
    package static let input: UInt32 = 1
    /// `Uniform`.
    package static let uniform: UInt32 = 2
    /// `Output`.
    package static let output: UInt32 = 3
    /// `PushConstant`.
    package static let pushConstant: UInt32 = 9
    /// `StorageBuffer`.
    package static let storageBuffer: UInt32 = 12
}

/// Decorations (section 3.20).
package enum SPIRVDecoration {
    /// `Block`.
    package static let block: UInt32 = 2
    /// `BufferBlock`.
    package static let bufferBlock: UInt32 = 3
    /// `RowMajor`.
    package static let rowMajor: UInt32 = 4
    /// `ArrayStride`.
    package static let arrayStride: UInt32 = 6
    /// `MatrixStride`.
    package static let matrixStride: UInt32 = 7
    /// `BuiltIn`.
    package static let builtIn: UInt32 = 11
    /// `NonWritable`.
    package static let nonWritable: UInt32 = 24
    /// `NonReadable`.
    package static let nonReadable: UInt32 = 25
    /// `Location`.
    package static let location: UInt32 = 30
    /// `Binding`.
    package static let binding: UInt32 = 33
    /// `DescriptorSet`.
    package static let descriptorSet: UInt32 = 34
    /// `Offset`.
    package static let offset: UInt32 = 35
    /// `SpecId`.
    package static let specId: UInt32 = 1
}

/// `Capability Linkage` (section 3.31): library modules may have no entry point.
private let spirvLinkageCapability: UInt32 = 5
/// `BuiltIn WorkgroupSize` (section 3.21).
private let spirvWorkgroupSizeBuiltIn: UInt32 = 25
/// `Dim SubpassData` (section 3.8): input attachments, which have no
/// `SPIRVDescriptorKind` and are skipped.
private let spirvDimSubpassData: UInt32 = 6

/// Formats a word as `0x` followed by eight lowercase hex digits.
private func spirvHex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}

// MARK: - Parsed tables

/// The decorations of an id or of a struct member that reflection cares about.
private struct SPIRVDecorations {
    /// `DescriptorSet` literal.
    package var set: UInt32?
    /// `Binding` literal.
    package var binding: UInt32?
    /// `Location` literal.
    package var location: UInt32?
    /// `BuiltIn` literal.
    package var builtIn: UInt32?
    /// `Offset` literal (struct members).
    package var offset: UInt32?
    /// `ArrayStride` literal (array types).
    package var arrayStride: UInt32?
    /// `MatrixStride` literal (matrix struct members).
    package var matrixStride: UInt32?
    /// `Block` decoration (struct types).
    package var block = false
    /// `BufferBlock` decoration (struct types).
    package var bufferBlock = false
    /// `RowMajor` decoration (matrix struct members).
    package var rowMajor = false
    /// `NonWritable` decoration.
    package var nonWritable = false
    /// `NonReadable` decoration.
    package var nonReadable = false
    /// `SpecId` literal (specialization constants).
    package var specId: UInt32?

    /// Records one decoration; `value` is its first literal, if any.
    package mutating func apply(_ decoration: UInt32, value: UInt32?) {
        switch decoration {
        case SPIRVDecoration.block: block = true
        case SPIRVDecoration.bufferBlock: bufferBlock = true
        case SPIRVDecoration.rowMajor: rowMajor = true
        case SPIRVDecoration.arrayStride: arrayStride = value ?? arrayStride
        case SPIRVDecoration.matrixStride: matrixStride = value ?? matrixStride
        case SPIRVDecoration.builtIn: builtIn = value ?? builtIn
        case SPIRVDecoration.nonWritable: nonWritable = true
        case SPIRVDecoration.nonReadable: nonReadable = true
        case SPIRVDecoration.location: location = value ?? location
        case SPIRVDecoration.binding: binding = value ?? binding
        case SPIRVDecoration.descriptorSet: set = value ?? set
        case SPIRVDecoration.offset: offset = value ?? offset
        case SPIRVDecoration.specId: specId = value ?? specId
        default: break
        }
    }

    /// Adds the decorations of a decoration group.
    package mutating func merge(_ other: SPIRVDecorations) {
        set = other.set ?? set
        binding = other.binding ?? binding
        location = other.location ?? location
        builtIn = other.builtIn ?? builtIn
        offset = other.offset ?? offset
        specId = other.specId ?? specId
        arrayStride = other.arrayStride ?? arrayStride
        matrixStride = other.matrixStride ?? matrixStride
        block = block || other.block
        bufferBlock = bufferBlock || other.bufferBlock
        rowMajor = rowMajor || other.rowMajor
        nonWritable = nonWritable || other.nonWritable
        nonReadable = nonReadable || other.nonReadable
    }
}

/// A type declared by an `OpType*` instruction.
private enum SPIRVType {
    /// `OpTypeBool`.
    case bool
    /// `OpTypeInt` with its width in bits and signedness.
    case int(width: UInt32, signed: Bool)
    /// `OpTypeFloat` with its width in bits.
    case float(width: UInt32)
    /// `OpTypeVector`: component type id and component count.
    case vector(component: UInt32, count: UInt32)
    /// `OpTypeMatrix`: column type id and column count.
    case matrix(column: UInt32, columns: UInt32)
    /// `OpTypeImage`: its `Dim` and `Sampled` operands.
    case image(dim: UInt32, sampled: UInt32)
    /// `OpTypeSampler`.
    case sampler
    /// `OpTypeSampledImage`.
    case sampledImage
    /// `OpTypeArray`: element type id and the id of the length constant.
    case array(element: UInt32, length: UInt32)
    /// `OpTypeRuntimeArray`: element type id.
    case runtimeArray(element: UInt32)
    /// `OpTypeStruct`: member type ids.
    case structure(members: [UInt32])
    /// `OpTypePointer`: storage class and pointee type id.
    case pointer(storageClass: UInt32, pointee: UInt32)
}

/// A module-scope `OpVariable`.
private struct SPIRVVariable {
    /// Result id.
    package var id: UInt32
    /// Result type id (a pointer type).
    package var type: UInt32
    /// Storage class operand.
    package var storageClass: UInt32
}

/// An `OpEntryPoint` as declared.
private struct SPIRVRawEntryPoint {
    /// Execution model operand.
    package var model: UInt32
    /// Id of the entry point's `OpFunction`.
    package var function: UInt32
    /// Name literal.
    package var name: String
    /// Interface variable ids.
    package var interface: [UInt32]
}

/// Three ids or three literals of a workgroup size.
private struct SPIRVTriple {
    /// X component.
    package var x: UInt32
    /// Y component.
    package var y: UInt32
    /// Z component.
    package var z: UInt32
}

/// A view of one instruction with bounds-checked operand access.
private struct SPIRVInstruction {
    /// All words of the module.
    package let words: [UInt32]
    /// Index of the instruction's first word.
    package let start: Int
    /// Word count of the instruction, at least 1.
    package let count: Int
    /// Opcode.
    package let opcode: UInt32

    /// The error for an instruction too short for its opcode.
    package var tooShort: SPIRVParseError {
        SPIRVParseError(reason: "instruction at word \(start) (opcode \(opcode)) is too short")
    }

    /// Word `index` of the instruction (1 is the first operand); throws when
    /// the instruction is too short.
    package func operand(_ index: Int) throws(SPIRVParseError) -> UInt32 {
        guard let value = optionalOperand(index) else { throw tooShort }
        return value
    }

    /// Word `index` of the instruction, or `nil` when the instruction is too short.
    package func optionalOperand(_ index: Int) -> UInt32? {
        guard index >= 1, index < count else { return nil }
        return words[start + index]
    }

    /// Words from `index` to the end of the instruction (empty when none).
    package func operands(from index: Int) -> [UInt32] {
        guard index >= 1, index < count else { return [] }
        return Array(words[(start + index)..<(start + count)])
    }

    /// Decodes the literal string starting at word `index`; returns it with
    /// the index of the word after it.
    package func string(at index: Int) throws(SPIRVParseError) -> (String, next: Int) {
        var bytes: [UInt8] = []
        var wordIndex = index
        while let word = optionalOperand(wordIndex) {
            wordIndex += 1
            for shift in stride(from: 0, to: 32, by: 8) {
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
                if byte == 0 {
                    return (String(decoding: bytes, as: UTF8.self), wordIndex)
                }
                bytes.append(byte)
            }
        }
        throw SPIRVParseError(reason: "instruction at word \(start) has an unterminated string")
    }
}

// MARK: - Parsing

/// Walks the instruction stream once and records the tables reflection needs.
private struct SPIRVParser {
    /// The module, host endianness, at least 5 words.
    package let words: [UInt32]
    /// SPIR-V version from the header (0x00MMmm00).
    package var version: UInt32 = 0
    /// `OpName` of ids.
    package var names: [UInt32: String] = [:]
    /// `OpDecorate` of ids.
    package var decorations: [UInt32: SPIRVDecorations] = [:]
    /// `OpMemberDecorate` of struct members, by struct id then member index.
    package var memberDecorations: [UInt32: [UInt32: SPIRVDecorations]] = [:]
    /// Types by result id.
    package var types: [UInt32: SPIRVType] = [:]
    /// Scalar `OpConstant` / `OpSpecConstant` values (default values for the
    /// latter), by result id; up to 64 bits.
    package var constants: [UInt32: UInt64] = [:]
    /// Ids of `OpSpecConstant`s (scalar specialization constants).
    package var specConstants: Set<UInt32> = []
    /// Constituents of `OpConstantComposite` / `OpSpecConstantComposite`.
    package var composites: [UInt32: [UInt32]] = [:]
    /// Module-scope variables in declaration order.
    package var variables: [SPIRVVariable] = []
    /// Entry points in declaration order.
    package var entryPoints: [SPIRVRawEntryPoint] = []
    /// `LocalSize` literals by entry point function id.
    package var localSizes: [UInt32: SPIRVTriple] = [:]
    /// `LocalSizeId` ids by entry point function id.
    package var localSizeIds: [UInt32: SPIRVTriple] = [:]
    /// Ids of all `OpFunction`s.
    package var functions: Set<UInt32> = []
    /// `OpGroupDecorate`: group id and targets.
    package var groupDecorates: [(group: UInt32, targets: [UInt32])] = []
    /// `OpGroupMemberDecorate`: group id and (struct, member) pairs.
    package var groupMemberDecorates: [(group: UInt32, targets: [(UInt32, UInt32)])] = []
    /// Whether an `OpMemoryModel` was seen (every valid module has one).
    package var hasMemoryModel = false
    /// Whether the module declares the `Linkage` capability.
    package var hasLinkage = false

    /// A parser for `words`, which must hold at least the 5-word header.
    package init(words: [UInt32]) {
        self.words = words
    }

    /// Parses the instruction stream after the header.
    package mutating func parse() throws(SPIRVParseError) {
        version = words[1]
        var index = 5
        var insideFunction = false
        while index < words.count {
            let wordCount = Int(words[index] >> 16)
            let opcode = words[index] & 0xFFFF
            guard wordCount > 0 else {
                throw SPIRVParseError(reason: "instruction at word \(index) has word count 0")
            }
            guard wordCount <= words.count - index else {
                throw SPIRVParseError(
                    reason: "instruction at word \(index) runs past the end of the module")
            }
            let instruction = SPIRVInstruction(words: words, start: index, count: wordCount, opcode: opcode)
            switch opcode {
            case SPIRVOp.function:
                guard !insideFunction else {
                    throw SPIRVParseError(reason: "OpFunction at word \(index) inside another function")
                }
                insideFunction = true
                functions.insert(try instruction.operand(2))
            case SPIRVOp.functionEnd:
                guard insideFunction else {
                    throw SPIRVParseError(reason: "OpFunctionEnd at word \(index) outside a function")
                }
                insideFunction = false
            case SPIRVOp.variable where insideFunction:
                break  // function-local variables are not reflected
            default:
                try record(instruction)
            }
            index += wordCount
        }
        guard !insideFunction else {
            throw SPIRVParseError(reason: "module ends inside a function (missing OpFunctionEnd)")
        }
        guard hasMemoryModel else {
            throw SPIRVParseError(reason: "missing OpMemoryModel")
        }
        guard !entryPoints.isEmpty || hasLinkage else {
            throw SPIRVParseError(reason: "no OpEntryPoint (and no Linkage capability)")
        }
        for entryPoint in entryPoints where !functions.contains(entryPoint.function) {
            throw SPIRVParseError(
                reason: "entry point \"\(entryPoint.name)\" names undefined function %\(entryPoint.function)")
        }
        applyDecorationGroups()
    }

    /// Records what one instruction declares.
    private mutating func record(_ inst: SPIRVInstruction) throws(SPIRVParseError) {
        switch inst.opcode {
        case SPIRVOp.name:
            names[try inst.operand(1)] = try inst.string(at: 2).0
        case SPIRVOp.memoryModel:
            hasMemoryModel = true
        case SPIRVOp.capability:
            if try inst.operand(1) == spirvLinkageCapability { hasLinkage = true }
        case SPIRVOp.entryPoint:
            let model = try inst.operand(1)
            let function = try inst.operand(2)
            let (name, next) = try inst.string(at: 3)
            entryPoints.append(SPIRVRawEntryPoint(
                model: model, function: function, name: name,
                interface: inst.operands(from: next)))
        case SPIRVOp.executionMode, SPIRVOp.executionModeId:
            let target = try inst.operand(1)
            let mode = try inst.operand(2)
            if mode == SPIRVExecutionMode.localSize || mode == SPIRVExecutionMode.localSizeId {
                let size = SPIRVTriple(x: try inst.operand(3), y: try inst.operand(4), z: try inst.operand(5))
                if mode == SPIRVExecutionMode.localSize {
                    localSizes[target] = size
                } else {
                    localSizeIds[target] = size
                }
            }
        case SPIRVOp.typeBool:
            types[try inst.operand(1)] = .bool
        case SPIRVOp.typeInt:
            types[try inst.operand(1)] = .int(width: try inst.operand(2), signed: try inst.operand(3) != 0)
        case SPIRVOp.typeFloat:
            types[try inst.operand(1)] = .float(width: try inst.operand(2))
        case SPIRVOp.typeVector:
            types[try inst.operand(1)] = .vector(component: try inst.operand(2), count: try inst.operand(3))
        case SPIRVOp.typeMatrix:
            types[try inst.operand(1)] = .matrix(column: try inst.operand(2), columns: try inst.operand(3))
        case SPIRVOp.typeImage:
            types[try inst.operand(1)] = .image(dim: try inst.operand(3), sampled: try inst.operand(7))
        case SPIRVOp.typeSampler:
            types[try inst.operand(1)] = .sampler
        case SPIRVOp.typeSampledImage:
            types[try inst.operand(1)] = .sampledImage
        case SPIRVOp.typeArray:
            types[try inst.operand(1)] = .array(element: try inst.operand(2), length: try inst.operand(3))
        case SPIRVOp.typeRuntimeArray:
            types[try inst.operand(1)] = .runtimeArray(element: try inst.operand(2))
        case SPIRVOp.typeStruct:
            types[try inst.operand(1)] = .structure(members: inst.operands(from: 2))
        case SPIRVOp.typePointer:
            types[try inst.operand(1)] = .pointer(storageClass: try inst.operand(2), pointee: try inst.operand(3))
        case SPIRVOp.constant, SPIRVOp.specConstant:
            let low = UInt64(try inst.operand(3))
            let high = UInt64(inst.optionalOperand(4) ?? 0)
            constants[try inst.operand(2)] = low | high << 32
            if inst.opcode == SPIRVOp.specConstant { specConstants.insert(try inst.operand(2)) }
        case SPIRVOp.constantComposite, SPIRVOp.specConstantComposite:
            composites[try inst.operand(2)] = inst.operands(from: 3)
        case SPIRVOp.variable:
            variables.append(SPIRVVariable(
                id: try inst.operand(2), type: try inst.operand(1), storageClass: try inst.operand(3)))
        case SPIRVOp.decorate:
            decorations[try inst.operand(1), default: SPIRVDecorations()]
                .apply(try inst.operand(2), value: inst.optionalOperand(3))
        case SPIRVOp.memberDecorate:
            memberDecorations[try inst.operand(1), default: [:]][try inst.operand(2), default: SPIRVDecorations()]
                .apply(try inst.operand(3), value: inst.optionalOperand(4))
        case SPIRVOp.groupDecorate:
            groupDecorates.append((try inst.operand(1), inst.operands(from: 2)))
        case SPIRVOp.groupMemberDecorate:
            let flat = inst.operands(from: 2)
            let pairs = stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
            groupMemberDecorates.append((try inst.operand(1), pairs))
        default:
            break
        }
    }

    /// Copies the decorations of decoration groups onto their targets.
    private mutating func applyDecorationGroups() {
        for (group, targets) in groupDecorates {
            guard let groupDecorations = decorations[group] else { continue }
            for target in targets {
                decorations[target, default: SPIRVDecorations()].merge(groupDecorations)
            }
        }
        for (group, targets) in groupMemberDecorates {
            guard let groupDecorations = decorations[group] else { continue }
            for (structure, member) in targets {
                memberDecorations[structure, default: [:]][member, default: SPIRVDecorations()]
                    .merge(groupDecorations)
            }
        }
    }
}

// MARK: - Reflection

/// Turns the parsed tables into `SPIRVEntryPoint`s.
private struct SPIRVReflector {
    /// The parsed tables.
    package let module: SPIRVParser
    /// Memoised type sizes (keeps malicious type graphs linear).
    package var sizeCache: [UInt32: Int] = [:]
    /// Types whose size is being computed (breaks cycles in invalid modules).
    package var sizing: Set<UInt32> = []

    /// Deepest chain of nested arrays followed before giving up.
    package static let maximumArrayDepth = 64
    /// Deepest type nesting sized before giving up (bounds the recursion, so
    /// a hostile chain of thousands of nested types cannot exhaust the stack).
    package static let maximumTypeDepth = 128

    /// A reflector over a parsed module.
    package init(_ module: SPIRVParser) {
        self.module = module
    }

    /// The entry points whose execution model is not vertex, fragment or compute, with the
    /// model's name.
    package func otherEntryPoints() -> [(name: String, executionModel: String)] {
        module.entryPoints.compactMap { raw in
            let model: String
            switch raw.model {
            case SPIRVExecutionModel.vertex, SPIRVExecutionModel.fragment, SPIRVExecutionModel.glCompute: return nil
            case 1: model = "tessellation control"
            case 2: model = "tessellation evaluation"
            case 3: model = "geometry"
            case 6: model = "OpenCL kernel"
            case 5267, 5364: model = "task"
            case 5268, 5365: model = "mesh"
            case 5313...5318: model = "ray tracing"
            default: model = "execution model \(raw.model)"
            }
            return (raw.name, model)
        }
    }

    /// The vertex, fragment and compute entry points.
    package mutating func entryPoints() -> [SPIRVEntryPoint] {
        let bindings = resourceBindings()
        let variablesById = Dictionary(
            module.variables.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pushConstants = module.variables.filter { $0.storageClass == SPIRVStorageClass.pushConstant }
        let workgroupSize = builtInWorkgroupSize()
        var result: [SPIRVEntryPoint] = []
        for raw in module.entryPoints {
            let stage: ShaderStage
            switch raw.model {
            case SPIRVExecutionModel.vertex: stage = .vertex
            case SPIRVExecutionModel.fragment: stage = .fragment
            case SPIRVExecutionModel.glCompute: stage = .compute
            default: continue
            }
            let interface = raw.interface.compactMap { variablesById[$0] }

            var localSize: SPIRVTriple?
            var localSizeSpecIds: [UInt32?] = []
            if stage == .compute {
                localSize = workgroupSize?.size
                    ?? module.localSizeIds[raw.function].flatMap(resolve)
                    ?? module.localSizes[raw.function]
                let ids = workgroupSize?.ids ?? module.localSizeIds[raw.function]
                localSizeSpecIds = ids.map { [specId(of: $0.x), specId(of: $0.y), specId(of: $0.z)] } ?? [nil, nil, nil]
            }

            // From SPIR-V 1.4 on, the interface lists every global the entry
            // point uses, so push constants can be attributed exactly.
            let usedPushConstants = module.version >= 0x0001_0400
                ? interface.filter { $0.storageClass == SPIRVStorageClass.pushConstant }
                : pushConstants
            var pushConstantSize = 0
            for variable in usedPushConstants {
                pushConstantSize = max(pushConstantSize, size(of: pointee(of: variable) ?? 0))
            }

            var entry = SPIRVEntryPoint(
                name: raw.name,
                stage: stage,
                localSize: localSize.map { (x: $0.x, y: $0.y, z: $0.z) },
                localSizeSpecIds: localSizeSpecIds,
                bindings: bindings,
                inputs: interfaceVariables(interface, storageClass: SPIRVStorageClass.input),
                outputs: interfaceVariables(interface, storageClass: SPIRVStorageClass.output),
                pushConstantSize: pushConstantSize)
            entry.inputComponentCount = componentCount(interface, storageClass: SPIRVStorageClass.input)
            entry.outputComponentCount = componentCount(interface, storageClass: SPIRVStorageClass.output)
            if stage == .compute { entry.nonBuiltInComputeVariable = nonBuiltInVariable(interface) }
            result.append(entry)
        }
        return result
    }

    // MARK: Descriptors

    /// The byte size of each uniform block (not an array of them) in set 0, by binding.
    package mutating func uniformBlockSizes() -> [UInt32: Int] {
        var sizes: [UInt32: Int] = [:]
        for variable in module.variables {
            guard let binding = describe(variable), binding.set == 0, binding.kind == .uniformBuffer,
                  let pointee = pointee(of: variable), case .structure? = module.types[pointee]
            else { continue }
            sizes[binding.binding] = size(of: pointee)
        }
        return sizes
    }

    /// All resource variables with a descriptor set and binding, sorted.
    package func resourceBindings() -> [SPIRVBinding] {
        var found: [(order: Int, binding: SPIRVBinding)] = []
        for (order, variable) in module.variables.enumerated() {
            guard let binding = describe(variable) else { continue }
            found.append((order, binding))
        }
        found.sort {
            ($0.binding.set, $0.binding.binding, $0.order) < ($1.binding.set, $1.binding.binding, $1.order)
        }
        return found.map(\.binding)
    }

    /// The binding a variable needs, or `nil` when it is not a descriptor.
    package func describe(_ variable: SPIRVVariable) -> SPIRVBinding? {
        let storageClass = variable.storageClass
        guard storageClass == SPIRVStorageClass.uniform
            || storageClass == SPIRVStorageClass.storageBuffer
            || storageClass == SPIRVStorageClass.uniformConstant
        else { return nil }
        let decorations = module.decorations[variable.id] ?? SPIRVDecorations()
        guard let set = decorations.set, let bindingNumber = decorations.binding,
              let pointee = pointee(of: variable)
        else { return nil }

        // Peel arrays of resources, multiplying their lengths.
        var base = pointee
        var count: UInt32 = 1
        for _ in 0..<Self.maximumArrayDepth {
            if case .array(let element, let length) = module.types[base] {
                let resolved = module.constants[length].map { UInt32(clamping: $0) } ?? 0
                count = count.multipliedReportingOverflow(by: resolved).overflow
                    ? UInt32.max : count &* resolved
                base = element
            } else if case .runtimeArray(let element) = module.types[base] {
                count = 0
                base = element
            } else {
                break
            }
        }

        let kind: SPIRVDescriptorKind
        var isReadOnly = true
        switch (storageClass, module.types[base]) {
        case (SPIRVStorageClass.storageBuffer, _):
            kind = .storageBuffer
            isReadOnly = decorations.nonWritable || allMembersNonWritable(base)
        case (SPIRVStorageClass.uniform, _):
            if module.decorations[base]?.bufferBlock == true {
                kind = .storageBuffer
                isReadOnly = decorations.nonWritable || allMembersNonWritable(base)
            } else {
                kind = .uniformBuffer
            }
        case (_, .image(let dim, let sampled)?):
            guard dim != spirvDimSubpassData else { return nil }
            if sampled == 2 {
                kind = .storageImage
                isReadOnly = decorations.nonWritable
            } else {
                kind = .sampledImage
            }
        case (_, .sampler?):
            kind = .sampler
        case (_, .sampledImage?):
            kind = .combinedImageSampler
        default:
            return nil
        }

        var name = module.names[variable.id] ?? ""
        if name.isEmpty, kind == .uniformBuffer || kind == .storageBuffer {
            name = module.names[base] ?? ""
        }
        return SPIRVBinding(
            set: set, binding: bindingNumber, kind: kind, count: count,
            name: name, isReadOnly: isReadOnly)
    }

    /// Whether `structure` is a struct with members, all `NonWritable`.
    package func allMembersNonWritable(_ structure: UInt32) -> Bool {
        guard case .structure(let members)? = module.types[structure], !members.isEmpty else {
            return false
        }
        let memberDecorations = module.memberDecorations[structure] ?? [:]
        return members.indices.allSatisfy { index in
            memberDecorations[UInt32(index)]?.nonWritable == true
        }
    }

    /// The pointee type of a variable's pointer type.
    package func pointee(of variable: SPIRVVariable) -> UInt32? {
        guard case .pointer(_, let pointee)? = module.types[variable.type] else { return nil }
        return pointee
    }

    // MARK: Stage interface

    /// The located, non-built-in variables of a storage class, sorted by location.
    package func interfaceVariables(_ interface: [SPIRVVariable], storageClass: UInt32) -> [SPIRVInterfaceVariable] {
        var result: [SPIRVInterfaceVariable] = []
        var seen: Set<UInt32> = []
        for variable in interface where variable.storageClass == storageClass {
            guard seen.insert(variable.id).inserted else { continue }
            let decorations = module.decorations[variable.id] ?? SPIRVDecorations()
            guard decorations.builtIn == nil, let location = decorations.location,
                  let type = pointee(of: variable), !isBuiltInBlock(type)
            else { continue }
            let (componentType, componentCount) = components(of: type)
            result.append(SPIRVInterfaceVariable(
                location: location, componentType: componentType, componentCount: componentCount))
        }
        return result.sorted { $0.location < $1.location }
    }

    /// The scalar components of the interface's variables of a storage class: each
    /// variable's size in 32-bit words (saturating), variables decorated `BuiltIn` excluded.
    package mutating func componentCount(_ interface: [SPIRVVariable], storageClass: UInt32) -> Int {
        var total = 0, seen: Set<UInt32> = []
        for variable in interface where variable.storageClass == storageClass && seen.insert(variable.id).inserted {
            guard module.decorations[variable.id]?.builtIn == nil, let type = pointee(of: variable) else { continue }
            let (sum, overflow) = total.addingReportingOverflow(max(size(of: type) / 4, 1))
            total = overflow ? Int.max : sum
        }
        return total
    }

    /// The first `Input` or `Output` variable of `interface` that is neither decorated
    /// `BuiltIn` nor a block of built-ins.
    package func nonBuiltInVariable(_ interface: [SPIRVVariable]) -> (id: UInt32, isInput: Bool)? {
        for variable in interface
        where variable.storageClass == SPIRVStorageClass.input || variable.storageClass == SPIRVStorageClass.output {
            if module.decorations[variable.id]?.builtIn != nil || pointee(of: variable).map(isBuiltInBlock) == true { continue }
            return (variable.id, variable.storageClass == SPIRVStorageClass.input)
        }
        return nil
    }

    /// Whether `type` is a struct with built-in members (like `gl_PerVertex`).
    package func isBuiltInBlock(_ type: UInt32) -> Bool {
        guard case .structure = module.types[type] else { return false }
        return module.memberDecorations[type]?.values.contains { $0.builtIn != nil } ?? false
    }

    /// Component scalar type and count of an interface variable's type.
    package func components(of type: UInt32) -> (ScalarType, UInt32) {
        var type = type
        for _ in 0..<Self.maximumArrayDepth {
            switch module.types[type] {
            case .array(let element, _)?, .runtimeArray(let element)?:
                type = element
            case .matrix(let column, _)?:
                type = column
            case .vector(let component, let count)?:
                return (scalarType(component), count)
            case .int?, .float?, .bool?:
                return (scalarType(type), 1)
            default:
                return (.other, 0)
            }
        }
        return (.other, 0)
    }

    /// The `ScalarType` of a scalar type id.
    package func scalarType(_ type: UInt32) -> ScalarType {
        switch module.types[type] {
        case .float(32)?: .float32
        case .float(16)?: .float16
        case .int(32, true)?: .int32
        case .int(32, false)?: .uint32
        default: .other
        }
    }

    // MARK: Workgroup size

    /// The workgroup size given by a constant decorated `BuiltIn WorkgroupSize`.
    package func builtInWorkgroupSize() -> (size: SPIRVTriple, ids: SPIRVTriple)? {
        for (id, decorations) in module.decorations.sorted(by: { $0.key < $1.key })
        where decorations.builtIn == spirvWorkgroupSizeBuiltIn {
            if let parts = module.composites[id], parts.count == 3,
               case let ids = SPIRVTriple(x: parts[0], y: parts[1], z: parts[2]), let size = resolve(ids) {
                return (size, ids)
            }
        }
        return nil
    }

    /// The `SpecId` of `id` when it is a specialization constant that has one.
    package func specId(of id: UInt32) -> UInt32? {
        module.specConstants.contains(id) ? module.decorations[id]?.specId : nil
    }

    /// Resolves three constant ids to their (default) values.
    package func resolve(_ ids: SPIRVTriple) -> SPIRVTriple? {
        guard let x = module.constants[ids.x], let y = module.constants[ids.y],
              let z = module.constants[ids.z]
        else { return nil }
        return SPIRVTriple(x: UInt32(clamping: x), y: UInt32(clamping: y), z: UInt32(clamping: z))
    }

    // MARK: Type sizes

    /// Byte size of a type as laid out in a block: scalars by width, vectors
    /// and matrices by component count, arrays by `ArrayStride` (or element
    /// size), structs to the end of their furthest member, runtime arrays 0.
    /// Saturates instead of overflowing; 0 for unknown or cyclic types and
    /// for types nested deeper than `maximumTypeDepth`.
    package mutating func size(of type: UInt32, depth: Int = 0) -> Int {
        if let cached = sizeCache[type] { return cached }
        guard depth < Self.maximumTypeDepth, sizing.insert(type).inserted else { return 0 }
        let result: Int
        switch module.types[type] {
        case .bool?:
            result = 4
        case .int(let width, _)?, .float(let width)?:
            result = Int(width / 8)
        case .vector(let component, let count)?:
            result = spirvSaturatingMultiply(Int(count), size(of: component, depth: depth + 1))
        case .matrix(let column, let columns)?:
            result = spirvSaturatingMultiply(Int(columns), size(of: column, depth: depth + 1))
        case .array(let element, let length)?:
            let count = module.constants[length].map { Int(clamping: $0) } ?? 0
            let stride = module.decorations[type]?.arrayStride.map { Int($0) } ?? size(of: element, depth: depth + 1)
            result = spirvSaturatingMultiply(count, stride)
        case .structure(let members)?:
            result = structureSize(type, members: members, depth: depth + 1)
        case .pointer?:
            result = 8  // physical storage buffer addresses
        default:
            result = 0
        }
        sizing.remove(type)
        sizeCache[type] = result
        return result
    }

    /// End of the furthest member of a struct; members without an `Offset`
    /// follow the previous member.
    private mutating func structureSize(_ structure: UInt32, members: [UInt32], depth: Int) -> Int {
        let memberDecorations = module.memberDecorations[structure] ?? [:]
        var end = 0
        var next = 0
        for (index, member) in members.enumerated() {
            let decorations = memberDecorations[UInt32(index)] ?? SPIRVDecorations()
            let offset = decorations.offset.map { Int($0) } ?? next
            var memberSize = size(of: member, depth: depth)
            if case .matrix(let column, let columns)? = module.types[member],
               let stride = decorations.matrixStride {
                var vectors = Int(columns)
                if decorations.rowMajor, case .vector(_, let rows)? = module.types[column] {
                    vectors = Int(rows)
                }
                memberSize = spirvSaturatingMultiply(vectors, Int(stride))
            }
            next = spirvSaturatingAdd(offset, memberSize)
            end = max(end, next)
        }
        return end
    }
}

/// `a * b` for non-negative values, `Int.max` on overflow.
private func spirvSaturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
}

/// `a + b` for non-negative values, `Int.max` on overflow.
private func spirvSaturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}
