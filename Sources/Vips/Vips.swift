import CVips
import Synchronization

/// The Swift face of libvips, for what an image import needs: read an image's header, make a
/// stripped WebP thumbnail, list an image's metadata, and (for tests and tools) make an image.
///
/// ```swift
/// let info = try ImageProcessor.header(of: bytes)        // width, height, format
/// let thumbnail = try ImageProcessor.webPThumbnail(of: bytes, width: 320)
/// ```
///
/// libvips is loaded and started once per process, by ``start(programName:)`` or on first use
/// (so a process that never makes a thumbnail, such as a server, never loads it). Calls from
/// several threads run one at a time: libvips keeps one error message for the whole process.
/// C types never leave this module.
public enum ImageProcessor {
    /// An image's header: what it is, without decoding its pixels.
    public struct Header: Sendable, Equatable {
        /// The width in pixels.
        public let width: Int
        /// The height in pixels.
        public let height: Int
        /// The format: `jpeg`, `png` or `webp` (``ImageFormat``'s raw value).
        public let format: String

        /// Creates a header, as tests expect one.
        public init(width: Int, height: Int, format: String) {
            self.width = width
            self.height = height
            self.format = format
        }
    }

    /// A made image.
    public struct Encoded: Sendable {
        /// The encoded file.
        public let bytes: [UInt8]
        /// The image's width in pixels.
        public let width: Int
        /// The image's height in pixels.
        public let height: Int
    }

    /// Formats ``solidImage(width:height:format:)`` can write.
    public enum TestFormat: Sendable {
        case jpeg, png
    }

    /// Reads the header of an image in memory; the pixels are not decoded. The format is
    /// decided by the bytes' start (``ImageFormat``), and only that format's loader reads them.
    /// - Throws: ``ImageError`` when the bytes are not a JPEG, PNG or WebP libvips can read.
    public static func header(of bytes: [UInt8]) throws(ImageError) -> Header {
        let format = try ImageFormat.of(bytes)
        return try withImage(bytes, format: format, operation: "reading the image header") { vips, image throws(ImageError) in
            Header(width: Int(cvips_width(vips, image)), height: Int(cvips_height(vips, image)), format: format.rawValue)
        }
    }

    /// Decodes the image, shrinks it to `width` pixels wide, or less when that would make it
    /// taller than `maximumHeight` (never enlarges it), turns it upright by its orientation tag
    /// and encodes it as WebP without any metadata. Only the loader of the format the bytes
    /// start as (``ImageFormat``) reads them.
    /// - Throws: ``ImageError`` when the image is damaged or cannot be read.
    public static func webPThumbnail(of bytes: [UInt8], width: Int, maximumHeight: Int? = nil, quality: Int = 80) throws(ImageError) -> Encoded {
        let format = try ImageFormat.of(bytes)
        // A JPEG decodes at 1/2, 1/4 or 1/8 of its size for less time and memory, as long as
        // that still leaves at least the width asked for.
        var shrink: Int32 = 1
        if format == .jpeg {
            let fullWidth = try header(of: bytes).width
            while shrink < 8, fullWidth / Int(shrink * 2) >= width { shrink *= 2 }
        }
        let webP = try withImage(bytes, format: format, shrink: shrink, operation: "decoding the image") { vips, image throws(ImageError) in
            var thumbnail: OpaquePointer?
            let height = maximumHeight.map { Int32(clamping: $0) } ?? CVIPS_MAX_COORD
            guard cvips_thumbnail(vips, image, &thumbnail, Int32(width), height) == 0, let thumbnail else {
                throw ImageError.last(from: vips, operation: "decoding the image")
            }
            defer { cvips_unref(vips, thumbnail) }
            return try encoded(thumbnail, vips, operation: "decoding the image") { image, buffer, length in
                cvips_webpsave_stripped(vips, image, buffer, length, Int32(quality))
            }
        }
        // libvips 8.14's WebP saver writes a fresh EXIF block (resolution, colour space) even
        // when told to strip; the file's metadata chunks are dropped here instead.
        return Encoded(bytes: WebPContainer.droppingMetadata(webP.bytes), width: webP.width, height: webP.height)
    }

    /// The names of the metadata fields an image carries (`exif-data`, `xmp-data`,
    /// `icc-profile-data`, …) besides its basic ones.
    public static func metadataNames(of bytes: [UInt8]) throws(ImageError) -> [String] {
        try withImage(bytes, format: try ImageFormat.of(bytes), operation: "reading the image header") { vips, image throws(ImageError) in
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
    }

    /// An image of one colour, encoded: for tests and tools that need a real image file.
    public static func solidImage(width: Int, height: Int, format: TestFormat, red: Double = 200, green: Double = 80, blue: Double = 40) throws(ImageError) -> [UInt8] {
        try withLibrary { vips throws(ImageError) in
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

    /// Opens `bytes` with `format`'s loader (its header only; pixels are decoded as `body` uses
    /// them) and runs `body` on the image, which lives no longer than the call.
    private static func withImage<T: Sendable>(
        _ bytes: [UInt8], format: ImageFormat, shrink: Int32 = 1, operation: String,
        _ body: (UnsafeMutablePointer<CVipsLibrary>, OpaquePointer) throws(ImageError) -> T
    ) throws(ImageError) -> T {
        try withLibrary { vips throws(ImageError) in
            // The image reads the lent bytes for as long as it lives: it is made and dropped
            // inside the closure that lends them.
            try lending(bytes) { start, count throws(ImageError) in
                var image: OpaquePointer?
                // The pointer is mutable only in libvips' signature: it never writes to the buffer.
                guard cvips_load(vips, format.loader, UnsafeMutableRawPointer(mutating: start), count, &image, shrink) == 0, let image else {
                    throw ImageError.last(from: vips, operation: operation)
                }
                defer { cvips_unref(vips, image) }
                return try body(vips, image)
            }
        }
    }

    /// Lends `bytes` to `body` as a pointer and a length; nothing made from the pointer may
    /// outlive `body`.
    private static func lending<T>(
        _ bytes: [UInt8], _ body: (UnsafeRawPointer?, Int) throws(ImageError) -> T
    ) throws(ImageError) -> T {
        let result: Result<T, ImageError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageError) { return .success(try body(buffer.baseAddress, buffer.count)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// libvips, loaded and started on first use, or `nil` before.
    private static let state = Mutex<Result<Library, ImageError>?>(nil)

    /// Runs `body` with libvips, one call at a time: its error buffer is one for the whole
    /// process, so two calls at once would mix (and clear) each other's messages.
    private static func withLibrary<T: Sendable>(
        _ body: (UnsafeMutablePointer<CVipsLibrary>) throws(ImageError) -> T
    ) throws(ImageError) -> T {
        try state.withLock { (state) throws(ImageError) -> T in
            let library = try opened(&state, programName: CommandLine.arguments.first ?? "vips").get()
            // A warning left by an earlier call must not be taken for this one's.
            _ = ImageError.takeWarning(from: library.table)
            return try body(library.table)
        }
    }

    private static func opened(_ state: inout Result<Library, ImageError>?, programName: String) -> Result<Library, ImageError> {
        if let state { return state }
        var message: UnsafePointer<CChar>?
        let opened: Result<Library, ImageError> = cvips_open(programName, &message).map { .success(Library(table: $0)) }
            ?? .failure(ImageError(description: "cannot load libvips (Debian's libvips-dev brings it): \(message.map { String(cString: $0) } ?? "unknown error")"))
        state = opened
        return opened
    }

    /// Loads and starts libvips under `programName` (the name its messages and warnings give),
    /// if no earlier call has: a program calls this before its first image for its own name,
    /// otherwise the first image starts libvips under the process's name.
    /// - Throws: ``ImageError`` when libvips cannot be loaded.
    public static func start(programName: String) throws(ImageError) {
        _ = try state.withLock { (state) throws(ImageError) -> Bool in
            _ = try opened(&state, programName: programName).get()
            return true
        }
    }
}

/// libvips' function table. `@unchecked Sendable`: it is written once, by ``cvips_open``, before
/// it is shared, and only read afterwards, but for the warning it keeps under its own lock;
/// libvips' functions may be called from any thread.
private struct Library: @unchecked Sendable {
    let table: UnsafeMutablePointer<CVipsLibrary>
}

/// A libvips failure, with its message.
public struct ImageError: Error, CustomStringConvertible, Sendable {
    /// What failed, and libvips' message when it gave one.
    public let description: String

    /// The error libvips recorded last, for `operation`; clears it. When libvips recorded
    /// none, its last warning (caught rather than printed, see `shim.h`) says what went wrong.
    static func last(from vips: UnsafeMutablePointer<CVipsLibrary>, operation: String) -> ImageError {
        var message = String(cString: cvips_error_buffer(vips)).trimmingTrailingWhitespace
        cvips_error_clear(vips)
        let warning = takeWarning(from: vips)
        if message.isEmpty { message = warning }
        return ImageError(description: message.isEmpty ? operation : "\(operation): \(message)")
    }

    /// The last warning libvips gave since the previous call, or an empty string.
    static func takeWarning(from vips: UnsafeMutablePointer<CVipsLibrary>) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            cvips_take_warning(vips, buffer.baseAddress!, buffer.count)
            return String(cString: buffer.baseAddress!).trimmingTrailingWhitespace
        }
    }
}

private extension String {
    var trimmingTrailingWhitespace: String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
