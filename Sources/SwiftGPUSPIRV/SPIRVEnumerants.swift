/// The SPIR-V magic number, first word of every module.
let spirvMagic: UInt32 = 0x0723_0203

/// Opcodes this parser reads (specification section 3.42).
package enum SPIRVOp {
    /// `OpSourceExtension`.
    package static let sourceExtension: UInt32 = 4
    /// `OpName`.
    package static let name: UInt32 = 5
    /// `OpExtension`.
    package static let `extension`: UInt32 = 10
    /// `OpExtInstImport`.
    package static let extInstImport: UInt32 = 11
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
    /// `OpSpecConstantTrue`.
    package static let specConstantTrue: UInt32 = 48
    /// `OpSpecConstantFalse`.
    package static let specConstantFalse: UInt32 = 49
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
enum SPIRVExecutionModel {
    /// `Vertex`.
    package static let vertex: UInt32 = 0
    /// `Fragment`.
    package static let fragment: UInt32 = 4
    /// `GLCompute`.
    package static let glCompute: UInt32 = 5
}

/// Execution modes (section 3.6).
enum SPIRVExecutionMode {
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
    /// `Workgroup`: memory a compute threadgroup shares (GLSL `shared`).
    package static let workgroup: UInt32 = 4
    /// `Private`: module-level variables each invocation has its own copy of.
    package static let privateStorage: UInt32 = 6
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
let spirvLinkageCapability: UInt32 = 5
/// `BuiltIn WorkgroupSize` (section 3.21).
let spirvWorkgroupSizeBuiltIn: UInt32 = 25
/// `Dim SubpassData` (section 3.8): input attachments, which have no
/// `SPIRVDescriptorKind` and are skipped.
let spirvDimSubpassData: UInt32 = 6
/// `Image Format Unknown` (section 3.11): a storage image whose format the shader leaves
/// to the image bound, under the `…WithoutFormat` capabilities.
let spirvImageFormatUnknown: UInt32 = 0
