import GPU

/// Metal's `MTLComputeCommandEncoder`; SwiftGPU's `ComputeCommandEncoder` conforms.
public protocol MTLComputeCommandEncoder: AnyObject {
    /// The encoder's label, for debugging tools.
    var label: String? { get set }
    /// The pipeline later dispatches run.
    func setComputePipelineState(_ state: any MTLComputePipelineState)
    /// Binds `buffer` at `offset` to buffer index `index` (`nil` is misuse: SwiftGPU unbinds nothing).
    func setBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int)
    /// Copies `length` bytes at `bytes` into the command buffer and binds them at `index`.
    func setBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int)
    /// Sets the length of the threadgroup memory at `index` (`[[threadgroup(index)]]`).
    func setThreadgroupMemoryLength(_ length: Int, index: Int)
    /// Runs `threadgroupsPerGrid` threadgroups of `threadsPerThreadgroup` threads.
    func dispatchThreadgroups(_ threadgroupsPerGrid: MTLSize, threadsPerThreadgroup: MTLSize)
    /// Runs `threadsPerGrid` threads in threadgroups of `threadsPerThreadgroup`.
    func dispatchThreads(_ threadsPerGrid: MTLSize, threadsPerThreadgroup: MTLSize)
    /// Ends the encoder.
    func endEncoding()
}

/// SwiftGPU's `ComputeCommandEncoder` as Metal's `MTLComputeCommandEncoder`.
extension ComputeCommandEncoder: MTLComputeCommandEncoder {
    /// Metal's `setComputePipelineState(_:)`; stops for a state SwiftGPU did not make.
    public func setComputePipelineState(_ state: any MTLComputePipelineState) {
        setComputePipelineState(own(state, as: ComputePipelineState.self, in: "setComputePipelineState(_:)"))
    }

    /// Metal's `setBuffer(_:offset:index:)`; stops for `nil` or a buffer SwiftGPU did not make.
    public func setBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int) {
        setBuffer(ownBuffer(buffer, index: index, in: "setBuffer(_:offset:index:)"), offset: offset, index: index)
    }
}
