/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), for tokens.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = UInt32(0)
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            for position in 0...chunk.count { out.append(alphabet[Int(value >> (18 - 6 * UInt32(position)) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes, or `nil` for anything but unpadded base64url written the one way
    /// ``encode(_:)`` writes it (no stray bits in the last character).
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var value = UInt32(0), bits = 0
        for character in characters {
            guard let digit = sextet(character) else { return nil }
            value = value << 6 | UInt32(digit)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: value >> UInt32(bits)))
                value &= (1 << UInt32(bits)) - 1
            }
        }
        return value == 0 ? out : nil
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
