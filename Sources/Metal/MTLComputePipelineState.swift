import GPU

/// Metal's `MTLComputePipelineState`; SwiftGPU's `ComputePipelineState` conforms.
public protocol MTLComputePipelineState: AnyObject, Sendable {
    /// The most threads a threadgroup of this pipeline may have.
    var maxTotalThreadsPerThreadgroup: Int { get }
    /// The number of threads the GPU runs together (the subgroup size).
    var threadExecutionWidth: Int { get }
}

/// SwiftGPU's `ComputePipelineState` as Metal's `MTLComputePipelineState`.
extension ComputePipelineState: MTLComputePipelineState {}
