import Foundation
import PNG
import Testing

@Suite("PNG")
struct PNGTests {
    static func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString)-\(name)")
    }

    static let gradient: Image = {
        var image = Image(width: 37, height: 23, fill: (0, 0, 0, 0))
        for y in 0..<23 { for x in 0..<37 { image[x, y] = (UInt8(x * 6), UInt8(y * 11), UInt8((x + y) % 256), UInt8(255 - x * 3)) } }
        return image
    }()

    @Test("write then read gives the same pixels, through a file and through memory")
    func roundTrip() throws {
        let url = Self.scratch("gradient.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.gradient.writePNG(to: url)
        #expect(try Image(contentsOfPNG: url) == Self.gradient)
        #expect(try Image(pngData: Self.gradient.pngData()) == Self.gradient)
    }

    @Test("garbage, truncated and missing files throw readable errors")
    func badInput() throws {
        let garbage = Self.scratch("garbage.png")
        let truncated = Self.scratch("truncated.png")
        defer { [garbage, truncated].forEach { try? FileManager.default.removeItem(at: $0) } }
        try Data((0..<500).map { UInt8(truncatingIfNeeded: $0 * 13) }).write(to: garbage)
        let data = try Self.gradient.pngData()
        try data.prefix(data.count / 2).write(to: truncated)
        for url in [garbage, truncated, Self.scratch("missing.png")] {
            do {
                _ = try Image(contentsOfPNG: url)
                Issue.record("\(url.lastPathComponent) was read")
            } catch {
                #expect(error.path == url.path)
                #expect(!error.message.isEmpty)
                #expect("\(error)".hasPrefix(url.path))
            }
        }
    }

    @Test("difference: identical, one pixel off, and different sizes")
    func difference() {
        let same = Self.gradient.difference(from: Self.gradient, tolerance: 2)
        #expect(same?.largestChannelDifference == 0 && same?.differingPixels == 0)
        var changed = Self.gradient
        changed[5, 7] = (changed[5, 7].r &+ 3, changed[5, 7].g, changed[5, 7].b, changed[5, 7].a)
        let one = changed.difference(from: Self.gradient, tolerance: 2)
        #expect(one?.differingPixels == 1 && one?.largestChannelDifference == 3)
        #expect(one.map { $0.diffImage[5, 7] == (255, 0, 0, 255) } == true)
        #expect(Image(width: 2, height: 2, fill: (0, 0, 0, 0)).difference(from: Self.gradient, tolerance: 0) == nil)
    }
}
