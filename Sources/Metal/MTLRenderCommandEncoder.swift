import GPU

/// Metal's `MTLRenderCommandEncoder`; SwiftGPU's `RenderCommandEncoder` conforms.
public protocol MTLRenderCommandEncoder: AnyObject {
    /// The encoder's label, for debugging tools.
    var label: String? { get set }
    /// The pipeline later draws use.
    func setRenderPipelineState(_ pipelineState: any MTLRenderPipelineState)
    /// Binds `buffer` at `offset` to vertex buffer index `index` (`nil` is misuse).
    func setVertexBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int)
    /// Copies `length` bytes at `bytes` into the command buffer for vertex buffer index `index`.
    func setVertexBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int)
    /// Binds `buffer` at `offset` to fragment buffer index `index` (`nil` is misuse).
    func setFragmentBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int)
    /// Copies `length` bytes at `bytes` into the command buffer for fragment buffer index `index`.
    func setFragmentBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int)
    /// Binds `texture` to fragment texture index `index` (`nil` is misuse).
    func setFragmentTexture(_ texture: (any MTLTexture)?, index: Int)
    /// Binds `sampler` to fragment sampler index `index` (`nil` is misuse).
    func setFragmentSamplerState(_ sampler: (any MTLSamplerState)?, index: Int)
    /// The depth and stencil tests later draws use.
    func setDepthStencilState(_ depthStencilState: (any MTLDepthStencilState)?)
    /// Binds `texture` to vertex texture index `index` (`nil` is misuse).
    func setVertexTexture(_ texture: (any MTLTexture)?, index: Int)
    /// The viewport later draws map to.
    func setViewport(_ viewport: MTLViewport)
    /// Which faces later draws discard.
    func setCullMode(_ cullMode: MTLCullMode)
    /// Which winding is a front face.
    func setFrontFacing(_ frontFacingWinding: MTLWinding)
    /// Draws `indexCount` indices of `indexType` read from `indexBuffer` at `indexBufferOffset`.
    func drawIndexedPrimitives(type primitiveType: MTLPrimitiveType, indexCount: Int, indexType: MTLIndexType,
                               indexBuffer: any MTLBuffer, indexBufferOffset: Int)
    /// Draws `instanceCount` instances of `indexCount` indices read from `indexBuffer`.
    func drawIndexedPrimitives(type primitiveType: MTLPrimitiveType, indexCount: Int, indexType: MTLIndexType,
                               indexBuffer: any MTLBuffer, indexBufferOffset: Int, instanceCount: Int)
    /// Draws `vertexCount` vertices from `vertexStart` as `primitiveType`.
    func drawPrimitives(type primitiveType: MTLPrimitiveType, vertexStart: Int, vertexCount: Int)
    /// Draws `instanceCount` instances of `vertexCount` vertices from `vertexStart`.
    func drawPrimitives(type primitiveType: MTLPrimitiveType, vertexStart: Int, vertexCount: Int, instanceCount: Int)
    /// Ends the encoder.
    func endEncoding()
}

/// SwiftGPU's `RenderCommandEncoder` as Metal's `MTLRenderCommandEncoder`.
extension RenderCommandEncoder: MTLRenderCommandEncoder {
    /// Metal's `setRenderPipelineState(_:)`; stops for a state SwiftGPU did not make.
    public func setRenderPipelineState(_ pipelineState: any MTLRenderPipelineState) {
        setRenderPipelineState(own(pipelineState, as: RenderPipelineState.self, in: "setRenderPipelineState(_:)"))
    }

    /// Metal's `setVertexBuffer(_:offset:index:)`; stops for `nil` or a buffer SwiftGPU did not make.
    public func setVertexBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int) {
        setVertexBuffer(ownBuffer(buffer, index: index, in: "setVertexBuffer(_:offset:index:)"), offset: offset, index: index)
    }

    /// Metal's `setFragmentBuffer(_:offset:index:)`; stops for `nil` or a buffer SwiftGPU did not make.
    public func setFragmentBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int) {
        setFragmentBuffer(ownBuffer(buffer, index: index, in: "setFragmentBuffer(_:offset:index:)"), offset: offset, index: index)
    }

    /// Metal's `setFragmentTexture(_:index:)`; stops for `nil` or a texture SwiftGPU did not make.
    public func setFragmentTexture(_ texture: (any MTLTexture)?, index: Int) {
        setFragmentTexture(ownTexture(texture, index: index, in: "setFragmentTexture(_:index:)"), index: index)
    }

    /// Metal's `setVertexTexture(_:index:)`; stops for `nil` or a texture SwiftGPU did not make.
    public func setVertexTexture(_ texture: (any MTLTexture)?, index: Int) {
        setVertexTexture(ownTexture(texture, index: index, in: "setVertexTexture(_:index:)"), index: index)
    }

    /// Metal's `drawIndexedPrimitives(type:indexCount:indexType:indexBuffer:indexBufferOffset:)`;
    /// stops for an index buffer SwiftGPU did not make.
    public func drawIndexedPrimitives(type primitiveType: MTLPrimitiveType, indexCount: Int, indexType: MTLIndexType,
                                      indexBuffer: any MTLBuffer, indexBufferOffset: Int) {
        drawIndexedPrimitives(type: primitiveType, indexCount: indexCount, indexType: indexType, indexBuffer: indexBuffer,
                              indexBufferOffset: indexBufferOffset, instanceCount: 1)
    }

    /// Metal's `drawIndexedPrimitives(type:indexCount:indexType:indexBuffer:indexBufferOffset:instanceCount:)`;
    /// stops for an index buffer SwiftGPU did not make.
    public func drawIndexedPrimitives(type primitiveType: MTLPrimitiveType, indexCount: Int, indexType: MTLIndexType,
                                      indexBuffer: any MTLBuffer, indexBufferOffset: Int, instanceCount: Int) {
        let call = "drawIndexedPrimitives(type:indexCount:indexType:indexBuffer:indexBufferOffset:)"
        drawIndexedPrimitives(type: primitiveType, indexCount: indexCount, indexType: indexType,
                              indexBuffer: own(indexBuffer, as: Buffer.self, in: call), indexBufferOffset: indexBufferOffset,
                              instanceCount: instanceCount, baseVertex: 0, baseInstance: 0)
    }

    /// Metal's `setFragmentSamplerState(_:index:)`; stops for `nil` or a sampler SwiftGPU did not make.
    public func setFragmentSamplerState(_ sampler: (any MTLSamplerState)?, index: Int) {
        let call = "setFragmentSamplerState(_:index:)"
        guard let sampler else { misuse("\(call): nil sampler at index \(index); SwiftGPU does not unbind") }
        setFragmentSamplerState(own(sampler, as: SamplerState.self, in: call), index: index)
    }

    /// Metal's `setDepthStencilState(_:)`; stops for `nil` or a state SwiftGPU did not make.
    public func setDepthStencilState(_ depthStencilState: (any MTLDepthStencilState)?) {
        let call = "setDepthStencilState(_:)"
        guard let depthStencilState else { misuse("\(call): nil state; SwiftGPU does not unset it") }
        setDepthStencilState(own(depthStencilState, as: DepthStencilState.self, in: call))
    }

    /// Metal's `drawPrimitives(type:vertexStart:vertexCount:)`.
    public func drawPrimitives(type primitiveType: MTLPrimitiveType, vertexStart: Int, vertexCount: Int) {
        drawPrimitives(type: primitiveType, vertexStart: vertexStart, vertexCount: vertexCount, instanceCount: 1,
                       baseInstance: 0)
    }

    /// Metal's `drawPrimitives(type:vertexStart:vertexCount:instanceCount:)`.
    public func drawPrimitives(type primitiveType: MTLPrimitiveType, vertexStart: Int, vertexCount: Int,
                               instanceCount: Int) {
        drawPrimitives(type: primitiveType, vertexStart: vertexStart, vertexCount: vertexCount,
                       instanceCount: instanceCount, baseInstance: 0)
    }
}
