#if canImport(Glibc)
import Glibc
#endif

/// Checks percent-encoded text before libmicrohttpd decodes it, because its decoder silently
/// keeps malformed escapes (`%zz`, a lone `%`) and decodes `%00` into a truncated string.
/// Used on request targets and, piece by piece, on urlencoded form bodies.
struct PercentEncodingValidator {
    private var expectedHexDigits = 0
    private var firstDigit: UInt8 = 0
    /// Whether raw spaces and control characters are refused (they are in a request target).
    private let rejectsControlCharacters: Bool
    private(set) var isValid = true

    init(rejectsControlCharacters: Bool) {
        self.rejectsControlCharacters = rejectsControlCharacters
    }

    /// Whether the text seen so far ends in a complete, well-formed state.
    var isComplete: Bool { isValid && expectedHexDigits == 0 }

    /// Feeds the next piece of text.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes where isValid {
            feed(byte)
        }
    }

    private mutating func feed(_ byte: UInt8) {
        if expectedHexDigits > 0 {
            guard let value = PercentEncoding.hexValue(byte) else { return isValid = false }
            if expectedHexDigits == 2 {
                firstDigit = value
            } else if firstDigit == 0 && value == 0 {
                return isValid = false
            }
            expectedHexDigits -= 1
        } else if byte == UInt8(ascii: "%") {
            expectedHexDigits = 2
        } else if rejectsControlCharacters && (byte < 0x21 || byte == 0x7F) {
            isValid = false
        }
    }

    /// Whether a NUL-terminated request target is well formed.
    static func isWellFormedTarget(_ uri: UnsafePointer<CChar>) -> Bool {
        var validator = PercentEncodingValidator(rejectsControlCharacters: true)
        validator.feed(UnsafeRawBufferPointer(start: uri, count: strlen(uri)))
        return validator.isComplete
    }
}
