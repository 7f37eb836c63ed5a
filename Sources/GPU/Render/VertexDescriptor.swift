/// The layout of one vertex attribute in memory, Metal's `MTLVertexFormat` (a subset).
public enum VertexFormat: Sendable, Hashable {
    /// One 32-bit float.
    case float
    /// Two 32-bit floats.
    case float2
    /// Three 32-bit floats.
    case float3
    /// Four 32-bit floats.
    case float4
    /// Four unsigned bytes read as [0, 1].
    case uchar4Normalized
    /// One 32-bit unsigned integer.
    case uint
    /// One 32-bit signed integer.
    case int
    /// Two unsigned bytes, read as integers (a shader's `uchar2`, or `uint2`).
    case uchar2
    /// Four unsigned bytes, read as integers (a shader's `uchar4`, or `uint4`).
    case uchar4
    /// Two signed bytes, read as integers (a shader's `char2`, or `int2`).
    case char2
    /// Four signed bytes, read as integers (a shader's `char4`, or `int4`).
    case char4
    /// Two unsigned 16-bit integers (a shader's `ushort2`, or `uint2`).
    case ushort2
    /// Four unsigned 16-bit integers (a shader's `ushort4`, or `uint4`).
    case ushort4
    /// Two signed 16-bit integers (a shader's `short2`, or `int2`).
    case short2
    /// Four signed 16-bit integers (a shader's `short4`, or `int4`).
    case short4

    /// Size in bytes.
    public var size: Int {
        switch self {
        case .uchar2, .char2: 2
        case .float, .uchar4Normalized, .uint, .int, .uchar4, .char4, .ushort2, .short2: 4
        case .float2, .ushort4, .short4: 8
        case .float3: 12
        case .float4: 16
        }
    }
}

/// How often a vertex buffer advances.
public enum VertexStepFunction: Sendable, Hashable {
    /// Per vertex.
    case perVertex
    /// Per instance.
    case perInstance
}

/// One attribute: where its data is, Metal's `MTLVertexAttributeDescriptor`.
public final class VertexAttributeDescriptor {
    /// The format.
    public var format: VertexFormat?
    /// Byte offset within a vertex.
    public var offset = 0
    /// The buffer index the data comes from.
    public var bufferIndex = 0
    init() {}
}

/// One vertex buffer's stride and step, Metal's `MTLVertexBufferLayoutDescriptor`.
public final class VertexBufferLayoutDescriptor {
    /// Bytes between vertices (0: unused layout).
    public var stride = 0
    /// Per vertex or per instance.
    public var stepFunction = VertexStepFunction.perVertex
    /// Instances per step (per-instance only; 1).
    public var stepRate = 1
    init() {}
}

/// Vertex attribute and buffer layouts, Metal's `MTLVertexDescriptor`. Attribute `i`
/// feeds the vertex shader's input at `location = i`.
public final class VertexDescriptor {
    /// Attributes by location (0–15).
    public let attributes = (0..<16).map { _ in VertexAttributeDescriptor() }
    /// Buffer layouts by buffer index (0–30).
    public let layouts = (0..<31).map { _ in VertexBufferLayoutDescriptor() }
    /// Makes an empty descriptor.
    public init() {}
}
