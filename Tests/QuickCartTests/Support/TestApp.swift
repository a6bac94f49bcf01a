import Foundation
import HTTPTesting
import Testing

/// A native app's side of the API for tests: it holds a bearer token and sends JSON, each
/// request on a fresh connection to the real server.
final class TestApp {
    /// An answer, with its body read as JSON when it is.
    struct Answer: CustomStringConvertible {
        let response: TestHTTPClient.Response
        var status: Int { response.status }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:] }
        func header(_ name: String) -> String? { response.header(name) }
        var description: String { "\(response.status) \(response.text.prefix(600))" }

        /// The problem's `type` slug (`stale-cart`), or `nil` when the answer is no problem.
        var problem: String? {
            guard response.header("Content-Type") == "application/problem+json" else { return nil }
            return (json["type"] as? String).map { String($0.dropFirst("/api/v1/problems/".count)) }
        }

        /// The cart's badge number, of a cart answer (or `"cart"` member).
        var count: Int? { (json["count"] as? Int) ?? ((json["cart"] as? [String: Any])?["count"] as? Int) }

        /// Quantity by product id, of a cart answer.
        var quantities: [String: Int] {
            let lines = (json["lines"] as? [[String: Any]]) ?? []
            return Dictionary(lines.map { (($0["product"] as? [String: Any])?["id"] as? String ?? "", $0["quantity"] as? Int ?? 0) }, uniquingKeysWith: +)
        }
    }

    let port: Int
    var token: String?

    /// Delivery details the demo shop takes (express courier, within the US). Never changed
    /// (`nonisolated(unsafe)`: JSON values are `Any`).
    nonisolated(unsafe) static let delivery: [String: Any] = [
        "name": "Dana Reyes", "email": "dana@example.com", "phone": "+1 503 555 0100", "addressLine1": "12 Trail Street",
        "city": "Portland", "region": "OR", "postalCode": "97201", "country": "US", "method": "express",
    ]

    init(port: Int, token: String? = nil) {
        self.port = port
        self.token = token
    }

    /// A new client (`POST /api/v1/clients`), whose token this app keeps.
    static func create(port: Int, device: String = "iPhone", sourceLocation: SourceLocation = #_sourceLocation) throws -> TestApp {
        let app = TestApp(port: port)
        let answer = try app.send("POST", "/api/v1/clients", json: ["device": device])
        try #require(answer.status == 201, "POST /api/v1/clients: \(answer)", sourceLocation: sourceLocation)
        app.token = try #require(answer.json["token"] as? String, sourceLocation: sourceLocation)
        return app
    }

    /// Sends `json` (an object, encoded) or `body` (bytes as they are) with the token.
    func send(
        _ method: String, _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) throws -> Answer {
        var fields = headers
        if let token { fields.append(("Authorization", "Bearer \(token)")) }
        var bytes: [UInt8] = []
        if let json { bytes = Array(try JSONSerialization.data(withJSONObject: json)) }
        if let body { bytes = body }
        if !bytes.isEmpty, let contentType { fields.append(("Content-Type", contentType)) }
        let client = try TestHTTPClient(port: port)
        defer { client.disconnect() }
        return Answer(response: try client.request(method, path, headers: fields, body: bytes))
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> Answer {
        try send("GET", path, headers: headers)
    }

    /// The live stream, `GET /api/v1/events`, with the token.
    func eventStream(timeout: Double = 5) throws -> TestEventStreamClient {
        try TestEventStreamClient(port: port, path: "/api/v1/events", headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [], timeout: timeout)
    }
}
