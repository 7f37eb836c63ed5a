import GPU

/// Metal's `MTLDevice`: a GPU, which makes queues, buffers, libraries and pipelines.
/// SwiftGPU's `Device` conforms; factories that return `nil` in Metal return `nil`
/// here, with the reason logged.
public protocol MTLDevice: AnyObject, Sendable {
    /// The device's name.
    var name: String { get }
    /// A new command queue, or `nil`.
    func makeCommandQueue() -> (any MTLCommandQueue)?
    /// A new command queue of at most `maxCommandBufferCount` uncompleted buffers, or `nil`.
    func makeCommandQueue(maxCommandBufferCount: Int) -> (any MTLCommandQueue)?
    /// A new zero-filled buffer of `length` bytes, or `nil`.
    func makeBuffer(length: Int, options: MTLResourceOptions) -> (any MTLBuffer)?
    /// A new buffer holding a copy of `length` bytes at `pointer`, or `nil`.
    func makeBuffer(bytes pointer: UnsafeRawPointer, length: Int, options: MTLResourceOptions) -> (any MTLBuffer)?
    /// The library of the app's bundled shaders, or `nil`.
    func makeDefaultLibrary() -> (any MTLLibrary)?
    /// A library compiled at run time from (GLSL) `source`; throws the compiler's messages.
    func makeLibrary(source: String, options: MTLCompileOptions?) throws -> any MTLLibrary
    /// A compute pipeline of `function`; throws where it cannot be made.
    func makeComputePipelineState(function: any MTLFunction) throws -> any MTLComputePipelineState
    /// A render pipeline of `descriptor`; throws where it cannot be made.
    func makeRenderPipelineState(descriptor: MTLRenderPipelineDescriptor) throws -> any MTLRenderPipelineState
    /// A new texture of `descriptor`, or `nil` (the reason logged).
    func makeTexture(descriptor: MTLTextureDescriptor) -> (any MTLTexture)?
    /// A new sampler of `descriptor`, or `nil` (the reason logged).
    func makeSamplerState(descriptor: MTLSamplerDescriptor) -> (any MTLSamplerState)?
    /// A new depth and stencil state of `descriptor`.
    func makeDepthStencilState(descriptor: MTLDepthStencilDescriptor) -> (any MTLDepthStencilState)?
}

/// Metal's `MTLCreateSystemDefaultDevice()`: the default device, or `nil` (the reason logged).
public func MTLCreateSystemDefaultDevice() -> (any MTLDevice)? {
    madeOrNil("MTLCreateSystemDefaultDevice()") { () throws(GPUError) in try Device.makeDefault() }
}

/// Metal's `MTLCopyAllDevices()`: every usable device (none, the reason logged, where they
/// cannot be listed).
public func MTLCopyAllDevices() -> [any MTLDevice] {
    madeOrNil("MTLCopyAllDevices()") { () throws(GPUError) in try Device.all() } ?? []
}

/// SwiftGPU's `Device` as Metal's `MTLDevice`.
extension Device: MTLDevice {
    /// Metal's `makeCommandQueue()`: a queue, or `nil` with the reason logged.
    public func makeCommandQueue() -> (any MTLCommandQueue)? {
        madeOrNil("makeCommandQueue()") { () throws(GPUError) -> CommandQueue in try makeCommandQueue(label: nil) }
    }

    /// Metal's `makeCommandQueue(maxCommandBufferCount:)`: a queue, or `nil` with the reason logged.
    public func makeCommandQueue(maxCommandBufferCount: Int) -> (any MTLCommandQueue)? {
        madeOrNil("makeCommandQueue(maxCommandBufferCount:)") { () throws(GPUError) -> CommandQueue in
            try makeCommandQueue(maxCommandBufferCount: maxCommandBufferCount, label: nil)
        }
    }

    /// Metal's `makeBuffer(length:options:)`: a buffer, or `nil` with the reason logged.
    public func makeBuffer(length: Int, options: MTLResourceOptions) -> (any MTLBuffer)? {
        madeOrNil("makeBuffer(length:options:)") { () throws(GPUError) -> Buffer in
            try makeBuffer(length: length, options: options)
        }
    }

    /// Metal's `makeBuffer(bytes:length:options:)`: a buffer, or `nil` with the reason logged.
    public func makeBuffer(bytes pointer: UnsafeRawPointer, length: Int, options: MTLResourceOptions) -> (any MTLBuffer)? {
        madeOrNil("makeBuffer(bytes:length:options:)") { () throws(GPUError) -> Buffer in
            try makeBuffer(bytes: pointer, length: length, options: options)
        }
    }

    /// Metal's `makeDefaultLibrary()`: the bundled shaders, or `nil` with the reason logged.
    public func makeDefaultLibrary() -> (any MTLLibrary)? {
        madeOrNil("makeDefaultLibrary()") { () throws(LibraryError) -> Library in try makeDefaultLibrary() }
    }

    /// Metal's `makeLibrary(source:options:)`, with GLSL for source (see the GPU module's
    /// `makeLibrary(source:options:)`).
    public func makeLibrary(source: String, options: MTLCompileOptions?) throws -> any MTLLibrary {
        let library: Library = try makeLibrary(source: source, options: options)
        return library
    }

    /// Metal's `makeComputePipelineState(function:)`; stops for a function SwiftGPU did not make.
    public func makeComputePipelineState(function: any MTLFunction) throws -> any MTLComputePipelineState {
        let function = own(function, as: Function.self, in: "makeComputePipelineState(function:)")
        let state: ComputePipelineState = try makeComputePipelineState(function: function)
        return state
    }

    /// Metal's `makeRenderPipelineState(descriptor:)`; stops for a function SwiftGPU did not make.
    public func makeRenderPipelineState(descriptor: MTLRenderPipelineDescriptor) throws -> any MTLRenderPipelineState {
        let state: RenderPipelineState = try makeRenderPipelineState(
            descriptor: descriptor.resolved(in: "makeRenderPipelineState(descriptor:)"))
        return state
    }

    /// Metal's `makeTexture(descriptor:)`: a texture, or `nil` with the reason logged.
    public func makeTexture(descriptor: MTLTextureDescriptor) -> (any MTLTexture)? {
        madeOrNil("makeTexture(descriptor:)") { () throws(GPUError) -> Texture in try makeTexture(descriptor: descriptor) }
    }

    /// Metal's `makeSamplerState(descriptor:)`: a sampler, or `nil` with the reason logged.
    public func makeSamplerState(descriptor: MTLSamplerDescriptor) -> (any MTLSamplerState)? {
        madeOrNil("makeSamplerState(descriptor:)") { () throws(GPUError) -> SamplerState in
            try makeSamplerState(descriptor: descriptor)
        }
    }

    /// Metal's `makeDepthStencilState(descriptor:)`, optional as Metal's.
    public func makeDepthStencilState(descriptor: MTLDepthStencilDescriptor) -> (any MTLDepthStencilState)? {
        let state: DepthStencilState = makeDepthStencilState(descriptor: descriptor)
        return state
    }
}
