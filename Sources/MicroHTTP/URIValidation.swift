/// Checks a raw request target before libmicrohttpd decodes it, because its decoder silently
/// keeps malformed escapes (`%zz`, a lone `%`) and decodes `%00` into a truncated string.
enum URIValidation {
    /// Whether every `%` starts a two-hex-digit escape, no escape decodes to NUL, and no raw
    /// control character or space is present.
    static func isWellFormed(_ uri: UnsafePointer<CChar>) -> Bool {
        var pointer = UnsafeRawPointer(uri).assumingMemoryBound(to: UInt8.self)
        while pointer.pointee != 0 {
            let byte = pointer.pointee
            if byte < 0x21 || byte == 0x7F { return false }
            if byte == UInt8(ascii: "%") {
                guard let high = hexValue(pointer[1]), let low = hexValue(pointer[2]) else { return false }
                if high == 0 && low == 0 { return false }
                pointer += 3
            } else {
                pointer += 1
            }
        }
        return true
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
