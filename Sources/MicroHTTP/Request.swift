/// A complete HTTP request as a handler sees it: decoded, validated and immutable.
///
/// Paths, query and form values are percent-decoded by libmicrohttpd; the server has already
/// rejected malformed escapes and invalid UTF-8 with 400, and oversized bodies with 413.
///
/// A request is passed down the middleware to its handler and kept for the access log, so it
/// is copied several times a request: what the client sent is held in one shared box, copied
/// only when a copy is changed, and a copy costs one reference instead of one per field.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod {
        get { sent.method }
        set { unique().method = newValue }
    }
    /// The decoded path, without the query, e.g. `/cart/items/3/quantity`.
    public var path: String {
        get { sent.path }
        set { unique().path = newValue }
    }
    /// The decoded query parameters.
    public var query: Parameters {
        get { sent.query }
        set { unique().query = newValue }
    }
    /// The request's header fields.
    public var headers: HTTPHeaders {
        get { sent.headers }
        set { unique().headers = newValue }
    }
    /// Cookies sent by the client, in order (``Cookies``: its subscript finds the first of a name).
    public var cookies: Cookies {
        get { sent.cookies }
        set { unique().cookies = newValue }
    }
    /// Fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: Parameters {
        get { sent.form }
        set { unique().form = newValue }
    }
    /// The raw body, for any other content type; empty for forms.
    public var body: [UInt8] {
        get { sent.body }
        // In place: the server appends each piece of an upload as it arrives.
        _modify { yield &unique().body }
    }
    /// The client's IP address as text: the peer's, or, when the peer is one of the configured
    /// ``Server/Configuration/trustedProxies``, the client its `X-Forwarded-For` names.
    public var remoteAddress: String {
        get { sent.remoteAddress }
        set { unique().remoteAddress = newValue }
    }
    /// Values captured by the matched route pattern, e.g. `["id": "3"]`; set by ``Router``.
    /// Kept beside the box: setting them, once a request, does not copy what was sent.
    public var routeParameters: [String: String]

    private var sent: Sent

    /// Creates a request; the server builds these, tests may too.
    public init(
        method: HTTPMethod,
        path: String,
        query: Parameters = Parameters(),
        headers: HTTPHeaders = HTTPHeaders(),
        cookies: Cookies = Cookies(),
        form: Parameters = Parameters(),
        body: [UInt8] = [],
        remoteAddress: String = "",
        routeParameters: [String: String] = [:]
    ) {
        sent = Sent(
            method: method, path: path, query: query, headers: headers, cookies: cookies, form: form, body: body, remoteAddress: remoteAddress
        )
        self.routeParameters = routeParameters
    }

    /// The box, copied first when another request shares it.
    private mutating func unique() -> Sent {
        if !isKnownUniquelyReferenced(&sent) { sent = sent.copy() }
        return sent
    }

    /// What the client sent. Its fields change only through ``Request/unique()``, which copies
    /// a box before changing it unless this request holds the only reference: no two threads
    /// ever see one box change, so it is safe to send.
    private final class Sent: @unchecked Sendable {
        var method: HTTPMethod
        var path: String
        var query: Parameters
        var headers: HTTPHeaders
        var cookies: Cookies
        var form: Parameters
        var body: [UInt8]
        var remoteAddress: String

        init(
            method: HTTPMethod, path: String, query: Parameters, headers: HTTPHeaders, cookies: Cookies, form: Parameters, body: [UInt8],
            remoteAddress: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.cookies = cookies
            self.form = form
            self.body = body
            self.remoteAddress = remoteAddress
        }

        func copy() -> Sent {
            Sent(method: method, path: path, query: query, headers: headers, cookies: cookies, form: form, body: body, remoteAddress: remoteAddress)
        }
    }
}
