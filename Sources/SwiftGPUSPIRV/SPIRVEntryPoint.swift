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
    /// For a storage image declared without a format (`Unknown`): whether the shader may
    /// read it, write it, or both (a `NonReadable` or `NonWritable` decoration rules one
    /// out). Empty for every other binding. The device must support the access for the
    /// format of the texture bound there.
    package var accessWithoutFormat = SPIRVFormatlessAccess()
}

/// How a shader accesses a storage image declared without a format.
package struct SPIRVFormatlessAccess: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Loads (`OpImageRead`): `StorageImageReadWithoutFormat`.
    package static let read = SPIRVFormatlessAccess(rawValue: 1)
    /// Stores (`OpImageWrite`): `StorageImageWriteWithoutFormat`.
    package static let write = SPIRVFormatlessAccess(rawValue: 2)
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
    /// Bytes of `Workgroup` memory (GLSL `shared`, Metal's threadgroup memory) a compute
    /// entry point declares, each variable at its natural size (saturating); 0 for other
    /// stages.
    package var workgroupMemorySize = 0
    /// Bytes of memory private to each invocation: the module's `Private` variables and
    /// every function's `Function` variables (GLSL globals and locals, Metal's `thread`
    /// address space), each at its natural size (saturating). An upper bound: every
    /// function of the module counts, called by this entry point or not.
    package var privateMemorySize = 0
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
