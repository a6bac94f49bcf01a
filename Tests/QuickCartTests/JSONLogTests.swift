import Foundation
@testable import QuickCart
import Testing

extension ShopTests {
    /// `--log-format json`: every line one valid JSON object, for any input, holding the fields
    /// exactly (JSON's escapes lose nothing) and nothing unprintable.
    @Suite("JSON log lines")
    struct JSONLogTests {
        /// Scalars a hostile client or a strange error might send: controls, quotes, backslashes,
        /// bidirectional overrides, separators, combining marks, private use, unassigned, astral.
        static let awkward: [Unicode.Scalar] = [
            "\0", "\n", "\r", "\t", "\u{1B}", "\u{7F}", "\"", "\\", "/", " ", "a", "é", "\u{301}", "\u{202E}", "\u{2028}", "\u{2029}",
            "\u{85}", "\u{A0}", "\u{200B}", "\u{FEFF}", "\u{E000}", "\u{378}", "\u{D4E}", "日", "\u{1F600}", "\u{10FFFD}", "\u{E0001}",
        ]

        static func randomText(_ generator: inout some RandomNumberGenerator) -> String {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...260, using: &generator) {
                if Bool.random(using: &generator) {
                    text.append(awkward.randomElement(using: &generator)!)
                } else if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &generator)) {
                    text.append(scalar)
                }
            }
            return String(text)
        }

        /// The line, parsed; fails unless it is one clean line of one JSON object.
        static func object(_ line: String) throws -> [String: Any] {
            #expect(line.hasSuffix("\n") && line.dropLast().unicodeScalars.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: false
                default: true
                }
            }, "\(line.debugDescription)")
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line.debugDescription)")
        }

        /// What a field of `limit` scalars reads back as.
        static func expected(_ text: String, limit: Int) -> String {
            text.unicodeScalars.count > limit ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…" : text
        }

        @Test("3,000 random access and error lines: each one JSON object a line, every field read back exactly")
        func randomLinesAreValidJSON() throws {
            var generator = SystemRandomNumberGenerator()
            for round in 0..<3_000 {
                let client = Self.randomText(&generator), method = Self.randomText(&generator), path = Self.randomText(&generator)
                let sent = round % 3 != 0
                let bytes: Int? = round % 5 == 0 ? nil : round
                let line = JSONLogLine.access(
                    client: client, method: method, path: path, status: 200 + round % 300, bodyBytes: bytes,
                    microseconds: UInt64(round) * 1_237, session: "3fa2c1d09b", sent: sent
                )
                let object = try Self.object(line)
                #expect(object["kind"] as? String == "access")
                if client.isEmpty { #expect(object["client"] is NSNull) } else { #expect(object["client"] as? String == Self.expected(client, limit: 64)) }
                #expect(object["method"] as? String == Self.expected(method, limit: 32))
                #expect(object["path"] as? String == Self.expected(path, limit: 200), "\(line.debugDescription)")
                #expect(object["status"] as? Int == 200 + round % 300)
                #expect(object["sent"] as? Bool == sent)
                if let bytes { #expect(object["bytes"] as? Int == bytes) } else { #expect(object["stream"] as? Bool == true) }
                #expect(abs((object["ms"] as? Double ?? -1) - Double(round * 1_237 / 10) / 100) < 0.001)
                #expect(object["session"] as? String == "3fa2c1d09b")

                let message = Self.randomText(&generator)
                let error = try Self.object(JSONLogLine.message(message, isError: round % 2 == 0))
                #expect(error["kind"] as? String == (round % 2 == 0 ? "error" : "info"))
                #expect(error["message"] as? String == Self.expected(message, limit: 4096))
            }
        }

        @Test("The text line's example, as JSON")
        func example() throws {
            #expect(JSONLogLine.access(client: "203.0.113.7", method: "GET", path: "/cart", status: 200, bodyBytes: 7125, microseconds: 842, session: "3fa2c1d09b")
                == #"{"kind":"access","client":"203.0.113.7","method":"GET","path":"/cart","status":200,"sent":true,"bytes":7125,"ms":0.84,"session":"3fa2c1d09b"}"# + "\n")
            #expect(JSONLogLine.message("a \"quoted\" \u{1B}[2J\n", isError: true) == #"{"kind":"error","message":"a \"quoted\" \u001b[2J\u000a"}"# + "\n")
            #expect(try QuickCart.Configuration.parse(arguments: ["--log-format", "json"], environment: [:]).logFormat == .json)
            #expect(throws: QuickCart.Configuration.UsageError.self) {
                _ = try QuickCart.Configuration.parse(arguments: [], environment: ["QUICKCART_LOG_FORMAT": "xml"])
            }
        }
    }
}
