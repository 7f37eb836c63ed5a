import Foundation
import PNG
import Testing

@Suite("PNG")
struct PNGTests {
    /// A fresh path in the temporary directory; nothing is created there.
    static func scratchURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("png-tests-\(UUID().uuidString)-\(name)")
    }

    /// 37×23, every channel varying, alpha from 0 up to 255 (colour kept under alpha 0).
    static let gradient: Image = {
        var image = Image(width: 37, height: 23, fill: (0, 0, 0, 0))
        for y in 0..<23 {
            for x in 0..<37 {
                image[x, y] = (UInt8(x * 7), UInt8(y * 11), UInt8((x * 5 + y * 3) % 256), UInt8(min(255, (x + y) * 5)))
            }
        }
        return image
    }()

    /// Asserts that reading `url` throws a PNGError naming the file, and returns it.
    static func expectReadFailure(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) -> PNGError? {
        do {
            let image = try Image(contentsOfPNG: url)
            Issue.record("\(url.lastPathComponent) was read as a \(image.width)×\(image.height) image",
                         sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.path == url.path, sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
            #expect(error.description.contains(url.path), sourceLocation: sourceLocation)
            return error
        }
    }

    // MARK: Round trips

    @Test("a 37×23 gradient with alpha survives writePNG and init(contentsOfPNG:) exactly")
    func fileRoundTrip() throws {
        let url = Self.scratchURL("gradient.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.gradient.writePNG(to: url)
        let read = try Image(contentsOfPNG: url)
        #expect(read.width == 37 && read.height == 23)
        #expect(read == Self.gradient)
    }

    @Test("pngData() and init(pngData:) round-trip exactly, and the bytes are a PNG")
    func memoryRoundTrip() throws {
        let data = try Self.gradient.pngData()
        #expect(data.prefix(8) == Data([137, 80, 78, 71, 13, 10, 26, 10]))
        #expect(try Image(pngData: data) == Self.gradient)
    }

    @Test("pngData() gives the same bytes as writePNG, for a 300×200 image that does not compress")
    func memoryMatchesFile() throws {
        let url = Self.scratchURL("noise.png")
        defer { try? FileManager.default.removeItem(at: url) }
        var state: UInt32 = 12345
        let noise = Image(width: 300, height: 200, pixels: (0..<(300 * 200 * 4)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        })
        try noise.writePNG(to: url)
        let data = try noise.pngData()
        #expect(data == (try Data(contentsOf: url)))
        #expect(try Image(pngData: data) == noise)
    }

    @Test("writePNG replaces an existing file")
    func overwrite() throws {
        let url = Self.scratchURL("overwrite.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.gradient.writePNG(to: url)
        let small = Image(width: 2, height: 1, fill: (1, 2, 3, 4))
        try small.writePNG(to: url)
        #expect(try Image(contentsOfPNG: url) == small)
    }

    // MARK: Conversion of other PNG formats

    @Test("8-bit RGBA from an independent encoder decodes exactly (checks the test encoder)")
    func independentRGBA() throws {
        let rows = (0..<23).map { y in (0..<37).flatMap { x in [Self.gradient[x, y].r, Self.gradient[x, y].g,
                                                                 Self.gradient[x, y].b, Self.gradient[x, y].a] } }
        let data = MinimalPNGEncoder.encode(width: 37, height: 23, bitDepth: 8, colorType: 6, rows: rows)
        #expect(try Image(pngData: data) == Self.gradient)
    }

    @Test("grey, grey with alpha, 1-bit grey, palette with tRNS and 16-bit RGB all become RGBA8")
    func conversions() throws {
        let grey = try Image(pngData: MinimalPNGEncoder.encode(width: 3, height: 1, bitDepth: 8, colorType: 0,
                                                               rows: [[0, 100, 255]]))
        #expect(grey == Image(width: 3, height: 1, pixels: [0, 0, 0, 255, 100, 100, 100, 255, 255, 255, 255, 255]))

        let greyAlpha = try Image(pngData: MinimalPNGEncoder.encode(width: 2, height: 1, bitDepth: 8, colorType: 4,
                                                                    rows: [[200, 128, 60, 0]]))
        #expect(greyAlpha == Image(width: 2, height: 1, pixels: [200, 200, 200, 128, 60, 60, 60, 0]))

        // Two rows of 1-bit pixels, 1 0 1 and 0 1 0, packed from the high bit.
        let bits = try Image(pngData: MinimalPNGEncoder.encode(width: 3, height: 2, bitDepth: 1, colorType: 0,
                                                               rows: [[0b1010_0000], [0b0100_0000]]))
        #expect(bits.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [255, 0, 255, 0, 255, 0])

        let palette = try Image(pngData: MinimalPNGEncoder.encode(
            width: 3, height: 1, bitDepth: 8, colorType: 3, rows: [[2, 0, 1]],
            palette: [10, 20, 30, 40, 50, 60, 70, 80, 90], transparency: [77, 0]))
        #expect(palette == Image(width: 3, height: 1, pixels: [70, 80, 90, 255, 10, 20, 30, 77, 40, 50, 60, 0]))

        // 16-bit samples v * 257 scale to v (sRGB assumed when the file has no gAMA chunk).
        let values: [UInt8] = [0, 1, 64, 128, 200, 255]
        let wide = try Image(pngData: MinimalPNGEncoder.encode(
            width: 2, height: 1, bitDepth: 16, colorType: 2, rows: [values.flatMap { [$0, $0] }]))
        #expect(wide == Image(width: 2, height: 1, pixels: [0, 1, 64, 255, 128, 200, 255, 255]))
    }

    // MARK: Failures

    @Test("a file of garbage bytes throws a PNGError naming the file")
    func garbage() throws {
        let url = Self.scratchURL("garbage.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: url)
        let error = Self.expectReadFailure(url)
        #expect(error?.message.localizedCaseInsensitiveContains("PNG") == true, "message: \(error?.message ?? "")")
    }

    @Test("a missing file throws a PNGError naming the file")
    func missing() {
        _ = Self.expectReadFailure(Self.scratchURL("missing.png"))
    }

    @Test("the first half of a valid PNG throws rather than crashing, from a file and from memory")
    func truncated() throws {
        let url = Self.scratchURL("truncated.png")
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Self.gradient.pngData()
        let half = data.prefix(data.count / 2)
        try half.write(to: url)
        _ = Self.expectReadFailure(url)
        #expect(throws: PNGError.self) { try Image(pngData: half) }
        #expect(throws: PNGError.self) { try Image(pngData: data.prefix(20)) }
        #expect(throws: PNGError.self) { try Image(pngData: Data()) }
    }

    @Test("every prefix cut before the image data ends throws; single-byte corruptions never crash")
    func damagedData() throws {
        let data = try Self.gradient.pngData()
        // libpng stops after the last IDAT, so only cuts into the final IEND chunk (12 bytes) may decode.
        for length in 0..<(data.count - 12) {
            if (try? Image(pngData: data.prefix(length))) != nil { Issue.record("a \(length)-byte prefix decoded") }
        }
        for index in stride(from: 0, to: data.count, by: 3) {
            var damaged = data
            damaged[damaged.startIndex + index] ^= 0x5A
            if let image = try? Image(pngData: damaged) {
                #expect(image.pixels.count == image.width * image.height * 4)
            }
        }
    }

    @Test("writing into a missing directory or an empty image throws")
    func writeFailures() {
        let url = Self.scratchURL("no-such-directory").appendingPathComponent("out.png")
        do {
            try Self.gradient.writePNG(to: url)
            Issue.record("wrote \(url.path)")
        } catch {
            #expect(error.path == url.path)
            #expect(!error.message.isEmpty)
        }
        #expect(throws: PNGError.self) { try Image(width: 0, height: 3, pixels: []).pngData() }
    }

    // MARK: difference(from:tolerance:)

    @Test("identical images: largest difference 0, no differing pixels, diff is the image dimmed")
    func identical() throws {
        let difference = try #require(Self.gradient.difference(from: Self.gradient, tolerance: 0))
        #expect(difference.largestChannelDifference == 0)
        #expect(difference.differingPixels == 0)
        #expect(difference.differingShare == 0)
        let source = Self.gradient[10, 4]
        #expect(difference.diffImage[10, 4] == (source.r / 4, source.g / 4, source.b / 4, 255))
    }

    @Test("one pixel off by 3 with tolerance 2: one differing pixel, largest 3, shown red")
    func onePixel() throws {
        var changed = Self.gradient
        let original = changed[5, 7]
        changed[5, 7] = (original.r, original.g + 3, original.b, original.a)
        changed[6, 7] = (changed[6, 7].r, changed[6, 7].g, changed[6, 7].b + 2, changed[6, 7].a)  // within tolerance
        let difference = try #require(changed.difference(from: Self.gradient, tolerance: 2))
        #expect(difference.differingPixels == 1)
        #expect(difference.largestChannelDifference == 3)
        #expect(difference.differingShare == 1.0 / Double(37 * 23))
        #expect(difference.diffImage[5, 7] == (255, 0, 0, 255))
        #expect(difference.diffImage[6, 7] != (255, 0, 0, 255))
        #expect(difference.diffImage.width == 37 && difference.diffImage.height == 23)
        #expect(try #require(changed.difference(from: Self.gradient, tolerance: 3)).differingPixels == 0)
    }

    @Test("images of different sizes give nil")
    func sizeMismatch() {
        #expect(Image(width: 37, height: 22, fill: (0, 0, 0, 255)).difference(from: Self.gradient, tolerance: 255) == nil)
        #expect(Image(width: 23, height: 37, fill: (0, 0, 0, 255)).difference(from: Self.gradient, tolerance: 255) == nil)
    }

    @Test("fill and the subscript agree")
    func fillAndSubscript() {
        var image = Image(width: 4, height: 3, fill: (9, 8, 7, 6))
        #expect(image.pixels.count == 48)
        #expect(image[3, 2] == (9, 8, 7, 6))
        image[1, 2] = (1, 2, 3, 4)
        #expect(Array(image.pixels[36..<40]) == [1, 2, 3, 4])
        #expect(image[1, 2] == (1, 2, 3, 4))
    }
}

/// Writes PNGs in formats `writePNG` never produces (grey, palette, 16-bit, 1-bit), to
/// test conversion on read: filter type 0 on every row, deflate with stored blocks only.
private enum MinimalPNGEncoder {
    /// `rows` hold each row's packed samples, without the filter byte.
    static func encode(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]],
                       palette: [UInt8]? = nil, transparency: [UInt8]? = nil) -> Data {
        precondition(rows.count == height)
        let raw: [UInt8] = rows.flatMap { [0] + $0 }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, raw.count - start)
            zlib.append(start + count == raw.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            zlib += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[start..<(start + count)]
            start += count
        } while start < raw.count
        zlib += bigEndian(adler32(raw))

        var png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0])
        if let palette { png += chunk("PLTE", palette) }
        if let transparency { png += chunk("tRNS", transparency) }
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
