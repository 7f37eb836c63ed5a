/// The arguments an indirect draw reads from a buffer, Metal's
/// `MTLDrawPrimitivesIndirectArguments`: four 32-bit words, laid out as Vulkan's
/// `VkDrawIndirectCommand`, so a shader or the host may write them as four `uint`s.
public struct DrawPrimitivesIndirectArguments: Sendable, Hashable {
    /// How many vertices each instance draws.
    public var vertexCount: UInt32
    /// How many instances are drawn.
    public var instanceCount: UInt32
    /// The first vertex.
    public var vertexStart: UInt32
    /// The first instance's index (`gl_InstanceIndex` starts here).
    public var baseInstance: UInt32

    /// Arguments for `instanceCount` instances of `vertexCount` vertices.
    public init(vertexCount: UInt32, instanceCount: UInt32, vertexStart: UInt32 = 0, baseInstance: UInt32 = 0) {
        self.vertexCount = vertexCount
        self.instanceCount = instanceCount
        self.vertexStart = vertexStart
        self.baseInstance = baseInstance
    }
}

/// The arguments an indexed indirect draw reads from a buffer, Metal's
/// `MTLDrawIndexedPrimitivesIndirectArguments`: five 32-bit words, laid out as Vulkan's
/// `VkDrawIndexedIndirectCommand`.
public struct DrawIndexedPrimitivesIndirectArguments: Sendable, Hashable {
    /// How many indices each instance reads.
    public var indexCount: UInt32
    /// How many instances are drawn.
    public var instanceCount: UInt32
    /// The first index, counted in indices from the draw's `indexBufferOffset`.
    public var indexStart: UInt32
    /// Added to every index before the vertex is fetched.
    public var baseVertex: Int32
    /// The first instance's index.
    public var baseInstance: UInt32

    /// Arguments for `instanceCount` instances of `indexCount` indices.
    public init(indexCount: UInt32, instanceCount: UInt32, indexStart: UInt32 = 0, baseVertex: Int32 = 0, baseInstance: UInt32 = 0) {
        self.indexCount = indexCount
        self.instanceCount = instanceCount
        self.indexStart = indexStart
        self.baseVertex = baseVertex
        self.baseInstance = baseInstance
    }
}

/// The arguments an indirect dispatch reads from a buffer, Metal's
/// `MTLDispatchThreadgroupsIndirectArguments`: three 32-bit threadgroup counts, laid out as
/// Vulkan's `VkDispatchIndirectCommand`.
public struct DispatchThreadgroupsIndirectArguments: Sendable {
    /// The threadgroup counts along x, y and z.
    public var threadgroupsPerGrid: (UInt32, UInt32, UInt32)

    /// Arguments for a grid of `x` × `y` × `z` threadgroups.
    public init(_ x: UInt32, _ y: UInt32 = 1, _ z: UInt32 = 1) {
        threadgroupsPerGrid = (x, y, z)
    }
}

/// Stops unless `size` bytes of indirect arguments lie at `offset` in `buffer`, at a
/// multiple of 4 (Metal's alignment for argument buffers, and Vulkan's).
@inline(__always)
func checkIndirectArguments(_ buffer: Buffer, offset: Int, size: Int, call: StaticString) {
    guard offset >= 0, offset % 4 == 0 else {
        misuse("\(call): indirectBufferOffset \(offset) into the \(buffer.misuseDescription) is not a non-negative multiple of 4")
    }
    guard offset <= buffer.length, size <= buffer.length - offset else {
        misuse("\(call): \(size) bytes of arguments at indirectBufferOffset \(offset) do not fit the \(buffer.misuseDescription)")
    }
}
