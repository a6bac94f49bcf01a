import Glibc

/// Reads one cookie out of a request's `Cookie` fields. It stands alone, apart from
/// ``SessionManager``, so that the `cookie-fields` fuzz target compiles it by itself.
enum SessionCookie {
    /// The value of the one cookie named `name` in `fields` (the values of every `Cookie`
    /// field), or `nil` when there is none or more than one. Pairs are split at `;` and at
    /// their first `=`; spaces and tabs around names and values are dropped; names are
    /// compared byte for byte.
    ///
    /// Two session cookies mean that someone else set one: a sibling subdomain can set a
    /// cookie for this host under another `Domain` or `Path`, and browsers send both. Trusting
    /// either could plant a session, so neither is trusted and the request starts afresh.
    static func soleValue(named name: String, in fields: [String]) -> String? {
        // Bytes, not Characters: String's comparisons are up to canonical equivalence, under
        // which U+037E GREEK QUESTION MARK is a `;` and U+212A KELVIN SIGN a `K`, and a
        // combining mark after `;` or `=` would hide it inside one Character. One pass over
        // contiguous bytes, as this runs for every request.
        var name = name
        return name.withUTF8 { name in
            var found: String?
            for var field in fields {
                let isDuplicate = field.withUTF8 { bytes in
                    var start = 0
                    while start <= bytes.count {
                        let end = firstIndex(of: UInt8(ascii: ";"), in: bytes, start..<bytes.count) ?? bytes.count
                        if let equals = firstIndex(of: UInt8(ascii: "="), in: bytes, start..<end),
                           matches(name, bytes, trimming: start..<equals) {
                            if found != nil { return true }
                            // The cuts are at ASCII bytes, so they fall between whole characters.
                            let value = trimmingBlanks(bytes, equals + 1..<end)
                            found = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                        }
                        start = end + 1
                    }
                    return false
                }
                if isDuplicate { return nil }
            }
            return found
        }
    }

    /// The first place of `byte` in `range` of `bytes`. `memchr` looks at many bytes a step,
    /// where a loop looks at one: a session cookie is a hundred bytes, read on every request.
    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard let base = bytes.baseAddress, !range.isEmpty,
              let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Whether `range` of `bytes`, without its blanks, is `name`.
    private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>, trimming range: Range<Int>) -> Bool {
        let trimmed = trimmingBlanks(bytes, range)
        guard trimmed.count == name.count else { return false }
        var offset = 0
        while offset < name.count {
            if bytes[trimmed.lowerBound + offset] != name[offset] { return false }
            offset += 1
        }
        return true
    }

    /// `range` without the spaces and tabs around it, as cookie pairs are written.
    private static func trimmingBlanks(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = range.lowerBound, end = range.upperBound
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}
