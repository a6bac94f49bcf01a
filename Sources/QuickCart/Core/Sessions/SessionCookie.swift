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
        // combining mark after `;` or `=` would hide it inside one Character.
        var found: Substring.UTF8View?
        for field in fields {
            for pair in field.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")),
                      trimmingBlanks(pair[..<equals]).elementsEqual(name.utf8) else { continue }
                if found != nil { return nil }
                found = trimmingBlanks(pair[pair.index(after: equals)...])
            }
        }
        // The cuts are at ASCII bytes, so they fall between whole characters.
        return found.map { String(Substring($0)) }
    }

    /// Without the spaces and tabs around it, as cookie pairs are written.
    private static func trimmingBlanks(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let start = bytes.firstIndex { !isBlank($0) } ?? bytes.endIndex
        let end = bytes[start...].lastIndex { !isBlank($0) }.map(bytes.index(after:)) ?? start
        return bytes[start..<end]
    }
}
