/// The access and operator lines as JSON objects, one a line (`--log-format json`), with the
/// text lines' fields and the same guarantees: whatever a client sends, a line is one valid JSON
/// object ending in its only line break, and holds nothing that could drive a terminal or hide
/// what it says. JSON's own escapes carry every field exactly (up to the same limits as the text
/// lines, a clipped field ending in `…`), so a reader decodes what the client sent.
///
/// `{"kind":"access","client":"203.0.113.7","method":"GET","path":"/cart","status":200,"sent":true,"bytes":7125,"ms":0.84,"session":"3fa2c1d09b"}`
enum JSONLogLine {
    /// One access line: `bytes` is `null` and `stream` true for an event stream.
    static func access(
        client: String, method: String, path: String, status: Int, bodyBytes: Int?, microseconds: UInt64, session: String,
        sent: Bool = true
    ) -> String {
        var line = #"{"kind":"access","client":"#
        line += client.isEmpty ? "null" : string(client, limit: 64)
        line += #","method":"# + string(method, limit: 32)
        line += #","path":"# + string(path, limit: 200)
        line += #","status":"# + String(status) + #","sent":"# + (sent ? "true" : "false")
        if let bodyBytes {
            line += #","bytes":"# + String(bodyBytes)
        } else {
            line += #","bytes":null,"stream":true"#
        }
        let hundredths = (microseconds % 1000) / 10
        line += #","ms":"# + String(microseconds / 1000) + (hundredths < 10 ? ".0" : ".") + String(hundredths)
        line += #","session":"# + string(session, limit: 16) + "}\n"
        return line
    }

    /// An operator line: `{"kind":"error","message":"…"}` (or `"info"`).
    static func message(_ message: String, isError: Bool) -> String {
        #"{"kind":""# + (isError ? "error" : "info") + #"","message":"# + string(message, limit: 4096) + "}\n"
    }

    /// `text` as a JSON string, quotes included: `"` and `\` escaped, and as `\uXXXX` (a
    /// surrogate pair above U+FFFF) every control character and every invisible one the text
    /// lines escape (format characters such as bidirectional overrides, line and paragraph
    /// separators, private-use and unassigned code points). At most `limit` scalars are kept.
    static func string(_ text: some StringProtocol, limit: Int) -> String {
        var result = "\""
        let isPlain = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C }
        if text.utf8.count <= limit, text.utf8.allSatisfy(isPlain) {
            return result + text + "\""
        }
        for scalar in text.unicodeScalars.prefix(limit) {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += unicodeEscape(scalar.value)
            case _ where scalar.value >= 0x80 && !isVisible(scalar):
                if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    result += unicodeEscape(0xD800 + (offset >> 10)) + unicodeEscape(0xDC00 + (offset & 0x3FF))
                } else {
                    result += unicodeEscape(scalar.value)
                }
            default: result.unicodeScalars.append(scalar)
            }
        }
        if text.unicodeScalars.count > limit { result += "…" }
        return result + "\""
    }

    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: false
        default: true
        }
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
