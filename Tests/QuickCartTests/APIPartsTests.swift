import Foundation
@testable import MicroHTTP
@testable import QuickCart
import Testing

/// The API's small parts on their own: the bearer token and its base64url, the JSON writer
/// (checked against Foundation's reader), money as decimal strings, and the strict body reader.
@Suite("API: parts")
struct APIPartsTests {
    private let key = HMACKey(Array(repeating: 7, count: 32))

    @Test("A token reads back under its key only; any change of a character, or another key, refuses it")
    func tokens() throws {
        let token = APIToken.issue(device: "Dana’s iPhone", at: 1_800_000_000)
        let text = token.text(key: key)
        #expect(APIToken(text: text, key: key) == token)
        #expect(token.id.count == 40, "160 random bits")
        #expect(APIToken(text: text, key: HMACKey(Array(repeating: 8, count: 32))) == nil)
        for index in text.indices {
            var altered = text
            altered.replaceSubrange(index...index, with: text[index] == "A" ? "B" : "A")
            #expect(APIToken(text: altered, key: key) == nil, "altered at \(text.distance(from: text.startIndex, to: index))")
        }
        #expect(APIToken(text: text + "A", key: key) == nil && APIToken(text: String(text.dropLast()), key: key) == nil)
        #expect(APIToken(text: "", key: key) == nil)
        #expect(APIToken.deviceName("iPad") == "QuickCart app on iPad" && APIToken.deviceName("") == "QuickCart app")
    }

    @Test("base64url round-trips every length and refuses padding, other alphabets and stray bits")
    func base64url() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.decode(text) == bytes)
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == foundation)
        }
        #expect(Base64URL.decode("AB==") == nil && Base64URL.decode("A+/B") == nil && Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AA") == [0] && Base64URL.decode("AB") == nil, "stray bits in the last character")
    }

    @Test("The JSON writer's output is what Foundation reads, escapes included")
    func writer() throws {
        let texts = ["plain", "quote \" back \\ slash", "line\nbreak\ttab\u{1}\u{7F}", "\u{2028}\u{2029}", "émoji 🛒", ""]
        var json = JSONWriter()
        json.object { json in
            json.field("texts") { json in json.array { json in for text in texts { json.string(text) } } }
            json.field("n") { $0.number(-42) }
            json.field("yes") { $0.bool(true) }
            json.field("none") { $0.null() }
            json.field("raw") { $0.raw(Array("[1,2]".utf8)) }
            json.field("empty") { $0.object { _ in } }
        }
        let read = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(read["texts"] as? [String] == texts)
        #expect(read["n"] as? Int == -42 && read["yes"] as? Bool == true && read["none"] is NSNull && read["raw"] as? [Int] == [1, 2])
        #expect(!json.bytes.contains(0x0A), "a raw line break in the output")
    }

    @Test("Money is exact decimal text with two places")
    func money() {
        #expect(APIModels.decimal(Money(cents: 2_450)) == "24.50")
        #expect(APIModels.decimal(Money(cents: 5)) == "0.05")
        #expect(APIModels.decimal(Money(cents: 100_000_000)) == "1000000.00")
        #expect(APIModels.decimal(Money(cents: -305)) == "-3.05")
    }

    private func request(_ body: String, contentType: String? = "application/json") -> Request {
        var headers = HTTPHeaders()
        if let contentType { headers["Content-Type"] = contentType }
        return Request(method: .post, path: "/api/v1/cart/lines", headers: headers, body: Array(body.utf8))
    }

    @Test("The body reader takes exactly the declared fields, of their types, and names the field at fault")
    func body() throws {
        let fields: [String: APIBody.FieldType] = ["id": .string, "quantity": .integer, "address": .object(["city": .string])]
        let body = try APIBody.read(request(#"{"id": "3", "quantity": -2, "address": {"city": "Oslo"}}"#, contentType: "application/json; charset=utf-8"), fields: fields)
        #expect(body.string("id") == "3" && body.integer("quantity") == -2 && body.object("address")?.string("city") == "Oslo")
        #expect(try APIBody.read(request(#"{"quantity": 99999999999999999999999}"#), fields: fields).integer("quantity") == Int.max)
        for (text, value) in [("0", 0), ("-0", 0), ("10", 10), ("1e0", 1)] {
            #expect(try APIBody.read(request(#"{"quantity": \#(text)}"#), fields: fields).integer("quantity") == value, "\(text)")
        }
        for (text, value) in [("3", 3), ("3.0", 3), ("-4.00", -4), ("3e0", 3), ("1E1", 10), ("250e-2", nil), ("2500e-3", nil), ("300e-2", 3), ("0.0", 0), ("-0", 0),
                              // Int.min as an exponent trapped when negated, stopping the server.
                              ("1e-9223372036854775808", nil), ("0e-9223372036854775808", 0), ("1e9223372036854775807", Int.max)] {
            #expect(APIBody.wholeNumber(text) == value, "\(text)")
        }
        let refused: [(String, APIProblem.Kind, String?)] = [
            (#"{"quantity": "2"}"#, .invalidBody, "quantity"),
            (#"{"quantity": 2.5}"#, .invalidBody, "quantity"),
            (#"{"quantity": 25e-1}"#, .invalidBody, "quantity"),
            (#"{"quantity": null}"#, .invalidBody, "quantity"),
            (#"{"id": 3}"#, .invalidBody, "id"),
            (#"{"address": {"town": "Oslo"}}"#, .invalidBody, "address.town"),
            (#"{"address": []}"#, .invalidBody, "address"),
            (#"{"other": 1}"#, .invalidBody, "other"),
            (#"{"id": "1", "id": "2"}"#, .invalidBody, "id"),
            (#"{"id": "1"} x"#, .invalidJSON, nil),
            (#"{"quantity": 01}"#, .invalidJSON, nil),
            (#"{"quantity": 0001}"#, .invalidJSON, nil),
            (#"{"quantity": -01}"#, .invalidJSON, nil),
            (#"{"quantity": 00.5}"#, .invalidJSON, nil),
            (#"{"quantity": 0.5}"#, .invalidBody, "quantity"),
            (#"{"id": "\ud800"}"#, .invalidJSON, nil),
            ("", .invalidJSON, nil),
        ]
        for (text, kind, field) in refused {
            do {
                _ = try APIBody.read(request(text), fields: fields, required: text.isEmpty ? ["id"] : [])
                Issue.record("\(text) was read")
            } catch {
                #expect(error.kind == kind && error.field == field, "\(text): \(error.kind) \(error.field ?? "-")")
            }
        }
        #expect(throws: APIProblem.self) { try APIBody.read(request("{}", contentType: "text/json"), fields: fields) }
        #expect(APIBody.isJSON("Application/JSON ; charset=utf-8") && !APIBody.isJSON("application/jsonx"))
    }
}
