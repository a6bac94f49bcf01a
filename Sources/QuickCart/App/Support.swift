import FoundationEssentials
import Synchronization

/// Wall-clock time, in one place so handlers agree on it.
struct Clock: Sendable {
    /// A file holding a number of seconds to add to the clock, read at every reading: the tests'
    /// way to move time past a grace or a code's ten minutes without sleeping
    /// (`QUICKCART_TEST_CLOCK_FILE`). `nil`, and never read, unless a test sets it.
    let offsetFile: String?

    /// The real time, with no offset.
    static let system = Clock(offsetFile: nil)

    func nowMilliseconds() -> Int64 {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        guard let offsetFile else { return now }
        let text = FileManager.default.contents(atPath: offsetFile).map { String(decoding: $0, as: UTF8.self) } ?? ""
        // Bounded to a thousand years either way: a test's file must not overflow the clock.
        let seconds = max(-31_557_600_000, min(31_557_600_000, Int64(text.trimmingWhitespace()) ?? 0))
        return now + seconds * 1000
    }
}

/// Lines for the operator, on standard error through ``output`` (safe from any thread). Messages pass
/// through ``LogLine/printable(_:limit:escapingSpaces:)``: they quote request paths and error
/// descriptions, and a decoded `%0A` or an escape sequence must not forge a line.
enum Log {
    /// Where operator lines (and the access log's) gather on their way to standard error: a
    /// request thread that logs never writes itself, so a stalled standard error (during a
    /// storage outage every request logs a line) holds up no request. Each line is written at
    /// once, off the logging thread; QuickCartApp also flushes it when it stops.
    static let output = BufferedLog(name: "log")

    /// Whether lines are JSON objects (`--log-format json`) rather than text; set once at start.
    static let writesJSON = Atomic(false)

    static func info(_ message: String) {
        output.write(line(message), promptly: true)
    }

    static func error(_ message: String) {
        output.write(line(message, isError: true), promptly: true)
    }

    /// The line written for `message`, with its line break.
    static func line(_ message: String, isError: Bool = false) -> String {
        if writesJSON.load(ordering: .relaxed) { return JSONLogLine.message(message, isError: isError) }
        return (isError ? "quickcart: error: " : "quickcart: ") + LogLine.printable(message, limit: 4096) + "\n"
    }
}

/// What QuickCart writes to its logs, as pure functions: the access log's line and the one
/// rule that makes any field printable, shared by the access log and ``Log``.
enum LogLine {
    /// One access-log line, with its line break:
    /// `203.0.113.7 GET /cart 200 7125B 0.84ms s=3fa2c1d09b` (`stream` instead of a size for
    /// event streams; `-` for an unknown client address). The client's address is the one the
    /// server settled on (through a trusted proxy's `X-Forwarded-For` when configured). Every
    /// field that comes from the client is made printable, spaces escaped. An answer that was
    /// not sent shows its status as `200!unsent`, so it is never read as given.
    static func access(
        client: String, method: String, path: String, status: Int, bodyBytes: Int?, microseconds: UInt64, session: String,
        sent: Bool = true
    ) -> String {
        let client = client.isEmpty ? "-" : printable(client, limit: 64, escapingSpaces: true)
        let method = printable(method, limit: 32, escapingSpaces: true)
        let path = printable(path, limit: 200, escapingSpaces: true)
        let session = printable(session, limit: 16, escapingSpaces: true)
        // Written byte by byte into the line's own storage: appending piece by piece, or
        // interpolating numbers through their descriptions, costs more than the rest of the
        // request's logging. 96 bytes hold every separator and number the line can have.
        let capacity = client.utf8.count + method.utf8.count + path.utf8.count + session.utf8.count + 96
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var line = LineWriter(buffer: buffer)
            line.append(client)
            line.append(ascii: " ")
            line.append(method)
            line.append(ascii: " ")
            line.append(path)
            line.append(ascii: " ")
            line.append(decimal: status)
            line.append(sent ? " " : "!unsent ")
            if let bodyBytes {
                line.append(decimal: bodyBytes)
                line.append("B ")
            } else {
                line.append("stream ")
            }
            // "0.84" from 842 µs, without Foundation's formatter on every request.
            line.append(decimal: microseconds / 1000)
            line.append(ascii: ".")
            let hundredths = (microseconds % 1000) / 10
            if hundredths < 10 { line.append(ascii: "0") }
            line.append(decimal: hundredths)
            line.append("ms s=")
            line.append(session)
            line.append(ascii: "\n")
            return line.count
        }
    }

    /// Appends bytes to a buffer known to be large enough.
    private struct LineWriter {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                guard let source = bytes.baseAddress else { return }
                (buffer.baseAddress! + count).update(from: source, count: bytes.count)
                count += bytes.count
            }
        }

        mutating func append(ascii character: Unicode.Scalar) {
            buffer[count] = UInt8(ascii: character)
            count += 1
        }

        mutating func append(decimal value: some BinaryInteger) {
            if value < 0 { append(ascii: "-") }
            var magnitude = UInt64(value.magnitude)
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            // 20 digits at most; written backwards into a scratch tuple, then copied forwards.
            withUnsafeMutableBytes(of: &digits) { scratch in
                var start = scratch.count
                repeat {
                    start -= 1
                    scratch[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                for index in start..<scratch.count {
                    buffer[count + index - start] = scratch[index]
                }
                count += scratch.count - start
            }
        }
    }

    /// `text` with everything that is not plainly printable written as an escape, so that no
    /// field can break a line, drive a terminal or hide what it says: `\xHH` for ASCII control
    /// characters (and spaces, with `escapingSpaces`, so a field cannot pass for two), `\u{H…}`
    /// for other invisible characters (format characters such as bidirectional overrides, line
    /// and paragraph separators, other spaces, private-use and unassigned code points), and `\\`
    /// for a backslash, so the escapes stay unambiguous. With `escapingSpaces`, a first or last
    /// character that would fuse with the space beside it into one character (a combining
    /// accent, a prepended sign) is escaped too, so fields stay apart for any reader.
    /// At most `limit` Unicode scalars of `text` are kept; a clipped text ends in `…`.
    static func printable(_ text: some StringProtocol, limit: Int, escapingSpaces: Bool = false) -> String {
        // Most fields are plain ASCII: check the bytes first, look at Unicode only if needed.
        let utf8 = text.utf8
        let isPlain = { (byte: UInt8) in byte > 0x20 && byte < 0x7F && byte != 0x5C || (!escapingSpaces && byte == 0x20) }
        let isAllPlain = utf8.withContiguousStorageIfAvailable { $0.count <= limit && $0.allSatisfy(isPlain) }
            ?? (utf8.count <= limit && utf8.allSatisfy(isPlain))
        if isAllPlain {
            return String(text)
        }
        var result = ""
        result.reserveCapacity(min(utf8.count, limit) + 16)
        let scalars = Array(text.unicodeScalars.prefix(limit))
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\\" {
                result += "\\\\"
            } else if scalar.value < 0x20 || scalar.value == 0x7F || (escapingSpaces && scalar == " ") {
                result += "\\x" + hex(scalar.value, digits: 2)
            } else if scalar.value >= 0x80, !isVisible(scalar, escapingSpaces: escapingSpaces)
                        || (escapingSpaces && index == 0 && fusesWithSpace(before: scalar))
                        || (escapingSpaces && index == scalars.count - 1 && fusesWithSpace(after: scalar)) {
                result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        if utf8.count > limit, text.unicodeScalars.count > limit { result += "…" }
        return result
    }

    /// Whether a space followed by `scalar` is one character, not two.
    private static func fusesWithSpace(before scalar: Unicode.Scalar) -> Bool {
        var text = " "
        text.unicodeScalars.append(scalar)
        return text.count != 2
    }

    /// Whether `scalar` followed by a space is one character, not two.
    private static func fusesWithSpace(after scalar: Unicode.Scalar) -> Bool {
        var text = String(scalar)
        text += " "
        return text.count != 2
    }

    private static func isVisible(_ scalar: Unicode.Scalar, escapingSpaces: Bool) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: false
        case .spaceSeparator: !escapingSpaces
        default: true
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension StringProtocol {
    /// Whether any character is a control character (a line break, a NUL, an escape...).
    var containsControlCharacter: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether any character is one of Unicode's bidirectional controls (the embeddings,
    /// overrides and isolates, and the marks LRM, RLM and ALM): in a name shown beside other
    /// text they can reverse that text. The zero-width joiners some scripts' names need are
    /// not among them.
    var containsBidiControl: Bool {
        unicodeScalars.contains { $0.properties.isBidiControl }
    }

    /// The text without its bidirectional controls (see ``containsBidiControl``).
    var removingBidiControls: String {
        containsBidiControl ? String(String.UnicodeScalarView(unicodeScalars.filter { !$0.properties.isBidiControl })) : String(self)
    }
}
