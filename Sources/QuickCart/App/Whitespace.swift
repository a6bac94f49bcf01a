extension StringProtocol {
    /// The text without white space at either end, as Foundation's `trimmingCharacters(in:
    /// .whitespacesAndNewlines)` trims (Unicode's `White_Space` characters and the zero-width
    /// space), or with `newlines: false` as `.whitespaces` does (line breaks stay). Written
    /// here, with a fast path for ASCII, so the server does not load Foundation for it.
    func trimmingWhitespace(newlines: Bool = true) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isBlank($0, newlines: newlines) }),
              let last = scalars.lastIndex(where: { !Self.isBlank($0, newlines: newlines) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    private static func isBlank(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
        switch scalar.value {
        case 0x20, 0x09: true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: newlines
        case 0x200B: true
        case ..<0x80: false
        default: scalar.properties.isWhitespace
        }
    }
}
