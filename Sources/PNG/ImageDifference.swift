/// Comparison of two images with a tolerance, for golden tests.
public struct ImageDifference: Sendable {
    /// The largest `|actual - expected|` over all pixels and all four channels.
    public var largestChannelDifference: Int
    /// The number of pixels where some channel differs by more than the tolerance.
    public var differingPixels: Int
    /// `differingPixels` as a share of all pixels, 0 to 1 (0 for an empty image).
    public var differingShare: Double
    /// A picture of the difference: differing pixels opaque red (255, 0, 0, 255), every
    /// other pixel the expected image's colour at a quarter of its brightness, alpha 255.
    public var diffImage: Image
}

extension Image {
    /// Compares this image, the actual one, with `expected`; sizes must match (returns nil
    /// if they differ). A pixel differs when any channel, alpha included, is more than
    /// `tolerance` away from the expected value.
    public func difference(from expected: Image, tolerance: Int) -> ImageDifference? {
        guard width == expected.width, height == expected.height else { return nil }
        let count = width * height
        var largest = 0
        var differing = 0
        var diff = [UInt8](repeating: 255, count: count * 4)
        for pixel in 0..<count {
            let i = pixel * 4
            var worst = 0
            for channel in i..<(i + 4) {
                worst = Swift.max(worst, abs(Int(pixels[channel]) - Int(expected.pixels[channel])))
            }
            largest = Swift.max(largest, worst)
            if worst > tolerance {
                differing += 1
                diff[i] = 255
                diff[i + 1] = 0
                diff[i + 2] = 0
            } else {
                diff[i] = expected.pixels[i] / 4
                diff[i + 1] = expected.pixels[i + 1] / 4
                diff[i + 2] = expected.pixels[i + 2] / 4
            }
        }
        return ImageDifference(
            largestChannelDifference: largest,
            differingPixels: differing,
            differingShare: count == 0 ? 0 : Double(differing) / Double(count),
            diffImage: Image(width: width, height: height, pixels: diff))
    }
}
