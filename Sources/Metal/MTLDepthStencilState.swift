import GPU

/// Metal's `MTLDepthStencilDescriptor`.
public typealias MTLDepthStencilDescriptor = DepthStencilDescriptor
/// Metal's `MTLCompareFunction`.
public typealias MTLCompareFunction = CompareFunction

/// Metal's `MTLDepthStencilState`; SwiftGPU's `DepthStencilState` conforms.
public protocol MTLDepthStencilState: AnyObject, Sendable {}

/// SwiftGPU's `DepthStencilState` as Metal's `MTLDepthStencilState`.
extension DepthStencilState: MTLDepthStencilState {}
