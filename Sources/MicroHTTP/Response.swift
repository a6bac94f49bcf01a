/// What a handler answers: a status, header fields and a body.
///
/// ```swift
/// return .html(page)                       // 200, text/html; charset=utf-8
/// return .redirect(to: "/cart")            // 303 See Other
/// ```
public struct Response: Sendable {
    /// The status line's code and phrase.
    public var status: HTTPStatus
    /// Header fields, in order. `Content-Length` is added by the server.
    public var headers: HTTPHeaders
    /// The body. A `304 Not Modified` sends none, but its `Content-Length` is this body's
    /// length, which RFC 9110 (§8.6) allows only when it is the `200`'s: give a 304 the
    /// representation's bytes (``SharedBytes/init(sameBytesAs:)`` shares them uncopied).
    public var body: ResponseBody
    /// Which of a ``Router``'s routes answered (an index of ``Router/routePatterns``), set by
    /// the router; `-1` for an answer no route gave (404, a request refused before routing).
    public var routeSlot = -1

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Adds a `Set-Cookie` header for `cookie`.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }

    /// An HTML page encoded as UTF-8.
    public static func html(_ page: String, status: HTTPStatus = .ok) -> Response {
        html(bytes: Array(page.utf8), status: status)
    }

    /// An HTML page already encoded as UTF-8 bytes.
    public static func html(bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    /// Plain text encoded as UTF-8.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// A redirect, `303 See Other` by default, as post/redirect/get wants.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location])
    }
}

/// The body of a ``Response``.
public enum ResponseBody: Sendable {
    /// No body.
    case empty
    /// A complete body.
    case bytes([UInt8])
    /// A complete body that is sent without being copied, for bytes that many answers share.
    case shared(SharedBytes)
    /// A body that stays open and carries server-sent events as they are published.
    case eventStream(EventStream)

    /// The byte count of a complete body; `nil` for a stream.
    public var count: Int? {
        switch self {
        case .empty: 0
        case .bytes(let bytes): bytes.count
        case .shared(let shared): shared.count
        case .eventStream: nil
        }
    }
}
