/// The device's limits that SwiftGPU checks arguments against before any driver call, read
/// once when the device opens.
struct DeviceLimits: Sendable {
    /// Largest width of a 1D texture.
    var maxImageDimension1D: Int
    /// Largest width and height of a 2D texture.
    var maxImageDimension2D: Int
    /// Largest width, height and depth of a 3D texture.
    var maxImageDimension3D: Int
    /// Largest width and height of a cube texture.
    var maxImageDimensionCube: Int
    /// Most slices of an array texture.
    var maxImageArrayLayers: Int
    /// Largest local size of a compute shader, per dimension.
    var maxThreadsPerThreadgroup: Size
    /// Most invocations in one threadgroup.
    var maxTotalThreadsPerThreadgroup: Int
    /// Threads the device runs in lockstep (the subgroup size).
    var threadExecutionWidth: Int
    /// Most threadgroups of one dispatch per dimension (larger grids are split).
    var maxThreadgroupsPerGrid: Size
    /// Largest viewport width and height.
    var maxViewportWidth: Int
    /// Largest viewport height.
    var maxViewportHeight: Int
    /// The range a viewport's corners must lie in.
    var viewportBounds: ClosedRange<Double>
    /// Largest sampler LOD bias magnitude.
    var maxSamplerLodBias: Float
    /// Largest sampler anisotropy.
    var maxSamplerAnisotropy: Float
    /// Alignment of a storage buffer bound at an offset.
    var storageBufferOffsetAlignment: Int
    /// Alignment of a uniform buffer bound at an offset.
    var uniformBufferOffsetAlignment: Int
    /// Largest render target width.
    var maxFramebufferWidth: Int
    /// Largest render target height.
    var maxFramebufferHeight: Int
    /// Most color attachments of a render pass.
    var maxColorAttachments: Int
    /// Largest single allocation, so the largest buffer.
    var maxBufferLength: Int
    /// Largest offset of a vertex attribute in its vertex.
    var maxVertexAttributeOffset: Int
    /// Largest vertex buffer stride.
    var maxVertexBufferStride: Int
    /// Scalar components a vertex shader may write.
    var maxVertexOutputComponents: Int
    /// Scalar components a fragment shader may read.
    var maxFragmentInputComponents: Int
    /// Bytes of push constants a pipeline may declare.
    var maxPushConstantBytes: Int
    /// Bytes of threadgroup (workgroup) memory a compute pipeline may declare.
    var maxThreadgroupMemoryLength: Int
}

extension Device {
    /// Metal's `maxThreadsPerThreadgroup`: the largest threadgroup per dimension.
    public var maxThreadsPerThreadgroup: Size { limits.maxThreadsPerThreadgroup }
    /// Metal's `maxBufferLength`: the largest buffer this device makes, in bytes.
    public var maxBufferLength: Int { limits.maxBufferLength }
    /// Metal's `maxThreadgroupMemoryLength`: the most threadgroup memory (GLSL `shared`)
    /// a compute pipeline may use, in bytes (`maxComputeSharedMemorySize`).
    public var maxThreadgroupMemoryLength: Int { limits.maxThreadgroupMemoryLength }

    /// The most memory private to one invocation (GLSL globals and locals, Metal's
    /// `thread` address space) a function may declare, in bytes: 64 KiB on every device.
    ///
    /// Vulkan states no such limit and drivers do not check one: lavapipe compiled a
    /// shader with a 64 MiB local array and then never finished making its pipeline.
    /// SwiftGPU refuses a function over this bound when a pipeline is made from it (a
    /// `LibraryError.unsupportedModule` naming both sizes), before the driver sees it.
    /// Shaders keep a few kilobytes per invocation; data larger than this belongs in a
    /// buffer or threadgroup memory.
    public var maxPrivateMemoryLength: Int { 64 * 1024 }
}
