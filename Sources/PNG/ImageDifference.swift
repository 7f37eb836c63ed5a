/// How two images differ, for golden-image tests.
public struct ImageDifference: Sendable {
    /// The largest difference of any channel of any pixel.
    public var largestChannelDifference: Int
    /// Pixels where some channel differs by more than the tolerance.
    public var differingPixels: Int
    /// `differingPixels` as a share of all pixels.
    public var differingShare: Double
    /// Differing pixels red, the rest the expected image at a quarter brightness.
    public var diffImage: Image
}

extension Image {
    /// Compares with `expected`, pixel by pixel; nil when the sizes differ.
    public func difference(from expected: Image, tolerance: Int) -> ImageDifference? {
        guard width == expected.width, height == expected.height else { return nil }
        var largest = 0
        var differing = 0
        var diff = [UInt8](repeating: 255, count: pixels.count)
        for pixel in 0..<(width * height) {
            let i = pixel * 4
            var worst = 0
            for channel in 0..<4 { worst = Swift.max(worst, abs(Int(pixels[i + channel]) - Int(expected.pixels[i + channel]))) }
            largest = Swift.max(largest, worst)
            if worst > tolerance {
                differing += 1
                (diff[i], diff[i + 1], diff[i + 2]) = (255, 0, 0)
            } else {
                for channel in 0..<3 { diff[i + channel] = expected.pixels[i + channel] / 4 }
            }
        }
        return ImageDifference(largestChannelDifference: largest, differingPixels: differing,
                               differingShare: Double(differing) / Double(width * height),
                               diffImage: Image(width: width, height: height, pixels: diff))
    }
}
