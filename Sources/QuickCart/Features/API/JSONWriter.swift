/// Writes JSON text straight into bytes, commas and escapes included: the API's answers are
/// built this way rather than through an encoder, so a cart costs no more to write than its page.
///
/// ```swift
/// var json = JSONWriter()
/// json.object { json in
///     json.field("count") { $0.number(3) }
///     json.field("version") { $0.string("17") }
/// }
/// json.bytes  // {"count":3,"version":"17"}
/// ```
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written already holds a value, so the next needs a comma.
    private var needsComma = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// An object whose members `body` writes with ``field(_:_:)``.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    /// An array whose elements `body` writes.
    mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(open)
        needsComma = false
        body(&self)
        bytes.append(close)
        needsComma = true
    }

    /// A member named `name` (plain ASCII, written as it is) whose value `value` writes.
    mutating func field(_ name: StaticString, _ value: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        value(&self)
        needsComma = true
    }

    mutating func string(_ text: String) {
        beginValue()
        Self.appendQuoted(text, to: &bytes)
        needsComma = true
    }

    mutating func number(_ value: some BinaryInteger) {
        beginValue()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    mutating func null() {
        beginValue()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// JSON another writer made, as one value.
    mutating func raw(_ json: [UInt8]) {
        beginValue()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    private mutating func beginValue() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`, and the
    /// line and paragraph separators too (older JavaScript reads them as line breaks).
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
                case 0..<0x20, 0x7F:
                    let digits = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0x0F)])
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    bytes.append(contentsOf: (utf8[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                    index += 2
                default: bytes.append(byte)
                }
                index += 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
