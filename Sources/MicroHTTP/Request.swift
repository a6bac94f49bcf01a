/// A complete HTTP request as a handler sees it: decoded, validated and immutable.
///
/// Paths, query and form values are percent-decoded by libmicrohttpd; the server has already
/// rejected malformed escapes and invalid UTF-8 with 400, and oversized bodies with 413.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The decoded path, without the query, e.g. `/cart/items/3/quantity`.
    public var path: String
    /// The decoded query parameters.
    public var query: Parameters
    /// The request's header fields.
    public var headers: HTTPHeaders
    /// Cookies sent by the client, in order (``Cookies``: its subscript finds the first of a name).
    public var cookies: Cookies
    /// Fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: Parameters
    /// The raw body, for any other content type; empty for forms.
    public var body: [UInt8]
    /// The client's IP address as text: the peer's, or, when the peer is one of the configured
    /// ``Server/Configuration/trustedProxies``, the client its `X-Forwarded-For` names.
    public var remoteAddress: String
    /// Values captured by the matched route pattern, e.g. `["id": "3"]`; set by ``Router``.
    public var routeParameters: [String: String]

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
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.form = form
        self.body = body
        self.remoteAddress = remoteAddress
        self.routeParameters = routeParameters
    }
}
