extension StringProtocol {
    /// The text without white space at either end: Unicode's `White_Space` characters, or
    /// with `newlines: false` only the spaces and tabs (line breaks stay).
    func trimmingWhitespace(newlines: Bool = true) -> String {
        let scalars = unicodeScalars
        let isTrimmed = { (scalar: Unicode.Scalar) -> Bool in
            scalar.properties.isWhitespace && (newlines || !Self.isLineBreak(scalar))
        }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
