import CPNG
import Foundation

/// `PNG_FORMAT_RGBA` (colour | alpha), a macro Swift does not import.
private let rgba = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

extension Image {
    /// Reads a PNG file; any PNG (palette, grey, 16-bit) is converted to RGBA8.
    public init(contentsOfPNG url: URL) throws(PNGError) {
        let path = url.path
        var image = Self.newImage()
        guard png_image_begin_read_from_file(&image, path) != 0 else { throw Self.failure(&image, path: path) }
        self = try Self.finishRead(&image, path: path)
    }

    /// Decodes PNG bytes.
    public init(pngData data: Data) throws(PNGError) {
        var image = Self.newImage()
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw Self.failure(&image, path: nil) }
        self = try Self.finishRead(&image, path: nil)
    }

    /// Writes the image as an 8-bit RGBA PNG.
    public func writePNG(to url: URL) throws(PNGError) {
        var image = Self.header(width: width, height: height)
        let written = pixels.withUnsafeBytes {
            png_image_write_to_file(&image, url.path, 0, $0.baseAddress, Int32(width * 4), nil)
        }
        guard written != 0 else { throw Self.failure(&image, path: url.path) }
    }

    /// The image as PNG bytes.
    public func pngData() throws(PNGError) -> Data {
        var image = Self.header(width: width, height: height)
        var size: png_alloc_size_t = 0
        let sized = pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(width * 4), nil) }
        guard sized != 0 else { throw Self.failure(&image, path: nil) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBytes { output in
            pixels.withUnsafeBytes { png_image_write_to_memory(&image, output.baseAddress, &size, 0, $0.baseAddress, Int32(width * 4), nil) }
        }
        guard written != 0 else { throw Self.failure(&image, path: nil) }
        return Data(bytes.prefix(Int(size)))
    }

    private static func newImage() -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return image
    }

    private static func header(width: Int, height: Int) -> png_image {
        var image = newImage()
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = rgba
        return image
    }

    private static func finishRead(_ image: inout png_image, path: String?) throws(PNGError) -> Image {
        image.format = rgba
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
        guard finished != 0 else { throw failure(&image, path: path) }
        return Image(width: width, height: height, pixels: pixels)
    }

    private static func failure(_ image: inout png_image, path: String?) -> PNGError {
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        png_image_free(&image)
        return PNGError(path: path, message: message.isEmpty ? "unknown libpng error" : message)
    }
}
