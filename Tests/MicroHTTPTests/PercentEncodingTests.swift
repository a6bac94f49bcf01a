import Foundation
import MicroHTTP
import Testing

/// The byte percent-encoder and decoder, against Foundation's, which they replace.
@Suite struct PercentEncodingTests {
    /// RFC 3986's unreserved characters, the set Foundation was asked to keep.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static let texts = [
        "", "plain", "Added Trail Running Shoes — 2 in cart", "A-Z.a_z~0 9", "100% +sure/?&=#;,\"'<>\\",
        "é e\u{301} 日本 🛒 \u{202E}", "\u{0}\r\n\t\u{7F}", String(repeating: "ü", count: 300),
    ]

    @Test("Encoding keeps exactly what Foundation kept, and writes the same uppercase escapes", arguments: texts)
    func encodesAsFoundationDid(text: String) throws {
        let foundation = try #require(text.addingPercentEncoding(withAllowedCharacters: Self.unreserved))
        #expect(PercentEncoding.encodingAllButUnreserved(text) == foundation)
        #expect(PercentEncoding.encodingAllButUnreserved(text.prefix(200)) == text.prefix(200).addingPercentEncoding(withAllowedCharacters: Self.unreserved))
    }

    @Test("Decoding undoes encoding, for any text", arguments: texts)
    func roundTrips(text: String) {
        #expect(PercentEncoding.decoding(PercentEncoding.encodingAllButUnreserved(text)) == text)
    }

    @Test("Decoding agrees with Foundation on well-formed, malformed and non-UTF-8 input", arguments: [
        "", "plain", "a+b", "%41%62%e2%80%94", "%E2%80%94x", "%00", "%0D%0A", "a%", "a%4", "%zz", "%4G", "%%41",
        "%C3", "%C3%28", "%FF", "%ED%A0%80", "é%20日本", "%F0%9F%9B%92",
    ])
    func decodesAsFoundationDid(text: String) {
        #expect(PercentEncoding.decoding(text) == text.removingPercentEncoding, "\(text.debugDescription)")
    }

    @Test("Decoding reads escapes in either case and leaves everything else as it is")
    func decodingDetails() {
        #expect(PercentEncoding.decoding("%e2%80%94%E2%80%94") == "——")
        #expect(PercentEncoding.decoding("a+b c") == "a+b c")
        #expect(PercentEncoding.decoding("50%") == nil)
        #expect(PercentEncoding.decoding("%C3") == nil, "half a UTF-8 sequence is not text")
    }
}
