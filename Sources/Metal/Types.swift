import GPU

/// Metal's `MTLSize`: SwiftGPU's ``GPU/Size`` has its shape.
public typealias MTLSize = Size
/// Metal's `MTLResourceOptions`: SwiftGPU's option set of the same names.
public typealias MTLResourceOptions = ResourceOptions
/// Metal's `MTLCompileOptions`: run-time compile options of GLSL sources.
public typealias MTLCompileOptions = CompileOptions
/// Metal's `MTLCommandBufferStatus`.
public typealias MTLCommandBufferStatus = CommandBufferStatus

/// Metal's `MTLSizeMake(_:_:_:)`.
public func MTLSizeMake(_ width: Int, _ height: Int, _ depth: Int) -> MTLSize {
    MTLSize(width: width, height: height, depth: depth)
}
