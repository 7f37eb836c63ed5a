import CPNG
import FoundationEssentials

extension Image {
    /// Reads a PNG file. Any PNG (palette, grey, grey with alpha, RGB, 16-bit, interlaced)
    /// is converted to 8-bit RGBA; 16-bit files without gamma information are taken to be
    /// sRGB-encoded, as image viewers take them.
    public init(contentsOfPNG url: URL) throws(PNGError) {
        let path = url.path
        var image = PNGCodec.emptyImage()
        let begun = try PNGCodec.withFileSystemPath(of: url) { png_image_begin_read_from_file(&image, $0) }
        guard begun != 0 else { throw PNGCodec.failure(&image, path: path) }
        self = try PNGCodec.finishRead(&image, path: path).get()
    }

    /// Decodes a PNG held in memory, converting it to 8-bit RGBA as
    /// ``init(contentsOfPNG:)`` does.
    public init(pngData data: Data) throws(PNGError) {
        // libpng reads from the buffer until png_image_finish_read, so both calls stay
        // inside the closure that keeps the bytes alive.
        let result = data.withUnsafeBytes { bytes -> Result<Image, PNGError> in
            var image = PNGCodec.emptyImage()
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
                return .failure(PNGCodec.failure(&image, path: nil))
            }
            return PNGCodec.finishRead(&image, path: nil)
        }
        self = try result.get()
    }

    /// Writes the image as an 8-bit RGBA PNG file, replacing any file at `url`.
    public func writePNG(to url: URL) throws(PNGError) {
        let path = url.path
        let rowBytes = try PNGCodec.rowBytes(width: width, height: height, path: path)
        var image = PNGCodec.header(width: width, height: height)
        let written = try PNGCodec.withFileSystemPath(of: url) { file in
            pixels.withUnsafeBytes { png_image_write_to_file(&image, file, 0, $0.baseAddress, rowBytes, nil) }
        }
        guard written != 0 else { throw PNGCodec.failure(&image, path: path) }
    }

    /// Encodes the image as the bytes of an 8-bit RGBA PNG file.
    public func pngData() throws(PNGError) -> Data {
        let rowBytes = try PNGCodec.rowBytes(width: width, height: height, path: nil)
        // Room for the pixels stored uncompressed plus headers is nearly always enough;
        // when it is not, libpng reports the size it needs and the second pass uses it.
        var capacity = pixels.count + pixels.count / 64 + height + 1024
        for _ in 0..<2 {
            var image = PNGCodec.header(width: width, height: height)
            var data = Data(count: capacity)
            var size = png_alloc_size_t(capacity)
            let written = data.withUnsafeMutableBytes { output in
                pixels.withUnsafeBytes { pixels in
                    png_image_write_to_memory(&image, output.baseAddress, &size, 0, pixels.baseAddress, rowBytes, nil)
                }
            }
            if written != 0 {
                data.count = Int(size)
                return data
            }
            guard Int(size) > capacity else { throw PNGCodec.failure(&image, path: nil) }
            capacity = Int(size)
        }
        throw PNGError(path: nil, message: "libpng needed more memory for the PNG than it asked for")
    }
}

/// The libpng simplified-API plumbing behind ``Image``'s PNG methods.
enum PNGCodec {
    /// `PNG_FORMAT_RGBA`, a macro Swift does not import.
    static let rgba = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// The most pixel bytes a decode will allocate (1 GiB), so that a corrupt or hostile
    /// header cannot ask for terabytes.
    static let maxDecodedBytes = 1 << 30

    /// A `png_image` ready for `png_image_begin_read_*`: zeroed, with its version set.
    static func emptyImage() -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return image
    }

    /// A `png_image` describing this module's RGBA8 layout, ready for `png_image_write_*`.
    static func header(width: Int, height: Int) -> png_image {
        var image = emptyImage()
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = rgba
        return image
    }

    /// The row stride libpng takes, after checking that the image can be written at all.
    static func rowBytes(width: Int, height: Int, path: String?) throws(PNGError) -> Int32 {
        guard width > 0, height > 0 else {
            throw PNGError(path: path, message: "cannot write an empty \(width)×\(height) image")
        }
        guard width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw PNGError(path: path, message: "\(width)×\(height) is too large for PNG")
        }
        return Int32(width * 4)
    }

    /// Runs `body` with the file-system path of a file URL.
    static func withFileSystemPath<R>(of url: URL,
                                      _ body: (UnsafePointer<CChar>) -> R) throws(PNGError) -> R {
        guard url.isFileURL else { throw PNGError(path: url.absoluteString, message: "not a file URL") }
        let result = url.withUnsafeFileSystemRepresentation { $0.map(body) }
        guard let result else { throw PNGError(path: url.path, message: "the path has no file-system form") }
        return result
    }

    /// Decodes the pixels of an image whose header `png_image_begin_read_*` has read, as
    /// RGBA8, and releases libpng's state whatever happens.
    static func finishRead(_ image: inout png_image, path: String?) -> Result<Image, PNGError> {
        image.format = rgba
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)  // only meaningful after begin_read
        let width = Int(image.width), height = Int(image.height)
        let (byteCount, overflow) = width.multipliedReportingOverflow(by: height * 4)
        guard !overflow, byteCount <= maxDecodedBytes else {
            png_image_free(&image)
            return .failure(PNGError(path: path, message: "\(width)×\(height) is too large to decode"))
        }
        var pixels = [UInt8](repeating: 0, count: byteCount)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { return .failure(failure(&image, path: path)) }
        return .success(Image(width: width, height: height, pixels: pixels))
    }

    /// The error libpng recorded in `image.message`; also releases libpng's state.
    static func failure(_ image: inout png_image, path: String?) -> PNGError {
        let message = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&image)
        return PNGError(path: path, message: message.isEmpty ? "libpng failed without a message" : message)
    }
}
