/// What a draw assembles vertices into.
public enum PrimitiveType: Sendable, Hashable {
    /// Each vertex a point.
    case point
    /// Each pair a line.
    case line
    /// A connected line.
    case lineStrip
    /// Each three vertices a triangle.
    case triangle
    /// A connected strip of triangles.
    case triangleStrip
}

/// The class of primitives a render pipeline draws (Metal's `MTLPrimitiveTopologyClass`).
public enum PrimitiveTopologyClass: Sendable, Hashable {
    /// Points.
    case point
    /// Lines and line strips.
    case line
    /// Triangles and triangle strips.
    case triangle
}

/// The type of an index buffer's elements.
public enum IndexType: Sendable, Hashable {
    /// 16-bit indices.
    case uint16
    /// 32-bit indices.
    case uint32
}

/// Which faces are culled.
public enum CullMode: Sendable, Hashable {
    /// None.
    case none
    /// Front faces.
    case front
    /// Back faces.
    case back
}

/// Which winding is front-facing.
public enum Winding: Sendable, Hashable {
    /// Clockwise in framebuffer coordinates (Metal's default).
    case clockwise
    /// Counter-clockwise.
    case counterClockwise
}

/// A viewport, Metal's `MTLViewport`.
public struct Viewport: Sendable, Hashable {
    /// Left edge, in pixels.
    public var originX: Double
    /// Top edge, in pixels.
    public var originY: Double
    /// Width, in pixels.
    public var width: Double
    /// Height, in pixels.
    public var height: Double
    /// Depth mapped from clip z = 0.
    public var znear: Double
    /// Depth mapped from clip z = 1.
    public var zfar: Double
    /// Makes a viewport.
    public init(originX: Double, originY: Double, width: Double, height: Double, znear: Double, zfar: Double) {
        self.originX = originX; self.originY = originY; self.width = width; self.height = height
        self.znear = znear; self.zfar = zfar
    }
}

/// A scissor rectangle, Metal's `MTLScissorRect`.
public struct ScissorRect: Sendable, Hashable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int
    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
}

/// An RGBA clear colour, Metal's `MTLClearColor`.
public struct ClearColor: Sendable, Hashable {
    /// Red.
    public var red: Double
    /// Green.
    public var green: Double
    /// Blue.
    public var blue: Double
    /// Alpha.
    public var alpha: Double
    /// Makes a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
}

/// Blend factors, Metal's `MTLBlendFactor`.
public enum BlendFactor: Sendable, Hashable {
    /// 0.
    case zero
    /// 1.
    case one
    /// Source colour.
    case sourceColor
    /// 1 − source colour.
    case oneMinusSourceColor
    /// Source alpha.
    case sourceAlpha
    /// 1 − source alpha.
    case oneMinusSourceAlpha
    /// Destination colour.
    case destinationColor
    /// 1 − destination colour.
    case oneMinusDestinationColor
    /// Destination alpha.
    case destinationAlpha
    /// 1 − destination alpha.
    case oneMinusDestinationAlpha
}

/// Blend operations, Metal's `MTLBlendOperation`.
public enum BlendOperation: Sendable, Hashable {
    /// source + destination.
    case add
    /// source − destination.
    case subtract
    /// destination − source.
    case reverseSubtract
    /// min(source, destination).
    case min
    /// max(source, destination).
    case max
}

/// Which colour channels a pipeline writes.
public struct ColorWriteMask: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: UInt
    /// Wraps raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Red.
    public static let red = ColorWriteMask(rawValue: 1 << 0)
    /// Green.
    public static let green = ColorWriteMask(rawValue: 1 << 1)
    /// Blue.
    public static let blue = ColorWriteMask(rawValue: 1 << 2)
    /// Alpha.
    public static let alpha = ColorWriteMask(rawValue: 1 << 3)
    /// All four.
    public static let all: ColorWriteMask = [.red, .green, .blue, .alpha]
}
