/// An 8-bit RGBA image in memory, rows top to bottom, no padding.
public struct Image: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The pixels, `width * height * 4` bytes: R, G, B, A for each pixel, row after row
    /// from the top, with no padding between rows.
    public var pixels: [UInt8]

    /// Wraps existing pixels. Stops the program unless the sizes are non-negative and
    /// `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "Image: negative size \(width)×\(height)")
        precondition(pixels.count == width * height * 4,
                     "Image: \(pixels.count) bytes for \(width)×\(height) RGBA, expected \(width * height * 4)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        precondition(width >= 0 && height >= 0, "Image: negative size \(width)×\(height)")
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = fill.r
            pixels[i + 1] = fill.g
            pixels[i + 2] = fill.b
            pixels[i + 3] = fill.a
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixel in column `x`, row `y` (row 0 is the top). Both must be in range.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        get {
            let i = offset(x, y)
            return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = offset(x, y)
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    private func offset(_ x: Int, _ y: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height,
                     "Image: pixel (\(x), \(y)) outside \(width)×\(height)")
        return (y * width + x) * 4
    }
}
