/// Percent-encoding on UTF-8 bytes, as URLs and cookie values carry text (RFC 3986).
///
/// ```swift
/// PercentEncoding.encodingAllButUnreserved("Added Tent — 2")  // "Added%20Tent%20%E2%80%94%202"
/// PercentEncoding.decoding("Added%20Tent")                    // "Added Tent"
/// ```
public enum PercentEncoding {
    /// `text` with every UTF-8 byte but RFC 3986's unreserved characters (`A`–`Z`, `a`–`z`,
    /// `0`–`9`, `-`, `.`, `_`, `~`) written as `%HH`, in uppercase hexadecimal.
    public static func encodingAllButUnreserved(_ text: some StringProtocol) -> String {
        var text = String(text)
        return text.withUTF8 { bytes in
            let escapes = bytes.reduce(0) { $0 + (isUnreserved($1) ? 0 : 1) }
            guard escapes > 0 else { return String(decoding: bytes, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: bytes.count + 2 * escapes) { buffer in
                var count = 0
                for byte in bytes {
                    if isUnreserved(byte) {
                        buffer[count] = byte
                        count += 1
                    } else {
                        buffer[count] = UInt8(ascii: "%")
                        buffer[count + 1] = hexDigits[Int(byte >> 4)]
                        buffer[count + 2] = hexDigits[Int(byte & 0x0F)]
                        count += 3
                    }
                }
                return count
            }
        }
    }

    /// `text` with every `%HH` escape (either case) replaced by its byte; `nil` when an escape
    /// is malformed (`%zz`, a `%` too near the end) or the bytes are not UTF-8. Nothing else
    /// changes: a `+` stays a `+`.
    public static func decoding(_ text: some StringProtocol) -> String? {
        var text = String(text)
        return text.withUTF8 { bytes in
            guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
            var decoded: [UInt8] = []
            decoded.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "%") else {
                    decoded.append(byte)
                    index += 1
                    continue
                }
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            }
            return String(validating: decoded, as: UTF8.self)
        }
    }

    /// Whether `byte` is an unreserved character (RFC 3986 §2.3): a letter, a digit, `-._~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The value of a hexadecimal digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
