import CVips

/// The image formats read, decided by a file's first bytes (its magic number) before any
/// decoder sees it, never by its name or by libvips' guess among every loader it has.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp

    /// How many bytes of a file decide its format.
    public static let magicLength = 12

    /// The format `prefix` (a file's first ``magicLength`` bytes, or all of a shorter one)
    /// starts as, or `nil` for anything else.
    public init?(magic prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(Self.magicLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// What a file that is none of the formats seems to hold, from its first bytes, in words
    /// ("a PDF document"), or `nil` when it is nothing recognisable.
    public static func otherKind(magic prefix: some Collection<UInt8>) -> String? {
        let bytes = Array(prefix.prefix(magicLength))
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        let kinds: [(matches: Bool, name: String)] = [
            (text.hasPrefix("%pdf"), "a PDF document"),
            (text.hasPrefix("<svg") || text.hasPrefix("<?xml"), "an SVG or other XML document"),
            (text.hasPrefix("gif8"), "a GIF image"),
            (bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]), "a TIFF image"),
            (bytes.count >= 8 && bytes[4..<8].elementsEqual("ftyp".utf8), "a HEIF, AVIF or other ISO media file"),
            (bytes.starts(with: [0xFF, 0x0A]) || bytes.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]), "a JPEG XL image"),
            (bytes.starts(with: [0x42, 0x4D]), "a BMP image"),
            (text.hasPrefix("%!ps"), "a PostScript document"),
        ]
        return kinds.first { $0.matches }?.name
    }

    /// The format of `bytes`, or the error that says they are none of the formats.
    static func of(_ bytes: [UInt8]) throws(ImageError) -> ImageFormat {
        guard let format = ImageFormat(magic: bytes) else {
            throw ImageError(description: "not a JPEG, PNG or WebP image")
        }
        return format
    }

    var loader: CVipsFormat {
        switch self {
        case .jpeg: CVIPS_JPEG
        case .png: CVIPS_PNG
        case .webp: CVIPS_WEBP
        }
    }
}
