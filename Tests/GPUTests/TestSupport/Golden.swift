import Foundation
import PNG
import Testing

/// Golden-image comparison. A render matches its reference PNG in `Tests/GPUTests/Golden/`
/// when no channel of any pixel differs by more than `channelTolerance`, except for at
/// most `maxDifferingShare` of the pixels. On a mismatch the actual image and a diff
/// (differing pixels red) are written to `.build/golden-failures/` and named in the
/// failure. `GPU_RECORD_GOLDENS=1` writes missing references instead (check them by eye).
enum Golden {
    /// Largest per-channel difference that still counts as equal (rasterisation and
    /// filtering rounding across drivers).
    static let channelTolerance = 4
    /// Share of pixels allowed beyond the tolerance (edge coverage differences).
    static let maxDifferingShare = 0.005

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden")
    static let failures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/golden-failures")

    static func expectMatch(_ pixels: [UInt8], width: Int, height: Int, name: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = Image(width: width, height: height, pixels: pixels)
        let reference = directory.appendingPathComponent("\(name).png")
        guard FileManager.default.fileExists(atPath: reference.path) else {
            if ProcessInfo.processInfo.environment["GPU_RECORD_GOLDENS"] == "1" {
                try actual.writePNG(to: reference)
                Issue.record("recorded a new reference \(reference.path); check it by eye", sourceLocation: sourceLocation)
            } else {
                Issue.record("no reference image \(reference.path) (GPU_RECORD_GOLDENS=1 records one)", sourceLocation: sourceLocation)
            }
            return
        }
        let expected = try Image(contentsOfPNG: reference)
        guard let difference = actual.difference(from: expected, tolerance: channelTolerance) else {
            Issue.record("\(name): size \(width)×\(height) differs from the reference's \(expected.width)×\(expected.height)",
                         sourceLocation: sourceLocation)
            return
        }
        guard difference.differingShare <= maxDifferingShare else {
            try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
            let actualURL = failures.appendingPathComponent("\(name)-actual.png")
            let diffURL = failures.appendingPathComponent("\(name)-diff.png")
            try actual.writePNG(to: actualURL)
            try difference.diffImage.writePNG(to: diffURL)
            Issue.record("""
                \(name) differs from its reference: \(difference.differingPixels) pixels \
                (\(String(format: "%.2f", difference.differingShare * 100))%) beyond ±\(channelTolerance), largest \
                difference \(difference.largestChannelDifference); actual: \(actualURL.path), diff: \(diffURL.path)
                """, sourceLocation: sourceLocation)
            return
        }
    }
}
