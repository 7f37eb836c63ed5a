import GPU

/// Metal's `MTLSize`: SwiftGPU's `Size` has its shape.
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

/// Metal's `MTLOrigin`.
public typealias MTLOrigin = Origin
/// Metal's `MTLRegion`.
public typealias MTLRegion = Region
/// Metal's `MTLClearColor`.
public typealias MTLClearColor = ClearColor
/// Metal's `MTLPixelFormat`, with Metal's case names (`.bgra8Unorm`, `.depth32Float`, …).
public typealias MTLPixelFormat = PixelFormat
/// Metal's `MTLPrimitiveType`.
public typealias MTLPrimitiveType = PrimitiveType
/// Metal's `MTLLoadAction`.
public typealias MTLLoadAction = LoadAction
/// Metal's `MTLStoreAction`.
public typealias MTLStoreAction = StoreAction
/// Metal's `MTLTextureUsage`.
public typealias MTLTextureUsage = TextureUsage
/// Metal's `MTLTextureDescriptor`.
public typealias MTLTextureDescriptor = TextureDescriptor
/// Metal's `MTLVertexDescriptor`.
public typealias MTLVertexDescriptor = VertexDescriptor

/// Metal's `MTLOriginMake(_:_:_:)`.
public func MTLOriginMake(_ x: Int, _ y: Int, _ z: Int) -> MTLOrigin {
    MTLOrigin(x: x, y: y, z: z)
}

/// Metal's `MTLRegionMake2D(_:_:_:_:)`: the rectangle at (`x`, `y`) of `width` × `height`.
public func MTLRegionMake2D(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> MTLRegion {
    MTLRegion(x: x, y: y, width: width, height: height)
}

/// Metal's `MTLClearColorMake(_:_:_:_:)`.
public func MTLClearColorMake(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double) -> MTLClearColor {
    MTLClearColor(red: red, green: green, blue: blue, alpha: alpha)
}

/// Metal's factory of 2D texture descriptors.
extension TextureDescriptor {
    /// Metal's `texture2DDescriptor(pixelFormat:width:height:mipmapped:)`: a 2D texture's
    /// descriptor, with every mipmap level when `mipmapped`.
    public static func texture2DDescriptor(pixelFormat: MTLPixelFormat, width: Int, height: Int,
                                           mipmapped: Bool) -> MTLTextureDescriptor {
        texture2D(pixelFormat: pixelFormat, width: width, height: height, mipmapped: mipmapped)
    }
}
/// Metal's `MTLViewport`.
public typealias MTLViewport = Viewport
/// Metal's `MTLIndexType`.
public typealias MTLIndexType = IndexType
/// Metal's `MTLCullMode`.
public typealias MTLCullMode = CullMode
/// Metal's `MTLWinding`.
public typealias MTLWinding = Winding
