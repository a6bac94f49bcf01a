/// Just enough JSON for catalog files: values with the line each starts on, and numbers kept
/// as their text, so a price like `24.50` never passes through floating point.
indirect enum JSONText: Equatable {
    case object([Member], line: Int)
    case array([JSONText], line: Int)
    case string(String, line: Int)
    /// A number's exact text, e.g. `24.50`.
    case number(String, line: Int)
    case bool(Bool, line: Int)
    case null(line: Int)

    /// An object member, with the line its name is on.
    struct Member: Equatable {
        let name: String
        let value: JSONText
        let line: Int
    }

    /// Where the text stops being JSON.
    struct Failure: Error, Equatable {
        let line: Int
        /// 1-based, in characters (Unicode scalars) from the line's start: a minified file is one
        /// line, where the line alone would not say where to look.
        let column: Int
        let message: String
    }

    /// The line the value starts on.
    var line: Int {
        switch self {
        case .object(_, let line), .array(_, let line), .string(_, let line), .number(_, let line), .bool(_, let line): line
        case .null(let line): line
        }
    }

    /// Reads one JSON value filling the whole of `text` (white space aside).
    /// - Throws: ``Failure`` naming the line and column where it is not JSON.
    static func parse(_ text: String) throws(Failure) -> JSONText {
        var reader = Reader(bytes: Array(text.utf8))
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.failure("more text after the JSON value ends") }
        return value
    }

    /// `value` as a JSON string literal.
    static func quoted(_ value: String) -> String {
        let escaped = value.replacingScalars { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20:
                "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: nil
            }
        }
        return "\"" + escaped + "\""
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        /// Where ``line`` starts in ``bytes``.
        var lineStart = 0
        /// Deeper nesting than a catalog needs is refused rather than recursed into.
        static let maximumDepth = 32

        func failure(_ message: String) -> Failure {
            let column = bytes[lineStart..<min(index, bytes.count)].reduce(1) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 }
            return Failure(line: line, column: column, message: message)
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                // A line ends at LF, CRLF, or a CR alone (an old Mac file), as an editor counts it.
                case UInt8(ascii: "\n"):
                    line += 1
                    lineStart = index + 1
                case UInt8(ascii: "\r") where index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"):
                    line += 1
                    lineStart = index + 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
                default: return
                }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(Failure) -> JSONText {
            skipSpace()
            guard depth < Self.maximumDepth else { throw failure("nested too deeply") }
            guard index < bytes.count else { throw failure("the JSON ends where a value should be") }
            let start = line
            switch bytes[index] {
            case UInt8(ascii: "{"):
                var members: [Member] = []
                try sequence(closedBy: "}", in: "an object") { reader throws(Failure) in
                    reader.skipSpace()
                    let nameLine = reader.line
                    guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "\"") else {
                        throw reader.failure("expected a member name in quotes")
                    }
                    let name = try reader.string()
                    reader.skipSpace()
                    guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: ":") else {
                        throw reader.failure("expected “:” after the member name")
                    }
                    reader.index += 1
                    members.append(Member(name: name, value: try reader.value(depth: depth + 1), line: nameLine))
                }
                return .object(members, line: start)
            case UInt8(ascii: "["):
                var elements: [JSONText] = []
                try sequence(closedBy: "]", in: "an array") { reader throws(Failure) in
                    elements.append(try reader.value(depth: depth + 1))
                }
                return .array(elements, line: start)
            case UInt8(ascii: "\""):
                return .string(try string(), line: start)
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true, line: start)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false, line: start)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null(line: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return .number(try number(), line: start)
            default:
                throw failure("unexpected character where a JSON value should be")
            }
        }

        /// Reads the elements of an object or array, from its opening character to `closer`:
        /// none, or `element` read again after each comma.
        private mutating func sequence(
            closedBy closer: Unicode.Scalar, in container: String, _ element: (inout Reader) throws(Failure) -> Void
        ) throws(Failure) {
            let close = UInt8(ascii: closer)
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == close {
                index += 1
                return
            }
            while true {
                try element(&self)
                skipSpace()
                guard index < bytes.count else { throw failure("the JSON ends inside \(container)") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == close { index += 1; return }
                throw failure("expected “,” or “\(closer)” in \(container)")
            }
        }

        private mutating func literal(_ word: String) throws(Failure) {
            let expected = Array(word.utf8)
            guard bytes[index...].starts(with: expected) else { throw failure("unexpected word where a JSON value should be") }
            index += expected.count
        }

        private mutating func number() throws(Failure) -> String {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits() -> Int {
                let from = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - from
            }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0 else { throw failure("a number needs digits") }
            // RFC 8259 §6: `0` alone or a digit 1–9 first; `01` is no JSON number.
            guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw failure("a number cannot have a leading zero") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("a number needs digits after its point") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func string() throws(Failure) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard bytes[index...].starts(with: Array("\\u".utf8)) else { throw failure("a lone surrogate in \\u escapes") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate in \\u escapes") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw failure("a lone surrogate in \\u escapes") }
                        scalars.append(scalar)
                    default:
                        throw failure("an unknown escape in a string")
                    }
                case 0..<0x20:
                    throw failure(byte == UInt8(ascii: "\n") ? "a string runs past the end of its line" : "a control character inside a string")
                default:
                    run.append(byte)
                    index += 1
                }
            }
            throw failure("a string is never closed")
        }

        private mutating func hex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw failure("a \\u escape needs four hex digits")
            }
            index += 4
            return code
        }
    }
}
