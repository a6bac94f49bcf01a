/// The RIFF container of a WebP file: just enough to drop its metadata chunks.
enum WebPContainer {
    /// The chunks that carry metadata, not pixels.
    private static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// The VP8X flags announcing those chunks: ICC profile, EXIF, XMP.
    private static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    /// `bytes` without EXIF, XMP and ICC chunks, the extended header's flags and the RIFF size
    /// set to match. Anything that is not a well-formed WebP container comes back unchanged.
    static func droppingMetadata(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return bytes }
        var out = Array(bytes[0..<12])
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian: bytes, at: offset + 4)
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count || (end == bytes.count + 1 && size & 1 == 1) else { return bytes }
            if !metadataChunks.contains(name) {
                var chunk = Array(bytes[offset..<min(end, bytes.count)])
                if name == "VP8X", chunk.count > 8 { chunk[8] &= ~metadataFlags }
                out += chunk
            }
            offset = end
        }
        let riffSize = UInt32(out.count - 8)
        for index in 0..<4 { out[4 + index] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(index))) }
        return out
    }
}

private extension Int {
    /// A little-endian 32-bit unsigned number at `offset`.
    init(littleEndian bytes: [UInt8], at offset: Int) {
        self = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
