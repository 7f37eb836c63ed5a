import GPU

/// Metal's `MTLSamplerDescriptor`.
public typealias MTLSamplerDescriptor = SamplerDescriptor
/// Metal's `MTLSamplerMinMagFilter`.
public typealias MTLSamplerMinMagFilter = SamplerMinMagFilter

/// Metal's `MTLSamplerState`; SwiftGPU's `SamplerState` conforms.
public protocol MTLSamplerState: AnyObject, Sendable {}

/// SwiftGPU's `SamplerState` as Metal's `MTLSamplerState`.
extension SamplerState: MTLSamplerState {}
