import CQREncode

// The QR code of a join link, from Debian's libqrencode: C types and calls stay in this file.

/// A QR code drawn as SVG: one path of dark modules on a light square with the quiet zone the
/// standard asks for (four modules), so any camera or decoder reads it.
enum QRCode {
    /// The SVG of `text` encoded at error-correction level M, or `nil` when libqrencode refuses
    /// it (far longer text than a link). The SVG has no script and no style: only shapes, with
    /// `role="img"` and `label` as its accessible name.
    static func svg(for text: String, label: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let quiet = 4
        let size = width + 2 * quiet
        var path = ""
        path.reserveCapacity(width * width * 4)
        for row in 0..<width {
            for column in 0..<width where code.pointee.data[row * width + column] & 1 == 1 {
                // One square per dark module, relative moves keep the path short.
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" class="qr-code" role="img" aria-label="\(label)" viewBox="0 0 \(size) \(size)" \
            width="\(size * 6)" height="\(size * 6)" shape-rendering="crispEdges"><rect width="\(size)" height="\(size)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>
            """
    }
}
