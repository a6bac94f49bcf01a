import CVips
import Synchronization

/// The Swift face of libvips, for what the shop's import needs: read an image's header, make a
/// stripped WebP thumbnail, list an image's metadata, and (for tests and tools) make an image.
///
/// ```swift
/// let info = try ImageProcessor.header(of: bytes)        // width, height, format
/// let thumbnail = try ImageProcessor.webPThumbnail(of: bytes, width: 320)
/// ```
///
/// libvips is loaded and started once per process, on first use (so a process that never
/// makes a thumbnail, such as the server, never loads it). C types never leave this module.
public enum ImageProcessor {
    /// An image's header: what it is, without decoding its pixels.
    public struct Header: Sendable, Equatable {
        public let width: Int
        public let height: Int
        /// The format libvips recognised: `jpeg`, `png`, `webp`, `gif`, … (its loader's name).
        public let format: String

        public init(width: Int, height: Int, format: String) {
            self.width = width
            self.height = height
            self.format = format
        }
    }

    /// A made image.
    public struct Encoded: Sendable {
        public let bytes: [UInt8]
        public let width: Int
        public let height: Int
    }

    /// Formats ``solidImage(width:height:format:)`` can write.
    public enum TestFormat: Sendable {
        case jpeg, png
    }

    /// Reads the header of an image in memory; the pixels are not decoded.
    /// - Throws: ``ImageError`` when libvips does not recognise the bytes as an image.
    public static func header(of bytes: [UInt8]) throws(ImageError) -> Header {
        let vips = try library()
        guard let loader = bytes.withUnsafeBytes({ cvips_find_loader(vips, $0.baseAddress, $0.count) }) else {
            throw ImageError.last(from: vips, operation: "not an image libvips can read")
        }
        let image = bytes.withUnsafeBytes { cvips_header_from_buffer(vips, $0.baseAddress, $0.count) }
        guard let image else { throw ImageError.last(from: vips, operation: "reading the image header") }
        defer { cvips_unref(vips, image) }
        return Header(
            width: Int(cvips_width(vips, image)), height: Int(cvips_height(vips, image)),
            format: formatName(loader: String(cString: loader))
        )
    }

    /// Decodes the image, shrinks it to `width` pixels wide (never enlarges it), turns it
    /// upright by its orientation tag and encodes it as WebP without any metadata.
    /// - Throws: ``ImageError`` when the image is damaged or cannot be read.
    public static func webPThumbnail(of bytes: [UInt8], width: Int, quality: Int = 80) throws(ImageError) -> Encoded {
        let vips = try library()
        var copy = bytes
        var thumbnail: OpaquePointer?
        let failed = copy.withUnsafeMutableBytes { cvips_thumbnail_buffer(vips, $0.baseAddress, $0.count, &thumbnail, Int32(width)) }
        guard failed == 0, let thumbnail else { throw ImageError.last(from: vips, operation: "decoding the image") }
        defer { cvips_unref(vips, thumbnail) }
        let webP = try encoded(thumbnail, vips, operation: "encoding the thumbnail as WebP") { image, buffer, length in
            cvips_webpsave_stripped(vips, image, buffer, length, Int32(quality))
        }
        // libvips 8.14's WebP saver writes a fresh EXIF block (resolution, colour space) even
        // when told to strip; the file's metadata chunks are dropped here instead.
        return Encoded(bytes: WebPContainer.droppingMetadata(webP.bytes), width: webP.width, height: webP.height)
    }

    /// The names of the metadata fields an image carries (`exif-data`, `xmp-data`,
    /// `icc-profile-data`, …) besides its basic ones.
    public static func metadataNames(of bytes: [UInt8]) throws(ImageError) -> [String] {
        let vips = try library()
        let image = bytes.withUnsafeBytes { cvips_header_from_buffer(vips, $0.baseAddress, $0.count) }
        guard let image else { throw ImageError.last(from: vips, operation: "reading the image header") }
        defer { cvips_unref(vips, image) }
        guard let fields = cvips_fields(vips, image) else { return [] }
        defer { cvips_strfreev(vips, fields) }
        var names: [String] = []
        var index = 0
        while let field = fields[index] {
            names.append(String(cString: field))
            index += 1
        }
        return names
    }

    /// An image of one colour, encoded: for tests and tools that need a real image file.
    public static func solidImage(width: Int, height: Int, format: TestFormat, red: Double = 200, green: Double = 80, blue: Double = 40) throws(ImageError) -> [UInt8] {
        let vips = try library()
        var image: OpaquePointer?
        guard cvips_solid(vips, &image, Int32(width), Int32(height), red, green, blue) == 0, let image else {
            throw ImageError.last(from: vips, operation: "making an image")
        }
        defer { cvips_unref(vips, image) }
        return try encoded(image, vips, operation: "encoding an image") { image, buffer, length in
            switch format {
            case .jpeg: cvips_jpegsave(vips, image, buffer, length)
            case .png: cvips_pngsave(vips, image, buffer, length)
            }
        }.bytes
    }

    // MARK: - Internals

    private static func encoded(
        _ image: OpaquePointer, _ vips: UnsafeMutablePointer<CVipsLibrary>, operation: String,
        _ save: (OpaquePointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws(ImageError) -> Encoded {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(image, &buffer, &length) == 0, let buffer else { throw ImageError.last(from: vips, operation: operation) }
        defer { cvips_free(vips, buffer) }
        let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        return Encoded(bytes: bytes, width: Int(cvips_width(vips, image)), height: Int(cvips_height(vips, image)))
    }

    /// "VipsForeignLoadJpegBuffer" → "jpeg".
    private static func formatName(loader: String) -> String {
        var name = Substring(loader)
        if name.hasPrefix("VipsForeignLoad") { name = name.dropFirst("VipsForeignLoad".count) }
        for suffix in ["Buffer", "Source"] where name.hasSuffix(suffix) { name = name.dropLast(suffix.count) }
        return name.lowercased()
    }

    private static let loaded = Mutex<Result<Library, ImageError>?>(nil)

    /// libvips, loaded and started on first use.
    private static func library() throws(ImageError) -> UnsafeMutablePointer<CVipsLibrary> {
        let result = loaded.withLock { loaded in
            if let loaded { return loaded }
            var message: UnsafePointer<CChar>?
            let opened: Result<Library, ImageError> = cvips_open(&message).map { .success(Library(table: $0)) }
                ?? .failure(ImageError(description: "cannot load libvips (install libvips42): \(message.map { String(cString: $0) } ?? "unknown error")"))
            loaded = opened
            return opened
        }
        return try result.get().table
    }
}

/// libvips' function table. `@unchecked Sendable`: it is written once, by ``cvips_open``, before
/// it is shared, and only read afterwards; libvips' functions may be called from any thread.
private struct Library: @unchecked Sendable {
    let table: UnsafeMutablePointer<CVipsLibrary>
}

/// A libvips failure, with its message.
public struct ImageError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// The error libvips recorded last, for `operation`; clears it.
    static func last(from vips: UnsafeMutablePointer<CVipsLibrary>, operation: String) -> ImageError {
        let message = String(cString: cvips_error_buffer(vips)).trimmingTrailingWhitespace
        cvips_error_clear(vips)
        return ImageError(description: message.isEmpty ? operation : "\(operation): \(message)")
    }
}

private extension String {
    var trimmingTrailingWhitespace: String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
