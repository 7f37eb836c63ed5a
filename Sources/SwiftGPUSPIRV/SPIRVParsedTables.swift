/// The decorations of an id or of a struct member that reflection cares about.
struct SPIRVDecorations {
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
enum SPIRVType {
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
    /// `OpTypeImage`: its `Dim`, `Sampled` and `Image Format` operands.
    case image(dim: UInt32, sampled: UInt32, format: UInt32)
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
struct SPIRVVariable {
    /// Result id.
    package var id: UInt32
    /// Result type id (a pointer type).
    package var type: UInt32
    /// Storage class operand.
    package var storageClass: UInt32
}

/// An `OpEntryPoint` as declared.
struct SPIRVRawEntryPoint {
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
struct SPIRVTriple {
    /// X component.
    package var x: UInt32
    /// Y component.
    package var y: UInt32
    /// Z component.
    package var z: UInt32
}
