import HTTPTesting
import MicroHTTP
import QuickCart

/// Requests answered by the app's router in this process, with no socket (``QuickCartApp/respond(to:)``),
/// for tests that need only a request and its answer: the request as libmicrohttpd would hand
/// it over (the path and query decoded, cookies and an urlencoded form read), the answer as the
/// socket client reads it.
enum InProcessRequests {
    static func send(
        to app: QuickCartApp, _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]
    ) throws -> TestHTTPClient.Response {
        let (rawPath, rawQuery) = split(target, at: "?")
        var fields = HTTPHeaders()
        fields.add("Host", "127.0.0.1")
        for (name, value) in headers { fields.add(name, value) }
        var cookies = Cookies()
        for cookie in fields.values(named: "Cookie").flatMap({ $0.split(separator: ";") }) {
            let (name, value) = split(String(cookie.drop { $0 == " " }), at: "=")
            cookies.append(name: name, value: value ?? "")
        }
        let isForm = fields["Content-Type"]?.hasPrefix("application/x-www-form-urlencoded") ?? false
        let request = Request(
            method: HTTPMethod(rawValue: method), path: try decoded(rawPath), query: try parameters(rawQuery ?? ""),
            headers: fields, cookies: cookies, form: isForm ? try parameters(String(decoding: body, as: UTF8.self)) : Parameters(),
            body: isForm ? [] : body, remoteAddress: "127.0.0.1"
        )
        let response = app.respond(to: request)
        var headers = response.headers.map { (name: $0.name, value: $0.value) }
        // The server adds Content-Length for a complete body, and sends none for HEAD or a 304.
        if let count = response.body.count { headers.append((name: "Content-Length", value: String(count))) }
        let bytes: [UInt8] = switch response.body {
        case _ where method == "HEAD" || response.status.code == 304: []
        case .empty, .eventStream: []
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        }
        return TestHTTPClient.Response(status: response.status.code, headers: headers, body: bytes)
    }

    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }

    private static func decoded(_ text: String) throws -> String {
        guard let value = PercentEncoding.decoding(text.replacing("+", with: " ")) else { throw Undecodable(text: text) }
        return value
    }

    private static func parameters(_ text: String) throws -> Parameters {
        Parameters(try text.split(separator: "&").map { pair in
            let (name, value) = split(String(pair), at: "=")
            return (name: try decoded(name), value: try decoded(value ?? ""))
        })
    }

    /// A target or form the test meant for the socket: this path does not refuse it as the server would.
    struct Undecodable: Error {
        let text: String
    }
}
